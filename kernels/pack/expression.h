#pragma once
// A pack's integer expressions: sizes, counts, grids, defines and require
// rules written in pack.toml as text ("ceil_div(n, wg * per_thread)").
//
//   expression  := or
//   or          := and ('||' and)*
//   and         := comparison ('&&' comparison)*
//   comparison  := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
//   sum         := product (('+' | '-') product)*
//   product     := unary (('*' | '/' | '%') unary)*
//   unary       := '-' unary | '!' unary | primary
//   primary     := INTEGER | NAME | '(' expression ')'
//                | ceil_div '(' e ',' e ')' | min '(' e (',' e)+ ')' | max '(' e (',' e)+ ')'
//                | sizeof '(' int | float | double | TYPE_PARAMETER ')'
//
// Values are int64; every operation is overflow-checked, and / and % by zero
// are errors (division truncates toward zero, as in C). Comparisons and the
// logical operators give 0 or 1. A text is parsed once against the names it
// may use (a pack's parameters); an unknown name is an error that offers the
// closest known one.
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace threadmap::pack {

// A mistake in an expression or in evaluating one; column counts from 1
// within the expression's text.
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(int column, const std::string& message) : std::runtime_error(message), column_(column) {}
  int column() const { return column_; }

 private:
  int column_;
};

// The names an expression may use.
struct ExpressionScope {
  std::vector<std::string> names;       // parameters: their value is the run's
  std::vector<std::string> type_names;  // of those, the ones sizeof() takes (value 0 int, 1 float, 2 double)
};

// The values of one evaluation, by parameter name.
using ExpressionValues = std::map<std::string, std::int64_t, std::less<>>;

struct ExpressionNode;

class Expression {
 public:
  // Throws ExpressionError. Texts longer than kMaxLength or nested deeper than
  // kMaxDepth are refused.
  static Expression parse(std::string_view text, const ExpressionScope& scope);
  // Throws ExpressionError (overflow, division by zero, a name with no value).
  std::int64_t evaluate(const ExpressionValues& values) const;

  const std::string& text() const { return text_; }
  bool empty() const { return !root_; }
  // The parameter names it reads, each once, in order of first use.
  std::vector<std::string> names() const;

  static constexpr std::size_t kMaxLength = 4096;
  static constexpr int kMaxDepth = 64;

 private:
  std::string text_;
  std::shared_ptr<const ExpressionNode> root_;  // immutable once parsed: copies share it
};

// The known name closest to `name` (at most a third of its length in edits,
// at least 1, a swap of neighbours counting one), or one it begins (three
// letters or more), or empty.
std::string closest_name(std::string_view name, const std::vector<std::string>& known);

}  // namespace threadmap::pack
