#include "kernels/pack/expression.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <variant>

namespace threadmap::pack {

enum class Op { Add, Sub, Mul, Div, Mod, Neg, Not, Eq, Ne, Lt, Le, Gt, Ge, And, Or, CeilDiv, Min, Max };

struct ExpressionNode {
  int column = 1;
  // A literal, a parameter, sizeof of a fixed type (its size) or of a type
  // parameter (its name), or an operation on the children.
  std::variant<std::int64_t, std::string> leaf;
  bool is_parameter = false;
  bool is_sizeof_parameter = false;
  bool is_operation = false;
  Op op = Op::Add;
  std::vector<std::shared_ptr<const ExpressionNode>> children;
};

namespace {

using Node = std::shared_ptr<const ExpressionNode>;

std::string describe_op(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Neg: return "unary -";
    case Op::CeilDiv: return "ceil_div";
    case Op::Min: return "min";
    case Op::Max: return "max";
    default: return "comparison";
  }
}

class Parser {
 public:
  Parser(std::string_view text, const ExpressionScope& scope) : text_(text), scope_(scope) {}

  Node parse() {
    skip_space();
    if (at_end()) throw ExpressionError(1, "the expression is empty");
    Node root = parse_or(0);
    skip_space();
    if (!at_end())
      throw ExpressionError(column(), "unexpected '" + std::string(1, text_[pos_]) + "' after a complete expression");
    return root;
  }

 private:
  std::string_view text_;
  const ExpressionScope& scope_;
  std::size_t pos_ = 0;

  int column() const { return static_cast<int>(pos_) + 1; }
  bool at_end() const { return pos_ >= text_.size(); }
  void skip_space() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(char c, const std::string& what) {
    skip_space();
    if (at_end()) throw ExpressionError(column(), "the expression ends where " + what + " was expected");
    if (text_[pos_] != c)
      throw ExpressionError(column(), "expected " + what + ", found '" + std::string(1, text_[pos_]) + "'");
    ++pos_;
  }

  static Node operation(Op op, int column, std::vector<Node> children) {
    auto n = std::make_shared<ExpressionNode>();
    n->is_operation = true;
    n->op = op;
    n->column = column;
    n->children = std::move(children);
    return n;
  }

  void check_depth(int depth) const {
    if (depth > Expression::kMaxDepth)
      throw ExpressionError(column(),
                            "the expression nests deeper than " + std::to_string(Expression::kMaxDepth) + " levels");
  }

  Node parse_or(int depth) {
    check_depth(depth);
    Node left = parse_and(depth + 1);
    for (;;) {
      skip_space();
      const int at = column();
      if (!accept("||")) return left;
      left = operation(Op::Or, at, {left, parse_and(depth + 1)});
    }
  }

  Node parse_and(int depth) {
    Node left = parse_comparison(depth);
    for (;;) {
      skip_space();
      const int at = column();
      if (!accept("&&")) return left;
      left = operation(Op::And, at, {left, parse_comparison(depth)});
    }
  }

  Node parse_comparison(int depth) {
    Node left = parse_sum(depth);
    skip_space();
    const int at = column();
    static const std::pair<std::string_view, Op> kComparisons[] = {{"==", Op::Eq}, {"!=", Op::Ne}, {"<=", Op::Le},
                                                                   {">=", Op::Ge}, {"<", Op::Lt},  {">", Op::Gt}};
    for (const auto& [token, op] : kComparisons)
      if (accept(token)) return operation(op, at, {left, parse_sum(depth)});
    return left;
  }

  Node parse_sum(int depth) {
    Node left = parse_product(depth);
    for (;;) {
      skip_space();
      const int at = column();
      if (accept("+")) left = operation(Op::Add, at, {left, parse_product(depth)});
      else if (accept("-")) left = operation(Op::Sub, at, {left, parse_product(depth)});
      else return left;
    }
  }

  Node parse_product(int depth) {
    Node left = parse_unary(depth);
    for (;;) {
      skip_space();
      const int at = column();
      if (accept("*")) left = operation(Op::Mul, at, {left, parse_unary(depth)});
      else if (accept("/")) left = operation(Op::Div, at, {left, parse_unary(depth)});
      else if (accept("%")) left = operation(Op::Mod, at, {left, parse_unary(depth)});
      else return left;
    }
  }

