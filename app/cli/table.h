#pragma once
// A plain text table (aligned columns) and CSV, for the CLI's text outputs.
#include <ostream>
#include <string>
#include <vector>

namespace threadmap::cli {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right_aligned;  // per column; numbers align right

  void print_text(std::ostream& os) const;
  void print_csv(std::ostream& os) const;
};

std::string fixed(double value, int decimals);

}  // namespace threadmap::cli
