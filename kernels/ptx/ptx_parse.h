#pragma once
// A reader for the PTX that NVRTC writes: just enough structure to rewrite a
// kernel in place. The module is cut into statements (each with its byte
// range in the text, so a rewrite copies everything it does not change
// verbatim), and the statements are grouped into the module's header,
// variables and functions. Instructions are split into guard, opcode and
// operands; nothing is type-checked here (ptxas and the driver do that).
//
// Every malformed input (truncated, unbalanced braces, a statement without
// its ';') is a PtxError naming the PTX line; nothing is assumed to be
// well-formed because NVRTC wrote it.
#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace threadmap::cuda::ptx {

class PtxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class StatementKind {
  OpenBrace,    // {
  CloseBrace,   // }
  Label,        // $L__BB0_2:
  Directive,    // .reg .b32 %r<9>;  .loc 1 42 7  .version 9.0  .section ... { }
  Header,       // .visible .entry name(...)  (the text before a function's '{')
  Instruction,  // @%p1 ld.global.f32 %f1, [%rd4+16];
};

struct Statement {
  StatementKind kind;
  std::size_t begin = 0;  // byte range in the module text, end exclusive
  std::size_t end = 0;
  std::string_view text;  // the range's text (with ';' where the statement has one)
};

// Cuts PTX text into statements. Comments and white space between statements
// are skipped (they stay in the text). Throws PtxError.
std::vector<Statement> split_statements(std::string_view text);

// 1-based line of a byte offset, for messages.
std::size_t line_at(std::string_view text, std::size_t offset);

struct Parameter {
  std::string type;  // ".u64", ".b32"
  std::string name;
};

struct Function {
  std::string name;
  bool entry = false;      // .entry (a kernel) rather than .func
  std::size_t header = 0;  // statement indices: the header, its '{' and matching '}'
  std::size_t open = 0;
  std::size_t close = 0;
  std::vector<Parameter> returns;  // .func only
  std::vector<Parameter> parameters;
  // Byte offsets of the '(' and ')' around the parameters in the text; 0/0
  // when the header has no list.
  std::size_t parameters_open = 0;
  std::size_t parameters_close = 0;
  std::size_t name_end = 0;  // byte offset just past the name
};

enum class StateSpace { Generic, Global, Shared, SharedCluster, Local, Param, Const, Other };

// A variable declaration: ".shared .align 4 .b8 tile[1056];".
struct Variable {
  StateSpace space = StateSpace::Other;
  std::string name;
  int align = 0;            // .align N; 0 when not given
  bool external = false;    // .extern (dynamic shared memory)
  std::uint64_t bytes = 0;  // its type's size times its dimensions; 0 when not known ([])
};

struct Module {
  std::string_view text;
  std::vector<Statement> statements;
  std::string version;         // "9.0"
  std::string target;          // "sm_90" (with any further words: "sm_90a, debug")
  int address_size = 0;        // 64
  std::size_t header_end = 0;  // byte offset just past the last of .version/.target/.address_size
  std::vector<Function> functions;
  // Module-scope variables by name (.global, .shared, .const).
  std::map<std::string, Variable, std::less<>> variables;
  std::map<int, std::string> files;  // .file index -> name

  const Function* find_function(std::string_view name) const;
};

// Parses the module's structure (trailing NULs are no part of it). Throws PtxError.
Module parse_module(std::string_view text);

struct Instruction {
  std::string_view guard;     // "@%p1", "@!%p1", or empty
  std::string_view opcode;    // "ld.global.v4.f32"
  std::string_view operands;  // "{%f1, %f2, %f3, %f4}, [%rd19]" (no ';')
};

// Splits an Instruction statement. Throws PtxError on an empty opcode.
Instruction parse_instruction(std::string_view statement);

// Operands split at top-level commas: "{%f1, %f2}, [%rd4]" -> "{%f1, %f2}", "[%rd4]".
std::vector<std::string_view> split_operands(std::string_view operands);

// The words of an opcode: "ld.global.nc.v4.f32" -> ld, global, nc, v4, f32.
std::vector<std::string_view> opcode_words(std::string_view opcode);

// The first directive word of a Directive statement: ".reg", ".loc", ".shared".
std::string_view directive_word(std::string_view statement);

// A ".loc FILE LINE COLUMN[, ...]" directive's file and line; nullopt when the
// statement is not one or cannot be read.
struct Location {
  int file = 0;
  int line = 0;
};
std::optional<Location> parse_loc(std::string_view statement);

// A variable declaration's space, name and alignment; nullopt for any other
// directive.
std::optional<Variable> parse_variable(std::string_view statement);

// The state space a space word names ("global", "shared::cta", ...).
std::optional<StateSpace> state_space_of(std::string_view word);

// An integer operand: "16", "-8", "0x10", "4U"; nullopt for anything else,
// and for magnitudes above 2^62.
std::optional<long long> parse_immediate(std::string_view s);

std::string_view trim(std::string_view s);
bool is_identifier_char(char c);

}  // namespace threadmap::cuda::ptx