  Node parse_unary(int depth) {
    check_depth(depth);
    skip_space();
    const int at = column();
    if (accept("-")) return operation(Op::Neg, at, {parse_unary(depth + 1)});
    if (!at_end() && text_[pos_] == '!' && text_.substr(pos_, 2) != "!=") {
      ++pos_;
      return operation(Op::Not, at, {parse_unary(depth + 1)});
    }
    return parse_primary(depth);
  }

  Node parse_primary(int depth) {
    skip_space();
    const int at = column();
    if (at_end()) throw ExpressionError(at, "the expression ends where a value was expected");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      Node inner = parse_or(depth + 1);
      expect(')', "')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_integer();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name(depth);
    throw ExpressionError(at, "unexpected '" + std::string(1, c) + "' where a value was expected");
  }

  Node parse_integer() {
    const int at = column();
    std::int64_t value = 0;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
        throw ExpressionError(at, "the number does not fit in 64 bits");
      value = value * 10 + digit;
      ++pos_;
    }
    if (!at_end() &&
        (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' || text_[pos_] == '_'))
      throw ExpressionError(column(), "expressions take whole numbers only (no suffix, no decimal point)");
    auto n = std::make_shared<ExpressionNode>();
    n->column = at;
    n->leaf = value;
    return n;
  }

  std::string read_name() {
    const std::size_t begin = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    return std::string(text_.substr(begin, pos_ - begin));
  }

  std::string unknown(const std::string& name, const std::vector<std::string>& known, const std::string& what) const {
    std::string message = "unknown " + what + " '" + name + "'";
    const std::string near = closest_name(name, known);
    if (!near.empty()) return message + "; did you mean '" + near + "'?";
    if (known.empty()) return message + " (there are none)";
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    return message + "; known: " + list;
  }

  Node parse_name(int depth) {
    const int at = column();
    const std::string name = read_name();
    skip_space();
    const bool call = !at_end() && text_[pos_] == '(';
    if (name == "sizeof") {
      expect('(', "'(' after sizeof");
      skip_space();
      const int type_at = column();
      const std::string type = read_name();
      if (type.empty()) throw ExpressionError(type_at, "sizeof takes int, float, double or a type parameter");
      expect(')', "')'");
      auto n = std::make_shared<ExpressionNode>();
      n->column = at;
      if (type == "int" || type == "float") {
        n->leaf = std::int64_t{4};
      } else if (type == "double") {
        n->leaf = std::int64_t{8};
      } else if (std::find(scope_.type_names.begin(), scope_.type_names.end(), type) != scope_.type_names.end()) {
        n->leaf = type;
        n->is_sizeof_parameter = true;
      } else {
        std::vector<std::string> known{"int", "float", "double"};
        known.insert(known.end(), scope_.type_names.begin(), scope_.type_names.end());
        throw ExpressionError(type_at, unknown(type, known, "type"));
      }
      return n;
    }
    if (call) {
      Op op;
      if (name == "ceil_div") op = Op::CeilDiv;
      else if (name == "min") op = Op::Min;
      else if (name == "max") op = Op::Max;
      else throw ExpressionError(at, unknown(name, {"ceil_div", "min", "max", "sizeof"}, "function"));
      ++pos_;
      std::vector<Node> args{parse_or(depth + 1)};
      while (accept(",")) args.push_back(parse_or(depth + 1));
      expect(')', "')' or ','");
      if (op == Op::CeilDiv && args.size() != 2)
        throw ExpressionError(at, "ceil_div takes 2 arguments, not " + std::to_string(args.size()));
      if (op != Op::CeilDiv && args.size() < 2) throw ExpressionError(at, name + " takes 2 or more arguments");
      return operation(op, at, std::move(args));
    }
    if (std::find(scope_.names.begin(), scope_.names.end(), name) == scope_.names.end()) {
      std::vector<std::string> known = scope_.names;
      throw ExpressionError(at, unknown(name, known, "name"));
    }
    auto n = std::make_shared<ExpressionNode>();
    n->column = at;
    n->leaf = name;
    n->is_parameter = true;
    return n;
  }
};

[[noreturn]] void overflow(const ExpressionNode& n, std::int64_t a, std::int64_t b) {
  throw ExpressionError(
      n.column, std::to_string(a) + " " + describe_op(n.op) + " " + std::to_string(b) + " overflows 64-bit integers");
}

std::int64_t value_of(const ExpressionNode& n, const ExpressionValues& values) {
  if (!n.is_operation) {
    if (const auto* literal = std::get_if<std::int64_t>(&n.leaf)) return *literal;
    const std::string& name = std::get<std::string>(n.leaf);
    const auto it = values.find(name);
    if (it == values.end()) throw ExpressionError(n.column, "'" + name + "' has no value");
    if (!n.is_sizeof_parameter) return it->second;
    return it->second == 2 ? 8 : 4;  // int, float: 4 bytes; double: 8
  }
  std::vector<std::int64_t> v;
  v.reserve(n.children.size());
  // && and || do not evaluate their right side when the left decides.
  if (n.op == Op::And || n.op == Op::Or) {
    const bool left = value_of(*n.children[0], values) != 0;
    if (n.op == Op::And && !left) return 0;
    if (n.op == Op::Or && left) return 1;
    return value_of(*n.children[1], values) != 0 ? 1 : 0;
  }
  for (const auto& child : n.children) v.push_back(value_of(*child, values));
  std::int64_t r = 0;
  switch (n.op) {
    case Op::Add:
      if (__builtin_add_overflow(v[0], v[1], &r)) overflow(n, v[0], v[1]);
      return r;
    case Op::Sub:
      if (__builtin_sub_overflow(v[0], v[1], &r)) overflow(n, v[0], v[1]);
      return r;
    case Op::Mul:
      if (__builtin_mul_overflow(v[0], v[1], &r)) overflow(n, v[0], v[1]);
      return r;
    case Op::Div:
    case Op::Mod:
    case Op::CeilDiv:
      if (v[1] == 0)
        throw ExpressionError(
            n.column, describe_op(n.op) + " by zero (" + std::to_string(v[0]) + " " + describe_op(n.op) + " 0)");
      if (v[0] == std::numeric_limits<std::int64_t>::min() && v[1] == -1) overflow(n, v[0], v[1]);
      if (n.op == Op::Div) return v[0] / v[1];
      if (n.op == Op::Mod) return v[0] % v[1];
      // Rounds the quotient up, toward +infinity, for either sign.
      return v[0] / v[1] + ((v[0] % v[1] != 0) && ((v[0] < 0) == (v[1] < 0)) ? 1 : 0);
    case Op::Neg:
      if (v[0] == std::numeric_limits<std::int64_t>::min()) overflow(n, 0, v[0]);
      return -v[0];
    case Op::Not: return v[0] == 0 ? 1 : 0;
    case Op::Eq: return v[0] == v[1];
    case Op::Ne: return v[0] != v[1];
    case Op::Lt: return v[0] < v[1];
    case Op::Le: return v[0] <= v[1];
    case Op::Gt: return v[0] > v[1];
    case Op::Ge: return v[0] >= v[1];
    case Op::Min: return *std::min_element(v.begin(), v.end());
    case Op::Max: return *std::max_element(v.begin(), v.end());
    case Op::And:
    case Op::Or: break;
  }
  return 0;
}

void collect_names(const ExpressionNode& n, std::vector<std::string>& out) {
  if (n.is_parameter || n.is_sizeof_parameter) {
    const std::string& name = std::get<std::string>(n.leaf);
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  for (const auto& child : n.children) collect_names(*child, out);
}

// Edits (insert, delete, replace, swap two neighbours) from a to b: a swap
// ("widht") is one slip of the fingers, not two.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

Expression Expression::parse(std::string_view text, const ExpressionScope& scope) {
  if (text.size() > kMaxLength)
    throw ExpressionError(1, "the expression is longer than " + std::to_string(kMaxLength) + " characters");
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || text[i] == '\r') throw ExpressionError(static_cast<int>(i) + 1, "an expression is one line");
  Expression e;
  e.text_ = std::string(text);
  e.root_ = Parser(text, scope).parse();
  return e;
}

std::int64_t Expression::evaluate(const ExpressionValues& values) const {
  if (!root_) throw ExpressionError(1, "the expression is empty");
  return value_of(*root_, values);
}

std::vector<std::string> Expression::names() const {
  std::vector<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

std::string closest_name(std::string_view name, const std::vector<std::string>& known) {
  if (name.size() > 256) return {};
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
  for (const std::string& k : known) {
    if (k.size() > 256) continue;
    // A name cut short ("ceil" for "ceil_div") is what was meant.
    if (name.size() >= 3 && k.size() > name.size() && k.compare(0, name.size(), name) == 0 && best.empty()) best = k;
    const std::size_t d = edit_distance(name, k);
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
  }
  return best;
}

}  // namespace threadmap::pack
