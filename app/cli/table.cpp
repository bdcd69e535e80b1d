#include "app/cli/table.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "app/cli/output.h"

namespace threadmap::cli {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// Cells hold names and messages from files: one line each, controls shown.
std::vector<std::string> printable_cells(const std::vector<std::string>& row) {
  std::vector<std::string> out;
  for (const std::string& cell : row) out.push_back(printable(cell));
  return out;
}

void widen(std::vector<std::size_t>& width, const std::vector<std::string>& cells) {
  for (std::size_t c = 0; c < cells.size() && c < width.size(); ++c) width[c] = std::max(width[c], cells[c].size());
}

}  // namespace

void Table::print_text(std::ostream& os) const {
  std::vector<std::size_t> width(header.size(), 0);
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows) widen(width, printable_cells(row));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string fill(width[c] - std::min(width[c], cell.size()), ' ');
      const bool right = c < right_aligned.size() && right_aligned[c];
      out += (c ? "  " : "") + (right ? fill + cell : cell + fill);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    os << out << '\n';
  };
  line(header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : rows) line(printable_cells(row));
}

void Table::print_csv(std::ostream& os) const {
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) os << (c ? "," : "") << csv_field(cells[c]);
    os << '\n';
  };
  line(header);
  for (const auto& row : rows) line(printable_cells(row));
}

std::string fixed(double value, int decimals) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(decimals) << value;
  return os.str();
}

}  // namespace threadmap::cli
