#include "kernels/ptx/ptx_parse.h"

#include <algorithm>
#include <charconv>

namespace threadmap::cuda::ptx {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Directives that end at the end of their line rather than at a ';'.
constexpr std::string_view kLineDirectives[] = {".loc", ".file", ".version", ".target", ".address_size"};

std::string excerpt(std::string_view text, std::size_t begin) {
  std::string_view rest = text.substr(begin, 60);
  if (const auto newline = rest.find('\n'); newline != std::string_view::npos) rest = rest.substr(0, newline);
  return std::string(trim(rest));
}

[[noreturn]] void fail_at(std::string_view text, std::size_t offset, const std::string& what) {
  throw PtxError("PTX line " + std::to_string(line_at(text, offset)) + ": " + what);
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::vector<Statement> run() {
    std::vector<Statement> out;
    while (skip_blank()) {
      const std::size_t begin = at_;
      const StatementKind kind = next_statement();
      out.push_back({kind, begin, at_, text_.substr(begin, at_ - begin)});
    }
    return out;
  }

 private:
  // Skips white space and comments; false at the end of the text.
  bool skip_blank() {
    while (at_ < text_.size()) {
      if (is_space(text_[at_])) {
        ++at_;
      } else if (text_.substr(at_, 2) == "//") {
        skip_line_comment();
      } else if (text_.substr(at_, 2) == "/*") {
        skip_block_comment();
      } else {
        return true;
      }
    }
    return false;
  }

  void skip_line_comment() {
    const auto newline = text_.find('\n', at_);
    at_ = newline == std::string_view::npos ? text_.size() : newline + 1;
  }

  void skip_block_comment() {
    const auto close = text_.find("*/", at_ + 2);
    if (close == std::string_view::npos) fail_at(text_, at_, "a /* comment does not end");
    at_ = close + 2;
  }

  void skip_string() {
    const std::size_t open = at_++;
    while (at_ < text_.size() && text_[at_] != '"') {
      if (text_[at_] == '\\') ++at_;
      ++at_;
    }
    if (at_ >= text_.size()) fail_at(text_, open, "a string does not end");
    ++at_;
  }

  std::string_view word_here() const {
    std::size_t end = at_ + 1;
    while (end < text_.size() && is_identifier_char(text_[end])) ++end;
    return text_.substr(at_, end - at_);
  }

  bool label_here() const {
    std::size_t end = at_;
    while (end < text_.size() && is_identifier_char(text_[end])) ++end;
    if (end == at_) return false;
    while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t')) ++end;
    return end < text_.size() && text_[end] == ':' && (end + 1 >= text_.size() || text_[end + 1] != ':');
  }

  StatementKind next_statement() {
    const char c = text_[at_];
    if (c == '{' || c == '}') {
      ++at_;
      return c == '{' ? StatementKind::OpenBrace : StatementKind::CloseBrace;
    }
    if (c == '.') {
      const std::string_view word = word_here();
      if (std::find(std::begin(kLineDirectives), std::end(kLineDirectives), word) != std::end(kLineDirectives)) {
        line_directive();
        return StatementKind::Directive;
      }
      if (word == ".section") {
        section();
        return StatementKind::Directive;
      }
      return directive_or_header();
    }
    if (label_here()) {
      at_ = text_.find(':', at_) + 1;
      return StatementKind::Label;
    }
    instruction();
    return StatementKind::Instruction;
  }

  // To the end of the line, or a comment; strings may hold "//".
  void line_directive() {
    while (at_ < text_.size() && text_[at_] != '\n') {
      if (text_[at_] == '"') {
        skip_string();
      } else if (text_.substr(at_, 2) == "//" || text_.substr(at_, 2) == "/*") {
        break;
      } else {
        ++at_;
      }
    }
    while (at_ > 0 && is_space(text_[at_ - 1])) --at_;
  }

  // .section NAME { ... }: kept whole, never looked into.
  void section() {
    const std::size_t begin = at_;
    const auto open = text_.find('{', at_);
    if (open == std::string_view::npos) fail_at(text_, begin, ".section without its { } block");
    at_ = open + 1;
    int depth = 1;
    while (depth > 0) {
      if (at_ >= text_.size()) fail_at(text_, begin, "a .section block does not end");
      const char c = text_[at_];
      if (c == '"') {
        skip_string();
        continue;
      }
      if (text_.substr(at_, 2) == "//") {
        skip_line_comment();
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}') --depth;
      ++at_;
    }
  }

  // A directive ends at ';'; a function header at the '{' of its body (a '{'
  // after '=' opens an initializer instead).
  StatementKind directive_or_header() {
    const std::size_t begin = at_;
    int parentheses = 0;
    int braces = 0;
    bool initializer = false;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '"') {
        skip_string();
        continue;
      }
      if (text_.substr(at_, 2) == "//") {
        skip_line_comment();
        continue;
      }
      if (text_.substr(at_, 2) == "/*") {
        skip_block_comment();
        continue;
      }
      if (c == '(') ++parentheses;
      if (c == ')') --parentheses;
      if (c == '=') initializer = true;
      if (c == '{') {
        if (parentheses == 0 && !initializer) {
          while (at_ > begin && is_space(text_[at_ - 1])) --at_;
          return StatementKind::Header;
        }
        ++braces;
      }
      if (c == '}') --braces;
      ++at_;
      if (c == ';' && parentheses <= 0 && braces <= 0) return StatementKind::Directive;
    }
    fail_at(text_, begin, "`" + excerpt(text_, begin) + "` does not end (no ';' or '{')");
  }

  void instruction() {
    const std::size_t begin = at_;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (text_.substr(at_, 2) == "//") {
        skip_line_comment();
        continue;
      }
      if (text_.substr(at_, 2) == "/*") {
        skip_block_comment();
        continue;
      }
      if (c == '"') {
        skip_string();
        continue;
      }
      ++at_;
      if (c == ';') return;
    }
    fail_at(text_, begin, "`" + excerpt(text_, begin) + "` does not end (no ';')");
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

std::optional<int> parse_int(std::string_view s) {
  s = trim(s);
  int value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// Splits at commas outside parentheses, brackets and braces.
std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
    if (s[i] == ')' || s[i] == ']' || s[i] == '}') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

// ".param .b64 name" / ".param .align 8 .b8 name[16]" -> type and name.
std::optional<Parameter> parse_parameter(std::string_view declaration) {
  const auto words = words_of(declaration);
  if (words.size() < 3 || words.front() != ".param") return std::nullopt;
  Parameter p;
  for (std::size_t i = 1; i + 1 < words.size(); ++i)
    if (words[i].starts_with('.') && words[i] != ".align" && words[i] != ".ptr") p.type = words[i];
  std::string_view name = words.back();
  if (const auto bracket = name.find('['); bracket != std::string_view::npos) name = name.substr(0, bracket);
  p.name = name;
  if (p.type.empty() || p.name.empty()) return std::nullopt;
  return p;
}

// Finds the parenthesised group starting at or after `from` in the header;
// returns the offsets of '(' and ')' relative to the header.
std::optional<std::pair<std::size_t, std::size_t>> group_after(std::string_view header, std::size_t from) {
  std::size_t i = from;
  while (i < header.size() && is_space(header[i])) ++i;
  if (i >= header.size() || header[i] != '(') return std::nullopt;
  int depth = 0;
  for (std::size_t j = i; j < header.size(); ++j) {
    if (header[j] == '(') ++depth;
    if (header[j] == ')' && --depth == 0) return std::pair{i, j};
  }
  return std::nullopt;
}

std::vector<Parameter> parameters_in(std::string_view list, std::string_view text, std::size_t offset) {
  std::vector<Parameter> out;
  for (std::string_view part : split_top_level(list)) {
    const auto p = parse_parameter(part);
    if (!p) fail_at(text, offset, "cannot read the parameter `" + std::string(part) + "`");
    out.push_back(*p);
  }
  return out;
}

Function parse_header(const Statement& s, std::string_view text) {
  Function f;
  const std::string_view h = s.text;
  std::size_t kind_at = std::string_view::npos;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const bool word_start = i == 0 || is_space(h[i - 1]);
    if (!word_start) continue;
    if (h.substr(i, 6) == ".entry" && (i + 6 == h.size() || !is_identifier_char(h[i + 6]))) {
      f.entry = true;
      kind_at = i + 6;
      break;
    }
    if (h.substr(i, 5) == ".func" && (i + 5 == h.size() || !is_identifier_char(h[i + 5]))) {
      kind_at = i + 5;
      break;
    }
  }
  if (kind_at == std::string_view::npos)
    fail_at(text, s.begin, "`" + excerpt(text, s.begin) + "` opens a block but is no .entry or .func");
  std::size_t at = kind_at;
  if (!f.entry) {
    if (const auto returns = group_after(h, at)) {
      f.returns = parameters_in(h.substr(returns->first + 1, returns->second - returns->first - 1), text, s.begin);
      at = returns->second + 1;
    }
  }
  while (at < h.size() && is_space(h[at])) ++at;
  const std::size_t name_begin = at;
  while (at < h.size() && is_identifier_char(h[at])) ++at;
  f.name = h.substr(name_begin, at - name_begin);
  if (f.name.empty()) fail_at(text, s.begin, "a function header without a name");
  f.name_end = s.begin + at;
  if (const auto list = group_after(h, at)) {
    f.parameters = parameters_in(h.substr(list->first + 1, list->second - list->first - 1), text, s.begin);
    f.parameters_open = s.begin + list->first;
    f.parameters_close = s.begin + list->second;
  }
  return f;
}

}  // namespace

std::optional<long long> parse_immediate(std::string_view s) {
  s = trim(s);
  bool negative = false;
  if (s.starts_with('-') || s.starts_with('+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.ends_with('U') || s.ends_with('u')) s.remove_suffix(1);
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  // Far beyond any address or offset, and kept clear of overflow when offsets are added.
  if (value > (1ull << 62)) return std::nullopt;
  return negative ? -static_cast<long long>(value) : static_cast<long long>(value);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

std::size_t line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

std::vector<Statement> split_statements(std::string_view text) { return Scanner(text).run(); }

std::string_view directive_word(std::string_view statement) {
  statement = trim(statement);
  if (!statement.starts_with('.')) return {};
  std::size_t end = 1;
  while (end < statement.size() && is_identifier_char(statement[end])) ++end;
  return statement.substr(0, end);
}

std::optional<Location> parse_loc(std::string_view statement) {
  const auto words = words_of(statement);
  if (words.size() < 3 || words[0] != ".loc") return std::nullopt;
  auto number = [](std::string_view w) {
    if (w.ends_with(',')) w.remove_suffix(1);
    return parse_int(w);
  };
  const auto file = number(words[1]);
  const auto line = number(words[2]);
  if (!file || !line) return std::nullopt;
  return Location{*file, *line};
}

std::optional<StateSpace> state_space_of(std::string_view word) {
  if (word.starts_with('.')) word.remove_prefix(1);
  if (word == "global") return StateSpace::Global;
  if (word == "shared" || word == "shared::cta") return StateSpace::Shared;
  if (word == "shared::cluster") return StateSpace::SharedCluster;
  if (word == "local") return StateSpace::Local;
  if (word == "param" || word == "param::entry" || word == "param::func") return StateSpace::Param;
  if (word == "const") return StateSpace::Const;
  return std::nullopt;
}

std::optional<Variable> parse_variable(std::string_view statement) {
  const auto words = words_of(statement);
  Variable v;
  std::size_t i = 0;
  while (i < words.size() &&
         (words[i] == ".visible" || words[i] == ".extern" || words[i] == ".weak" || words[i] == ".common")) {
    if (words[i] == ".extern") v.external = true;
    ++i;
  }
  if (i >= words.size()) return std::nullopt;
  const auto space = state_space_of(words[i]);
  if (!space || *space == StateSpace::Param) return std::nullopt;
  v.space = *space;
  // The name is the first word that is not a directive or a number, before any '=' or '['.
  std::uint64_t element = 0, vector = 1;
  for (++i; i < words.size(); ++i) {
    std::string_view w = words[i];
    if (w.starts_with('.') || w == "=") {
      if (w == "=") break;
      if (w == ".align" && i + 1 < words.size()) v.align = parse_int(words[++i]).value_or(0);
      else if (w.size() >= 3 && (w[1] == 'b' || w[1] == 'u' || w[1] == 's' || w[1] == 'f'))
        element = parse_int(w.substr(2)).value_or(0) / 8;                                  // .b8 .u32 .f64 ...
      else if (w.size() >= 3 && w[1] == 'v') vector = parse_int(w.substr(2)).value_or(1);  // .v2 .v4
      continue;
    }
    std::size_t end = 0;
    while (end < w.size() && is_identifier_char(w[end])) ++end;
    v.name = w.substr(0, end);
    // Its dimensions: name[N][M] (a word may also be split at the brackets).
    std::string rest(w.substr(end));
    for (std::size_t k = i + 1; k < words.size() && words[k] != "=" && words[k].starts_with('['); ++k) rest += words[k];
    std::uint64_t count = 1;
    bool known = element > 0;
    for (std::size_t open = rest.find('['); open != std::string::npos; open = rest.find('[', open + 1)) {
      const std::size_t close = rest.find(']', open);
      const auto n = close == std::string::npos ? std::nullopt : parse_int(rest.substr(open + 1, close - open - 1));
      if (!n || *n <= 0) known = false;
      else count *= static_cast<std::uint64_t>(*n);
    }
    if (known) v.bytes = element * vector * count;
    break;
  }
  if (v.name.empty()) return std::nullopt;
  return v;
}

Instruction parse_instruction(std::string_view statement) {
  std::string_view s = trim(statement);
  if (s.ends_with(';')) s.remove_suffix(1);
  s = trim(s);
  Instruction in;
  if (s.starts_with('@')) {
    std::size_t end = 1;
    while (end < s.size() && !is_space(s[end])) ++end;
    in.guard = s.substr(0, end);
    s = trim(s.substr(end));
  }
  std::size_t end = 0;
  while (end < s.size() && !is_space(s[end])) ++end;
  in.opcode = s.substr(0, end);
  in.operands = trim(s.substr(end));
  if (in.opcode.empty()) throw PtxError("an instruction without an opcode: `" + std::string(statement) + "`");
  return in;
}

std::vector<std::string_view> split_operands(std::string_view operands) { return split_top_level(operands); }

std::vector<std::string_view> opcode_words(std::string_view opcode) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= opcode.size(); ++i) {
    if (i == opcode.size() || opcode[i] == '.') {
      if (i > start) words.push_back(opcode.substr(start, i - start));
      start = i + 1;
    }
  }
  return words;
}

const Function* Module::find_function(std::string_view name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

Module parse_module(std::string_view text) {
  // NVRTC's PTX ends with the NUL that loading it needs.
  while (!text.empty() && text.back() == '\0') text.remove_suffix(1);
  Module m;
  m.text = text;
  m.statements = split_statements(text);
  const auto& st = m.statements;
  for (std::size_t i = 0; i < st.size(); ++i) {
    const Statement& s = st[i];
    switch (s.kind) {
      case StatementKind::Directive: {
        const std::string_view word = directive_word(s.text);
        const std::string_view value = trim(s.text.substr(word.size()));
        if (word == ".version") {
          m.version = value;
          m.header_end = s.end;
        } else if (word == ".target") {
          m.target = value;
          m.header_end = s.end;
        } else if (word == ".address_size") {
          m.address_size = parse_int(value).value_or(0);
          m.header_end = s.end;
        } else if (word == ".file") {
          const auto words = words_of(value);
          const auto quote = value.find('"');
          const auto index = words.empty() ? std::nullopt : parse_int(words.front());
          if (index && quote != std::string_view::npos) {
            const auto close = value.find('"', quote + 1);
            m.files[*index] =
                value.substr(quote + 1, close == std::string_view::npos ? std::string_view::npos : close - quote - 1);
          }
        } else if (const auto v = parse_variable(s.text)) {
          m.variables[v->name] = *v;
        }
        break;
      }
      case StatementKind::Header: {
        Function f = parse_header(s, text);
        f.header = i;
        if (i + 1 >= st.size() || st[i + 1].kind != StatementKind::OpenBrace)
          fail_at(text, s.begin, "the body of " + f.name + " does not open with '{'");
        f.open = i + 1;
        int depth = 0;
        std::size_t j = f.open;
        for (; j < st.size(); ++j) {
          if (st[j].kind == StatementKind::OpenBrace) ++depth;
          if (st[j].kind == StatementKind::CloseBrace && --depth == 0) break;
        }
        if (j >= st.size())
          fail_at(text, s.begin, "the PTX ends inside the body of " + f.name + " (a '{' without its '}': truncated?)");
        f.close = j;
        i = j;
        m.functions.push_back(std::move(f));
        break;
      }
      case StatementKind::OpenBrace:
      case StatementKind::CloseBrace:
      case StatementKind::Label:
      case StatementKind::Instruction: fail_at(text, s.begin, "`" + excerpt(text, s.begin) + "` outside any function");
    }
  }
  if (m.version.empty()) throw PtxError("not PTX: no .version directive");
  if (m.target.empty()) throw PtxError("not PTX: no .target directive");
  return m;
}

}  // namespace threadmap::cuda::ptx
