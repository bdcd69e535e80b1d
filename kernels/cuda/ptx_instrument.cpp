#include "kernels/cuda/ptx_instrument.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "kernels/cuda/ptx_alignment.h"
#include "kernels/cuda/ptx_runtime.h"
#include "kernels/sources.h"
#include "kernels/trace_format.h"

namespace threadmap::cuda {

using ptx::Function;
using ptx::runtime_call;
using ptx::Module;
using ptx::Statement;
using ptx::StatementKind;
using ptx::StateSpace;

namespace {

constexpr std::string_view kReservedPrefix = "threadmap_";

// Registers and names the glue adds; kReservedPrefix keeps them apart from
// the compiler's (%r, %rd, %f, %p, ...).
constexpr std::string_view kBuffer = "%threadmap_buffer";
constexpr std::string_view kBlock = "%threadmap_block";
constexpr std::string_view kThread = "%threadmap_thread";
constexpr std::string_view kOn = "%threadmap_on";
constexpr std::string_view kSlot = "%threadmap_slot";
constexpr std::string_view kAddress = "%threadmap_address";
// The clock pass's registers; per barrier site i, %threadmap_arrived<i>,
// %threadmap_left<i> and %threadmap_pass<i>.
constexpr std::string_view kStart = "%threadmap_start";
constexpr std::string_view kArrival = "%threadmap_arrival";
constexpr std::string_view kRelease = "%threadmap_release";
constexpr std::string_view kEnd = "%threadmap_end";
constexpr std::string_view kAddress64 = "%threadmap_at";
constexpr std::string_view kPasses = "%threadmap_passes";
constexpr std::string_view kWarp = "%threadmap_warp";
constexpr std::string_view kWord = "%threadmap_word";
constexpr std::string_view kCount = "%threadmap_count";
constexpr std::string_view kTemp = "%threadmap_temp";
constexpr std::string_view kLead = "%threadmap_lead";
constexpr std::string_view kTrue = "%threadmap_true";
constexpr std::string_view kBlocks = "%threadmap_blocks";
constexpr std::string_view kReleased = "%threadmap_released";
constexpr std::string_view kKeep = "%threadmap_keep";
constexpr std::string_view kSiteArrival = "%threadmap_arrived";
constexpr std::string_view kSiteRelease = "%threadmap_left";
constexpr std::string_view kSitePass = "%threadmap_pass";
constexpr std::string_view kPassed = "%threadmap_passed";

// The space codes of trace_runtime.cuh's threadmap_access.
constexpr unsigned kSpaceGlobal = 0;
constexpr unsigned kSpaceShared = 1;
constexpr unsigned kSpaceGeneric = 2;

std::string line_prefix(std::string_view text, std::size_t offset) {
  return "PTX line " + std::to_string(ptx::line_at(text, offset)) + ": ";
}

// Bytes of a PTX fundamental type; 0 for a word that is none.
int type_bytes(std::string_view type) {
  if (type == "b8" || type == "u8" || type == "s8") return 1;
  if (type == "b16" || type == "u16" || type == "s16" || type == "f16" || type == "bf16") return 2;
  if (type == "b32" || type == "u32" || type == "s32" || type == "f32" || type == "f16x2" ||
      type == "bf16x2" || type == "tf32")
    return 4;
  if (type == "b64" || type == "u64" || type == "s64" || type == "f64") return 8;
  if (type == "b128") return 16;
  return 0;
}

int log2_of(int bytes) {
  int log = 0;
  while ((1 << log) < bytes) ++log;
  return log;
}

// "[%rd4+16]", "[%r7]", "[tile+8]", "[sym]", "[1024]".
struct Address {
  enum class Base { Register, Symbol, Absolute } base = Base::Register;
  std::string name;  // register or symbol
  long long offset = 0;
};

std::optional<Address> parse_address(std::string_view inside) {
  inside = ptx::trim(inside);
  if (inside.empty()) return std::nullopt;
  Address a;
  std::size_t end = 0;
  while (end < inside.size() && ptx::is_identifier_char(inside[end])) ++end;
  const std::string_view head = inside.substr(0, end);
  std::string_view rest = ptx::trim(inside.substr(end));
  if (head.empty() || (head.front() >= '0' && head.front() <= '9') || head.front() == '-') {
    const auto value = ptx::parse_immediate(inside);
    if (!value) return std::nullopt;
    a.base = Address::Base::Absolute;
    a.offset = *value;
    return a;
  }
  a.name = head;
  a.base = head.starts_with('%') ? Address::Base::Register : Address::Base::Symbol;
  if (rest.empty()) return a;
  if (rest.front() != '+' && rest.front() != '-') return std::nullopt;
  const bool minus = rest.front() == '-';
  const auto value = ptx::parse_immediate(rest.substr(1));
  if (!value) return std::nullopt;
  a.offset = minus ? -*value : *value;
  return a;
}

// The operand in brackets: "[%rd4+16]" -> "%rd4+16".
std::optional<std::string_view> bracketed(std::string_view operands) {
  const auto open = operands.find('[');
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = operands.find(']', open);
  if (close == std::string_view::npos) return std::nullopt;
  return operands.substr(open + 1, close - open - 1);
}

// The widths of the entry's registers: ".reg .b64 %rd<55>;" declares %rd0
// .. %rd54, ".reg .pred p, q;" declares p and q.
class Registers {
 public:
  void declare(std::string_view statement) {
    std::string_view s = ptx::trim(statement);
    if (s.ends_with(';')) s.remove_suffix(1);
    s = ptx::trim(s.substr(4));  // ".reg"
    int bits = 0;
    while (s.starts_with('.')) {
      std::size_t end = 1;
      while (end < s.size() && ptx::is_identifier_char(s[end])) ++end;
      const std::string_view word = s.substr(1, end - 1);
      if (word == "pred") bits = 1;
      else if (const int bytes = type_bytes(word)) bits = bytes * 8;
      s = ptx::trim(s.substr(end));
    }
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
      if (i < s.size() && s[i] != ',') continue;
      std::string_view name = ptx::trim(s.substr(start, i - start));
      start = i + 1;
      if (const auto angle = name.find('<'); angle != std::string_view::npos)
        families_[std::string(name.substr(0, angle))] = bits;
      else if (!name.empty())
        names_[std::string(name)] = bits;
    }
  }

  // Bits of a register; 0 when it was not declared.
  int bits(std::string_view name) const {
    if (const auto found = names_.find(name); found != names_.end()) return found->second;
    std::size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
    if (digits == name.size()) return 0;
    const auto family = families_.find(name.substr(0, digits));
    return family == families_.end() ? 0 : family->second;
  }

 private:
  std::map<std::string, int, std::less<>> names_;
  std::map<std::string, int, std::less<>> families_;
};

constexpr std::string_view kOtherMemoryOpcodes[] = {
    "prefetch", "prefetchu", "cp",       "ldmatrix", "stmatrix", "tex",     "tld4",  "suld",
    "sust",     "sured",     "mbarrier", "multimem", "wgmma",    "tcgen05"};

bool is_barrier(const std::vector<std::string_view>& words) {
  if (words.empty() || (words[0] != "bar" && words[0] != "barrier")) return false;
  bool sync = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "warp" || words[i] == "cluster" || words[i] == "arrive") return false;
    if (words[i] == "sync" || words[i] == "red") sync = true;
  }
  return sync;
}

// A call's callee: "(retval0), foo, (param0)" -> foo; "foo, (p)" -> foo.
std::string callee_of(std::string_view operands) {
  std::size_t i = 0;
  while (i < operands.size()) {
    while (i < operands.size() && (operands[i] == ' ' || operands[i] == '\t' || operands[i] == ','))
      ++i;
    if (i < operands.size() && operands[i] == '(') {
      const auto close = operands.find(')', i);
      if (close == std::string_view::npos) return {};
      i = close + 1;
      continue;
    }
    std::size_t end = i;
    while (end < operands.size() && ptx::is_identifier_char(operands[end])) ++end;
    return std::string(operands.substr(i, end - i));
  }
  return {};
}

// The shape an ld/st/ldu opcode names: its state space (nullopt: generic),
// the vector width, one element's bytes (0: no type the instrumenter knows),
// and whether it is an asynchronous or bulk copy.
struct MemoryShape {
  std::optional<StateSpace> space;
  int vector_width = 1;
  int element_bytes = 0;
  bool async = false;
};

MemoryShape memory_shape(const std::vector<std::string_view>& words) {
  MemoryShape m;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (const auto sp = ptx::state_space_of(words[i]); sp && !m.space) m.space = sp;
    if (words[i] == "v2") m.vector_width = 2;
    if (words[i] == "v4") m.vector_width = 4;
    if (words[i] == "v8") m.vector_width = 8;
    if (words[i] == "async" || words[i] == "bulk") m.async = true;
  }
  m.element_bytes = words.size() > 1 ? type_bytes(words.back()) : 0;
  return m;
}

// Whether an instruction writes register `name`: its first operand names it
// ("%r1", "%p1|%p2", "{%f1, %f2}"). Stores, branches and barriers write none.
bool writes_register(const ptx::Instruction& in, std::string_view name) {
  const std::string_view op = in.opcode.substr(0, in.opcode.find('.'));
  if (name.empty() || op == "st" || op == "bra" || op == "bar" || op == "barrier") return false;
  const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
  if (operands.empty()) return false;
  const std::string_view written = operands.front();
  for (std::size_t at = written.find(name); at != std::string_view::npos; at = written.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !ptx::is_identifier_char(written[at - 1])) &&
        (end >= written.size() || !ptx::is_identifier_char(written[end])))
      return true;
  }
  return false;
}

struct Insertion {
  std::size_t offset;
  std::string text;
  std::size_t erase = 0;  // bytes of the module replaced by `text`
};

std::pair<int, int> version_number(std::string_view version) {
  int major = 0, minor = 0;
  const auto dot = version.find('.');
  std::from_chars(version.data(), version.data() + version.size(), major);
  if (dot != std::string_view::npos)
    std::from_chars(version.data() + dot + 1, version.data() + version.size(), minor);
  return {major, minor};
}

// One ld/st the trace records, as the walk finds it.
struct Access {
  std::size_t statement = 0;  // index in Module::statements
  std::string_view guard;
  std::string_view opcode;
  Address address;
  unsigned space_code = kSpaceGeneric;
  MemorySpace written = MemorySpace::Generic;
  bool store = false;
  int type_bytes = 0;    // one element
  int access_bytes = 0;  // element x the instruction's vector width
  std::string file;
  int line = 0;
  int absorbed = 0;  // later stores to the same address the assembler folds into this one
};

// The instrumenter's walk over one entry: its report, and (when asked) the
// glue to insert.
//
// Accesses are gathered into runs the assembler may merge: the same opcode,
// guard and base address, one after the other with nothing between them but
// arithmetic that leaves the base alone. A run's accesses at contiguous
// offsets become one machine access wherever the base's known alignment
// allows the wider one (ptx_alignment.h); the trace then records that one
// access, as the machine makes it.
class EntryWalk {
 public:
  // A barrier the clock pass times.
  struct ClockSite {
    const Statement* statement;
    ptx::Instruction in;
    int line;
    std::size_t index;  // in the module's statements
  };

  EntryWalk(const Module& module, const Function& entry, bool rewrite, Pass pass = Pass::Access)
      : m_(module), f_(entry), rewrite_(rewrite), pass_(pass) {
    report_.entry = entry.name;
    for (const auto& [name, v] : module.variables) variables_[name] = v;
  }

  void run() {
    find_folded_stores();
    bool begun = false;
    for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
      const Statement& s = m_.statements[i];
      if (s.kind == StatementKind::Directive) {
        directive(s);
        continue;
      }
      if ((s.kind == StatementKind::Instruction || s.kind == StatementKind::Label) && !begun) {
        begun = true;
        if (rewrite_) begin_glue(s);
      }
      if (s.kind == StatementKind::Label) {
        end_run();
        const std::string_view name = ptx::trim(s.text.substr(0, s.text.find(':')));
        clock_labels_.emplace(std::string(name), i);
      }
      if (s.kind == StatementKind::Instruction) instruction(i);
    }
    end_run();
    if (rewrite_ && !begun)
      throw PtxError(line_prefix(m_.text, m_.statements[f_.open].begin) + "the body of " +
                     f_.name + " has no instructions");
    record_runs();
    if (rewrite_ && pass_ == Pass::Clock) clock_finish();
    if (rewrite_) {
      declarations();
      parameter();
    }
    finish_report();
  }

  EntryReport& report() { return report_; }
  std::vector<Insertion>& insertions() { return insertions_; }

 private:
  void directive(const Statement& s) {
    const std::string_view word = ptx::directive_word(s.text);
    if (word == ".loc") {
      if (const auto loc = ptx::parse_loc(s.text); loc && loc->line > 0) location_ = *loc;
    } else if (word == ".reg") {
      registers_.declare(s.text);
    } else if (const auto v = ptx::parse_variable(s.text)) {
      variables_[v->name] = *v;
    }
  }

  std::string file() const {
    const auto found = m_.files.find(location_.file);
    return found == m_.files.end() ? std::string() : found->second;
  }

  void instruction(std::size_t index) {
    const Statement& s = m_.statements[index];
    const ptx::Instruction in = ptx::parse_instruction(s.text);
    const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
    const std::string_view op = words.empty() ? std::string_view() : words[0];
    if (op == "bra" && !ptx::split_operands(in.operands).empty())
      clock_branches_.push_back({index, std::string(ptx::trim(ptx::split_operands(in.operands).front()))});
    if (op == "ld" || op == "st" || op == "ldu") {
      memory(index, in, words);
      return;
    }
    if (op == "atom" || op == "red") {
      end_run();
      unrecorded("atomic", in.opcode);
    } else if (is_barrier(words)) {
      end_run();
      barrier(s, in);
    } else if (op == "ret" || op == "exit") {
      end_run();
      ++report_.exits;
      if (rewrite_ && pass_ == Pass::Clock) clock_exits_.push_back({&s, in.guard, op});
      else if (rewrite_) insert_before(s, end_glue(in.guard, op));
    } else if (op == "call") {
      end_run();
      unrecorded("call", callee_of(in.operands));
    } else if (std::find(std::begin(kOtherMemoryOpcodes), std::end(kOtherMemoryOpcodes), op) !=
               std::end(kOtherMemoryOpcodes)) {
      end_run();
      unrecorded("other memory", in.opcode);
    } else if (op == "bra" || op == "brx" || op == "membar" || op == "fence" || op == "trap" ||
               op == "bar" || op == "barrier") {
      end_run();
    } else if (!run_.empty()) {
      // Arithmetic between a run's accesses ends it only by changing its
      // base or its predicate ("setp ... %p1|%p2, ..." writes two).
      const Access& last = accesses_[run_.back()];
      std::string_view guard = last.guard;
      while (guard.starts_with('@') || guard.starts_with('!')) guard.remove_prefix(1);
      if (writes_register(in, last.address.name) || writes_register(in, guard)) end_run();
    }
  }

  // A store the assembler folds into an earlier one. NVVM writes
  //     local_mem[lid] = 0;  if (g < n) local_mem[lid] = in[2g] + in[2g+1];
  // as
  //     st.shared.u32 [%r2], 0;        (S1)
  //     setp.ge.u64 %p1, ...;  @%p1 bra L;
  //     ld.global ...; add ...;
  //     st.shared.f32 [%r2], %f3;      (S2)
  //   L:
  // and ptxas makes one store of them at L, of whichever value the branch
  // chose, executed by every thread that executed S1 (the machine code of
  // every catalog reduction: tests/data/ptx_sass). The pattern is taken only
  // as narrowly as that: S1 a shared store without a guard; then only
  // arithmetic and accesses to other spaces, none writing S1's address
  // register, up to one guarded forward branch to L; then straight code of
  // the same kind holding S2, a shared store of the same width to the same
  // address, without a guard; then L, which no other branch targets. The
  // trace records S1 once, merged from 2, and S2 not at all.
  void find_folded_stores() {
    struct Store {
      int bytes = 0;
      std::string address;
    };
    // A shared store without a guard: its width and address.
    const auto shared_store = [&](const ptx::Instruction& in) -> std::optional<Store> {
      const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
      if (!in.guard.empty() || words.empty() || words[0] != "st") return std::nullopt;
      const MemoryShape shape = memory_shape(words);
      const auto inside = bracketed(in.operands);
      if (shape.async || shape.space != StateSpace::Shared || !inside) return std::nullopt;
      return Store{shape.element_bytes * shape.vector_width, std::string(ptx::trim(*inside))};
    };
    // Whether an instruction leaves shared memory and `base` alone, and
    // neither branches nor synchronises: arithmetic, and accesses to spaces
    // that cannot alias shared memory.
    const auto harmless = [&](const ptx::Instruction& in, std::string_view base) {
      const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
      if (words.empty()) return false;
      const std::string_view op = words[0];
      if (op == "bra" || op == "brx" || op == "call" || op == "ret" || op == "exit" || op == "atom" ||
          op == "red" || op == "membar" || op == "fence" || op == "trap" || op == "bar" || op == "barrier" ||
          std::find(std::begin(kOtherMemoryOpcodes), std::end(kOtherMemoryOpcodes), op) != std::end(kOtherMemoryOpcodes))
        return false;
      if (op == "ld" || op == "st" || op == "ldu") {
        const MemoryShape shape = memory_shape(words);
        if (shape.async || !shape.space ||
            (*shape.space != StateSpace::Global && *shape.space != StateSpace::Param &&
             *shape.space != StateSpace::Local && *shape.space != StateSpace::Const))
          return false;
      }
      return !writes_register(in, base);
    };
    std::map<std::string, int, std::less<>> targeted;  // label -> branches to it
    for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
      const Statement& s = m_.statements[i];
      if (s.kind != StatementKind::Instruction) continue;
      const ptx::Instruction in = ptx::parse_instruction(s.text);
      const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
      if (!words.empty() && (words[0] == "bra" || words[0] == "brx"))
        for (std::string_view operand : ptx::split_operands(in.operands)) ++targeted[std::string(ptx::trim(operand))];
    }
    for (std::size_t first = f_.open + 1; first < f_.close; ++first) {
      if (m_.statements[first].kind != StatementKind::Instruction) continue;
      const std::optional<Store> s1 = shared_store(ptx::parse_instruction(m_.statements[first].text));
      if (!s1) continue;
      const std::optional<Address> address = parse_address(s1->address);
      const std::string base = address && address->base != Address::Base::Absolute ? address->name : "";
      std::string label;
      std::size_t second = 0;
      bool ok = false;
      for (std::size_t i = first + 1; i < f_.close; ++i) {
        const Statement& s = m_.statements[i];
        if (s.kind == StatementKind::Directive) continue;
        if (s.kind == StatementKind::Label) {
          ok = !label.empty() && second != 0 && ptx::trim(s.text.substr(0, s.text.find(':'))) == label &&
               targeted[label] == 1;
          break;
        }
        if (s.kind != StatementKind::Instruction) break;
        const ptx::Instruction in = ptx::parse_instruction(s.text);
        const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
        if (label.empty() && !words.empty() && words[0] == "bra" && !in.guard.empty()) {
          const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
          if (operands.size() != 1) break;
          label = std::string(ptx::trim(operands.front()));
          continue;
        }
        if (!label.empty() && second == 0) {
          if (const std::optional<Store> s2 = shared_store(in)) {
            if (s2->bytes != s1->bytes || s2->address != s1->address) break;
            second = i;
            continue;
          }
        }
        if (!harmless(in, base)) break;
      }
      if (ok) folded_into_[second] = first;
    }
  }

  void memory(std::size_t index, const ptx::Instruction& in,
              const std::vector<std::string_view>& words) {
    const Statement& s = m_.statements[index];
    const MemoryShape shape = memory_shape(words);
    if (shape.async) {
      end_run();
      return unrecorded("other memory", in.opcode);
    }
    const int vector_width = shape.vector_width;
    const StateSpace written = shape.space.value_or(StateSpace::Generic);
    switch (written) {
      case StateSpace::Param: end_run(); return unrecorded("param", in.opcode);
      case StateSpace::Local: end_run(); return unrecorded("local", in.opcode);
      case StateSpace::Const: end_run(); return unrecorded("const", in.opcode);
      case StateSpace::SharedCluster:
      case StateSpace::Other: end_run(); return unrecorded("other memory", in.opcode);
      case StateSpace::Generic:
      case StateSpace::Global:
      case StateSpace::Shared: break;
    }
    const int element = shape.element_bytes;
    if (element == 0)
      throw PtxError(line_prefix(m_.text, s.begin) + "`" + std::string(in.opcode) +
                     "` names no type the instrumenter knows (.b8 to .b128)");
    const auto inside = bracketed(in.operands);
    auto address = inside ? parse_address(*inside) : std::nullopt;
    if (!address)
      throw PtxError(line_prefix(m_.text, s.begin) + "cannot read the address of `" +
                     std::string(ptx::trim(s.text)) + "`");

    // A generic access to a named variable reaches that variable's space.
    unsigned space_code = written == StateSpace::Shared   ? kSpaceShared
                          : written == StateSpace::Global ? kSpaceGlobal
                                                          : kSpaceGeneric;
    // Inline assembly may name registers without '%'.
    if (address->base == Address::Base::Symbol && registers_.bits(address->name) != 0)
      address->base = Address::Base::Register;
    if (address->base == Address::Base::Symbol) {
      const StateSpace declared = symbol_space(s, address->name);
      if (declared == StateSpace::Local || declared == StateSpace::Const ||
          declared == StateSpace::Param) {
        end_run();
        return unrecorded(declared == StateSpace::Local   ? "local"
                          : declared == StateSpace::Const ? "const"
                                                          : "param",
                          in.opcode);
      }
      if (declared == StateSpace::Shared) space_code = kSpaceShared;
      if (declared == StateSpace::Global) space_code = kSpaceGlobal;
    }
    if (rewrite_ && address->base == Address::Base::Register) {
      const int bits = registers_.bits(address->name);
      if (bits != 32 && bits != 64)
        throw PtxError(line_prefix(m_.text, s.begin) + "the address register " + address->name +
                       (bits == 0 ? " is not declared in " + f_.name
                                  : " has " + std::to_string(bits) + " bits, not 32 or 64"));
    }

    if (const auto into = folded_into_.find(index); into != folded_into_.end()) {
      // Folded into an earlier store to the same address (find_folded_stores):
      // the machine has no instruction of its own for it; the report says
      // where it went.
      end_run();
      const auto kept = std::find_if(accesses_.begin(), accesses_.end(),
                                     [&](const Access& a) { return a.statement == into->second; });
      report_.folded.push_back({file(), kept == accesses_.end() ? 0 : kept->line, location_.line});
      return;
    }
    Access a{index,
             in.guard,
             in.opcode,
             *address,
             space_code,
             written == StateSpace::Shared   ? MemorySpace::Shared
             : written == StateSpace::Global ? MemorySpace::Global
                                             : MemorySpace::Generic,
             words[0] == "st",
             element,
             element * vector_width,
             file(),
             location_.line};
    a.absorbed = static_cast<int>(std::count_if(folded_into_.begin(), folded_into_.end(),
                                                [&](const auto& fold) { return fold.second == index; }));
    if (!run_.empty()) {
      const Access& last = accesses_[run_.back()];
      if (last.opcode != a.opcode || last.guard != a.guard ||
          last.address.base != a.address.base || last.address.name != a.address.name)
        end_run();
    }
    accesses_.push_back(std::move(a));
    run_.push_back(accesses_.size() - 1);
  }

  void end_run() {
    if (!run_.empty()) runs_.push_back(std::move(run_));
    run_.clear();
  }

  // Where the assembler puts the variables: a kernel's one static shared
  // variable starts its shared window, 16-byte aligned; any other variable
  // is known only by its declared .align.
  std::map<std::string, int, std::less<>> symbol_alignments() const {
    std::map<std::string, int, std::less<>> bits;
    std::vector<std::string> static_shared;
    for (const auto& [name, v] : variables_) {
      int b = 0;
      while (b < ptx::KnownAlignment::kCap && (2ll << b) <= v.align) ++b;
      bits[name] = b;
      if (v.space == StateSpace::Shared && !v.external && uses(name)) static_shared.push_back(name);
    }
    if (static_shared.size() == 1) bits[static_shared.front()] = std::max(bits[static_shared.front()], 4);
    return bits;
  }

  bool uses(std::string_view name) const {
    for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
      const std::string_view text = m_.statements[i].text;
      for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at == 0 || !ptx::is_identifier_char(text[at - 1])) &&
            (end >= text.size() || !ptx::is_identifier_char(text[end])))
          return true;
      }
    }
    return false;
  }

  // Splits each run into the machine accesses it becomes, and records them.
  void record_runs() {
    const ptx::KnownAlignment alignment(m_, f_, symbol_alignments());
    for (const std::vector<std::size_t>& run : runs_) {
      std::vector<std::size_t> by_offset = run;
      std::stable_sort(by_offset.begin(), by_offset.end(), [&](std::size_t x, std::size_t y) {
        return accesses_[x].address.offset < accesses_[y].address.offset;
      });
      const Access& first = accesses_[run.front()];
      const int base_bits = first.address.base == Address::Base::Absolute
                                ? ptx::KnownAlignment::kCap
                                : alignment.zero_bits(first.address.name);
      std::size_t i = 0;
      while (i < by_offset.size()) {
        const Access& a = accesses_[by_offset[i]];
        const int aligned_bits = std::min(base_bits, ptx::zero_bits_of(a.address.offset));
        // The widest access, up to 16 bytes, that is aligned and covers
        // contiguous members from here.
        std::size_t members = 1;
        for (std::size_t want = 2; a.access_bytes * static_cast<int>(want) <= 16; want *= 2) {
          if (a.access_bytes * static_cast<long long>(want) > (1ll << aligned_bits)) break;
          if (i + want > by_offset.size()) break;
          bool contiguous = true;
          for (std::size_t k = 1; k < want; ++k)
            contiguous = contiguous && accesses_[by_offset[i + k]].address.offset ==
                                           a.address.offset + static_cast<long long>(k) * a.access_bytes;
          if (!contiguous) break;
          members = want;
        }
        std::vector<std::size_t> chunk(by_offset.begin() + static_cast<std::ptrdiff_t>(i),
                                       by_offset.begin() + static_cast<std::ptrdiff_t>(i + members));
        record(chunk);
        i += members;
      }
    }
  }

  // One machine access made of `chunk` (accesses at contiguous offsets,
  // lowest first): recorded before the first of them in program order.
  void record(const std::vector<std::size_t>& chunk) {
    const Access& low = accesses_[chunk.front()];
    const Access& earliest = accesses_[*std::min_element(chunk.begin(), chunk.end())];
    const int bytes = low.access_bytes * static_cast<int>(chunk.size());
    int merged = 0;
    for (const std::size_t k : chunk) merged += 1 + accesses_[k].absorbed;
    MemoryInstructions site{earliest.file, earliest.line, low.written, low.store, bytes,
                            bytes / low.type_bytes, merged, 0};
    ++recorded_[site];
    if (!rewrite_ || pass_ == Pass::Clock) return;

    const Statement& s = m_.statements[earliest.statement];
    const unsigned flags = (low.store ? TM_F_STORE : 0u) |
                           (static_cast<unsigned>(log2_of(bytes)) << TM_F_SIZE_SHIFT);
    std::vector<std::string> prelude{".reg .b64 \t" + std::string(kAddress) + ";"};
    address_glue(low.address, prelude);
    std::string what = std::string(low.opcode);
    if (chunk.size() > 1)
      what += " x" + std::to_string(chunk.size()) + " (one " + std::to_string(bytes) +
              "-byte access: contiguous and aligned)";
    if (merged > static_cast<int>(chunk.size()))
      what += " (with the conditional store to the same address after it)";
    insert_before(s, runtime_call(what + ", line " + std::to_string(earliest.line), low.guard,
                                "threadmap_access",
                                {std::string(kBuffer), std::string(kOn), std::string(kBlock),
                                 std::string(kThread), std::to_string(earliest.line),
                                 std::to_string(flags), std::string(kAddress),
                                 std::to_string(low.space_code)},
                                {}, prelude));
  }

  StateSpace symbol_space(const Statement& s, const std::string& name) const {
    if (const auto v = variables_.find(name); v != variables_.end()) return v->second.space;
    for (const ptx::Parameter& p : f_.parameters)
      if (p.name == name) return StateSpace::Param;
    throw PtxError(line_prefix(m_.text, s.begin) + "the address [" + name +
                   "] names no variable declared in the module or in " + f_.name);
  }

  void address_glue(const Address& a, std::vector<std::string>& prelude) const {
    const std::string to(kAddress);
    switch (a.base) {
      case Address::Base::Register:
        if (registers_.bits(a.name) == 64)
          prelude.push_back("mov.b64 \t" + to + ", " + a.name + ";");
        else
          prelude.push_back("cvt.u64.u32 \t" + to + ", " + a.name + ";");
        break;
      case Address::Base::Symbol:
        prelude.push_back("mov.u64 \t" + to + ", " + a.name + ";");
        break;
      case Address::Base::Absolute:
        prelude.push_back("mov.u64 \t" + to + ", " + std::to_string(a.offset) + ";");
        return;
    }
    if (a.offset != 0)
      prelude.push_back("add.s64 \t" + to + ", " + to + ", " + std::to_string(a.offset) + ";");
  }

  void barrier(const Statement& s, const ptx::Instruction& in) {
    ++report_.barriers;
    if (!rewrite_) return;
    if (pass_ == Pass::Clock) return clock_barrier(s, in);
    const std::string line = std::to_string(location_.line);
    insert_before(s, runtime_call(std::string(in.opcode) + " arrival, line " + line, in.guard,
                                "threadmap_arrive",
                                {std::string(kBuffer), std::string(kOn), std::string(kBlock),
                                 std::string(kThread), line},
                                kSlot));
    insert_after(s, runtime_call(std::string(in.opcode) + " release, line " + line, in.guard,
                               "threadmap_release",
                               {std::string(kBuffer), std::string(kSlot), std::string(kBlock)}));
  }

  std::string end_glue(std::string_view guard, std::string_view op) const {
    return runtime_call(std::string(op) + ": the block's end", guard, "threadmap_end",
                      {std::string(kBuffer), std::string(kBlock), std::string(kThread)});
  }

  // A guarded barrier's glue runs only where the barrier does: a branch
  // around it where the guard is false.
  std::pair<std::string, std::string> guarded(std::string_view guard) {
    if (guard.empty()) return {};
    std::string negated(guard);
    negated = negated.starts_with("@!") ? "@" + negated.substr(2) : "@!" + negated.substr(1);
    const std::string label = "$threadmap_skip_" + std::to_string(++labels_);
    return {"\t" + negated + " bra \t" + label + ";\n", label + ":\n"};
  }

  // The clock pass at a barrier (Pass::Clock): the site is noted; its glue
  // is written after the walk, once it is known whether any barrier sits in
  // a loop (clock_site_glue).
  void clock_barrier(const Statement& s, const ptx::Instruction& in) {
    clock_sites_.push_back({&s, in, location_.line, static_cast<std::size_t>(&s - m_.statements.data())});
  }

  // A site's glue: the arrival clock right before the barrier; the barrier in
  // its reduction form, whose result gates the release clock; the stamps kept
  // in the site's registers. Where no barrier sits in a loop, each site is
  // passed at most once and the host numbers a warp's passes by their
  // arrival clocks; where one does, each site keeps its first pass and its
  // pass number, in a third register.
  void clock_site_glue(const ClockSite& site, std::size_t index) {
    const Statement& s = *site.statement;
    const ptx::Instruction& in = site.in;
    const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
    const std::string line = std::to_string(site.line);
    const std::string passes(kPasses);
    auto [skip2, after2] = guarded(in.guard);
    if (index >= TM_CLOCK_PASSES) {
      insert_after(s, "\t// threadmap: " + std::string(in.opcode) + ", line " + line + ": a pass, counted, not timed\n" +
                          skip2 + "\tadd.u32 \t" + passes + ", " + passes + ", 1;\n" + after2);
      return;
    }
    auto [skip, after] = guarded(in.guard);
    insert_before(s, "\t// threadmap: " + std::string(in.opcode) + " arrival, line " + line + "\n" + skip +
                         "\tmov.u64 \t" + std::string(kArrival) + ", %clock64;\n" + after);
    const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
    const bool reduction = std::find(words.begin(), words.end(), "red") != words.end();
    std::string result(kCount);
    bool predicate = false;
    if (reduction) {
      if (operands.empty()) throw PtxError(line_prefix(m_.text, s.begin) + "a barrier reduction without operands");
      result = std::string(operands.front());
      predicate = std::find(words.begin(), words.end(), "pred") != words.end();
    } else {
      // bar.sync a{, b} -> bar.red.popc.u32 count, a{, b}, true: the same
      // barrier (same memory ordering), with a result to wait on.
      std::string opcode;
      for (std::string_view w : words) opcode += (opcode.empty() ? "" : ".") + std::string(w == "sync" ? "red.popc" : w);
      std::string text = in.guard.empty() ? std::string() : std::string(in.guard) + " ";
      text += opcode + ".u32 \t" + std::string(kCount) + ", " + std::string(in.operands) + ", " + std::string(kTrue) + ";";
      insertions_.push_back({s.begin, std::move(text), s.end - s.begin});
    }
    const std::string i = std::to_string(index), W(kWord), released(kReleased), keep(kKeep);
    std::string glue = "\t// threadmap: " + std::string(in.opcode) + " release, line " + line +
                       ": the clock under the barrier's own result\n" + skip2;
    if (predicate) {
      glue += "\tselp.u32 \t" + W + ", 1, 2, " + result + ";\n";
      glue += "\tsetp.ne.u32 \t" + released + ", " + W + ", 0;\n";
    } else {
      glue += "\tsetp.ne.u32 \t" + released + ", " + result + ", 0xffffffff;\n";
    }
    glue += "\t@" + released + " mov.u64 \t" + std::string(kRelease) + ", %clock64;\n";
    glue += "\t@!" + released + " mov.u64 \t" + std::string(kRelease) + ", 0;\n";
    if (clock_looped_) {
      glue += "\tsetp.eq.u32 \t" + keep + ", " + std::string(kSitePass) + i + ", " + std::to_string(TM_NO_PASS) + ";\n";
      glue += "\t@" + keep + " cvt.u32.u64 \t" + std::string(kSiteArrival) + i + ", " + std::string(kArrival) + ";\n";
      glue += "\t@" + keep + " cvt.u32.u64 \t" + std::string(kSiteRelease) + i + ", " + std::string(kRelease) + ";\n";
      glue += "\t@" + keep + " mov.u32 \t" + std::string(kSitePass) + i + ", " + passes + ";\n";
    } else {
      glue += "\tcvt.u32.u64 \t" + std::string(kSiteArrival) + i + ", " + std::string(kArrival) + ";\n";
      glue += "\tcvt.u32.u64 \t" + std::string(kSiteRelease) + i + ", " + std::string(kRelease) + ";\n";
      glue += "\tor.b32 \t" + std::string(kPassed) + ", " + std::string(kPassed) + ", " + std::to_string(1u << index) + ";\n";
    }
    glue += "\tadd.u32 \t" + passes + ", " + passes + ", 1;\n" + after2;
    insert_after(s, glue);
  }

  // The clock pass at an exit: lane 0 writes its warp's schedule record and,
  // in the blocks the host chose (slot table), its stamps, with plain stores.
  std::string clock_end_glue(std::string_view guard, std::string_view op) {
    const std::string T(kTemp), W(kWord), A(kAddress64), B(kBuffer), E(kEnd), lead(kLead), skip_label =
        "$threadmap_end_" + std::to_string(++labels_);
    auto [skip, after] = guarded(guard);
    std::string g = "\t// threadmap: " + std::string(op) + ": the warp's schedule record, and its stamps where sampled\n" + skip;
    // The thread's linear id, x fastest: its warp, and whether it is lane 0.
    // %tid.z is read only in blocks that have a z extent: a special-register
    // read here is queued with the first reads of the next block on the SM,
    // and moves its arrivals (setRowReadCol at 65536 blocks: a median spread
    // of 405 cycles with the read, 258 without).
    const std::string keep(kKeep);
    g += "\tmov.u32 \t" + W + ", %ntid.z;\n\tsetp.ne.u32 \t" + keep + ", " + W + ", 1;\n";
    g += "\tmov.u32 \t" + T + ", 0;\n\t@" + keep + " mov.u32 \t" + T + ", %tid.z;\n";
    g += "\tmov.u32 \t" + W + ", %ntid.y;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %tid.y;\n";
    g += "\tadd.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %ntid.x;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %tid.x;\n";
    g += "\tadd.u32 \t" + T + ", " + T + ", " + W + ";\n";
    g += "\tshr.u32 \t" + std::string(kWarp) + ", " + T + ", 5;\n";
    g += "\tand.b32 \t" + T + ", " + T + ", 31;\n";
    g += "\tsetp.eq.u32 \t" + lead + ", " + T + ", 0;\n";
    g += "\t@!" + lead + " bra \t" + skip_label + ";\n";
    g += "\tmov.u64 \t" + E + ", %clock64;\n";
    // The buffer's address, read here (no register held through the kernel).
    g += "\tld.param.u64 \t" + B + ", [" + std::string(kTraceBufferParameter) + "];\n";
    const std::string block(kCount), warp(kWarp), X(kArrival), Y(kRelease);
    // The block (x fastest), the warps per block and the blocks in the grid.
    g += "\tmov.u32 \t" + T + ", %ctaid.z;\n\tmov.u32 \t" + W + ", %nctaid.y;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %ctaid.y;\n";
    g += "\tadd.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %nctaid.x;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %ctaid.x;\n";
    g += "\tadd.u32 \t" + block + ", " + T + ", " + W + ";\n";
    g += "\tmov.u32 \t" + T + ", %ntid.x;\n\tmov.u32 \t" + W + ", %ntid.y;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n\tmov.u32 \t" + W + ", %ntid.z;\n";
    g += "\tmul.lo.u32 \t" + T + ", " + T + ", " + W + ";\n";
    g += "\tadd.u32 \t" + T + ", " + T + ", 31;\n\tshr.u32 \t" + T + ", " + T + ", 5;\n";  // warps per block
    // Its schedule record: warp block * warps + warp of the section after the header.
    g += "\tmul.wide.u32 \t" + Y + ", " + block + ", " + T + ";\n";
    g += "\tcvt.u64.u32 \t" + X + ", " + warp + ";\n\tadd.s64 \t" + Y + ", " + Y + ", " + X + ";\n";
    g += "\tmul.lo.u64 \t" + Y + ", " + Y + ", " + std::to_string(TM_CLOCK_SCHEDULE_WORDS * 4) + ";\n";
    g += "\tadd.s64 \t" + A + ", " + B + ", " + Y + ";\n";
    auto at = [&](int word) { return "[" + A + "+" + std::to_string((TM_HEADER_WORDS + word) * 4) + "]"; };
    g += "\tst.global.u64 \t" + at(TM_CS_START) + ", " + std::string(kStart) + ";\n";
    g += "\tst.global.u64 \t" + at(TM_CS_END_CLOCK) + ", " + E + ";\n";
    g += "\tmov.u64 \t" + E + ", %globaltimer;\n";
    g += "\tst.global.u64 \t" + at(TM_CS_END) + ", " + E + ";\n";
    g += "\tmov.u32 \t" + W + ", %smid;\n";
    g += "\tst.global.u32 \t" + at(TM_CS_SM) + ", " + W + ";\n";
    g += "\tst.global.u32 \t" + at(TM_CS_WRITTEN) + ", " + std::to_string(TM_CLOCK_WRITTEN) + ";\n";
    // The slot table follows the schedule (blocks * warps records): the
    // block's first slot, or none.
    const std::string blocks(kBlocks);
    g += "\tmov.u32 \t" + blocks + ", %nctaid.x;\n\tmov.u32 \t" + W + ", %nctaid.y;\n";
    g += "\tmul.lo.u32 \t" + blocks + ", " + blocks + ", " + W + ";\n\tmov.u32 \t" + W + ", %nctaid.z;\n";
    g += "\tmul.lo.u32 \t" + blocks + ", " + blocks + ", " + W + ";\n";
    g += "\tmul.wide.u32 \t" + X + ", " + blocks + ", " + T + ";\n";
    g += "\tmul.lo.u64 \t" + X + ", " + X + ", " + std::to_string(TM_CLOCK_SCHEDULE_WORDS) + ";\n";
    g += "\tadd.s64 \t" + X + ", " + X + ", " + std::to_string(TM_HEADER_WORDS) + ";\n";  // the table, in words
    g += "\tcvt.u64.u32 \t" + Y + ", " + block + ";\n\tadd.s64 \t" + Y + ", " + Y + ", " + X + ";\n";
    g += "\tshl.b64 \t" + Y + ", " + Y + ", 2;\n\tadd.s64 \t" + Y + ", " + Y + ", " + B + ";\n";
    g += "\tld.global.u32 \t" + W + ", [" + Y + "];\n";
    g += "\tsetp.eq.u32 \t" + std::string(kKeep) + ", " + W + ", " + std::to_string(TM_NO_SLOT) + ";\n";
    g += "\t@" + std::string(kKeep) + " bra \t" + skip_label + ";\n";
    // The stamps follow the table (blocks words, to an 8-byte boundary).
    g += "\tcvt.u64.u32 \t" + Y + ", " + blocks + ";\n\tadd.s64 \t" + X + ", " + X + ", " + Y + ";\n";
    g += "\tadd.s64 \t" + X + ", " + X + ", 1;\n\tand.b64 \t" + X + ", " + X + ", -2;\n";
    g += "\tshl.b64 \t" + X + ", " + X + ", 2;\n\tadd.s64 \t" + A + ", " + X + ", " + B + ";\n";
    g += "\tadd.u32 \t" + W + ", " + W + ", " + warp + ";\n";
    g += "\tmul.wide.u32 \t" + X + ", " + W + ", " + std::to_string(TM_CLOCK_WARP_WORDS * 4) + ";\n";
    g += "\tadd.s64 \t" + A + ", " + A + ", " + X + ";\n";
    auto store = [&](int word, const std::string& value) {
      g += "\tst.global.u32 \t[" + A + "+" + std::to_string(word * 4) + "], " + value + ";\n";
    };
    store(TM_CW_BLOCK, std::string(kCount));
    g += "\tmin.u32 \t" + T + ", " + std::string(kPasses) + ", 65535;\n\tshl.b32 \t" + T + ", " + T + ", 16;\n";
    g += "\tor.b32 \t" + T + ", " + T + ", " + std::string(kWarp) + ";\n";
    store(TM_CW_WARP_PASSES, T);
    g += "\tst.global.u64 \t[" + A + "+" + std::to_string(TM_CW_START_CLOCK * 4) + "], " + std::string(kStart) + ";\n";
    const std::size_t sites = timed_sites();
    store(TM_CW_SITES, std::to_string(sites));
    for (std::size_t i = 0; i < sites; ++i) {
      const int at = TM_CW_PASSES + static_cast<int>(i) * TM_CP_WORDS;
      store(at + TM_CP_ARRIVAL, std::string(kSiteArrival) + std::to_string(i));
      store(at + TM_CP_RELEASE, std::string(kSiteRelease) + std::to_string(i));
      store(at + TM_CP_LINE, std::to_string(clock_sites_[i].line));
      if (clock_looped_) {
        store(at + TM_CP_PASS, std::string(kSitePass) + std::to_string(i));
      } else {
        g += "\tand.b32 \t" + W + ", " + std::string(kPassed) + ", " + std::to_string(1u << i) + ";\n";
        g += "\tsetp.ne.u32 \t" + std::string(kKeep) + ", " + W + ", 0;\n";
        g += "\tselp.u32 \t" + W + ", " + std::to_string(TM_PASS_IN_ORDER) + ", " + std::to_string(TM_NO_PASS) + ", " +
             std::string(kKeep) + ";\n";
        store(at + TM_CP_PASS, W);
      }
    }
    store(TM_CW_WRITTEN, std::to_string(TM_CLOCK_WRITTEN));
    g += skip_label + ":\n" + after;
    return g;
  }

  // Nothing before the first barrier but the start clock and constants: the
  // thread's ids and the buffer's address are read at the end, so that no
  // special-register read (slow, and queued across the SM's warps) delays an
  // arrival.
  void clock_begin_glue(const Statement& first) {
    std::string glue = "\t// threadmap: the clock pass; the warp's start clock first\n";
    glue += "\tmov.u64 \t" + std::string(kStart) + ", %clock64;\n";
    glue += "\tmov.pred \t" + std::string(kTrue) + ", 1;\n";
    glue += "\tmov.u32 \t" + std::string(kPasses) + ", 0;\n";
    insert_before(first, glue);
    clock_first_ = &first;
  }

  std::size_t timed_sites() const {
    return std::min<std::size_t>(clock_sites_.size(), TM_CLOCK_PASSES);
  }

  // After the walk, when the barrier sites and the loops are known: each
  // site's glue, its registers' start values, and each exit's end glue. A
  // barrier is in a loop when a branch after it goes back to a label before it.
  void clock_finish() {
    for (const ClockSite& site : clock_sites_)
      for (const auto& [at, target] : clock_branches_) {
        const auto label = clock_labels_.find(target);
        if (at > site.index && label != clock_labels_.end() && label->second < site.index) clock_looped_ = true;
      }
    for (std::size_t i = 0; i < clock_sites_.size(); ++i) clock_site_glue(clock_sites_[i], i);
    // Where no barrier sits in a loop, one bit per site says it was passed;
    // else each site's pass register does.
    std::string init = clock_looped_ ? std::string() : "\tmov.u32 \t" + std::string(kPassed) + ", 0;\n";
    for (std::size_t i = 0; i < timed_sites(); ++i) {
      const std::string n = std::to_string(i);
      if (clock_looped_) init += "\tmov.u32 \t" + std::string(kSitePass) + n + ", " + std::to_string(TM_NO_PASS) + ";\n";
      init += "\tmov.u32 \t" + std::string(kSiteArrival) + n + ", 0;\n";
      init += "\tmov.u32 \t" + std::string(kSiteRelease) + n + ", 0;\n";
    }
    if (clock_first_) insert_before(*clock_first_, init);
    for (const auto& [statement, guard, op] : clock_exits_) insert_before(*statement, clock_end_glue(guard, op));
  }

  void begin_glue(const Statement& first) {
    if (pass_ == Pass::Clock) return clock_begin_glue(first);
    std::string glue = "\t// threadmap: the trace buffer, this thread's ids, whether its block is traced\n";
    glue += "\tld.param.u64 \t" + std::string(kBuffer) + ", [" + std::string(kTraceBufferParameter) +
            "];\n";
    glue += runtime_call("block id", {}, "threadmap_block_id", {}, kBlock);
    glue += runtime_call("thread id", {}, "threadmap_thread_id", {}, kThread);
    glue += runtime_call("begin", {}, "threadmap_begin",
                       {std::string(kBuffer), std::string(kBlock), std::string(kThread)}, kOn);
    insert_before(first, glue);
  }

  void declarations() {
    std::string text = "\n";
    if (pass_ == Pass::Clock) {
      text += "\t.reg .b64 \t" + std::string(kBuffer) + ";\n";
      for (std::string_view r : {kStart, kArrival, kRelease, kEnd, kAddress64})
        text += "\t.reg .b64 \t" + std::string(r) + ";\n";
      for (std::string_view r : {kPasses, kWarp, kWord, kCount, kTemp, kBlocks}) text += "\t.reg .b32 \t" + std::string(r) + ";\n";
      if (!clock_looped_) text += "\t.reg .b32 \t" + std::string(kPassed) + ";\n";
      if (const std::size_t n = timed_sites())
        for (std::string_view r : {kSiteArrival, kSiteRelease, kSitePass})
          if (r != kSitePass || clock_looped_) text += "\t.reg .b32 \t" + std::string(r) + "<" + std::to_string(n) + ">;\n";
      for (std::string_view r : {kLead, kTrue, kReleased, kKeep}) text += "\t.reg .pred \t" + std::string(r) + ";\n";
      insertions_.push_back({m_.statements[f_.open].end, text});
      return;
    }
    text += "\t.reg .b64 \t" + std::string(kBuffer) + ";\n";
    for (std::string_view r : {kBlock, kThread, kOn, kSlot})
      text += "\t.reg .b32 \t" + std::string(r) + ";\n";
    insertions_.push_back({m_.statements[f_.open].end, text});
  }

  void parameter() {
    const std::string declaration = ".param .u64 " + std::string(kTraceBufferParameter);
    if (f_.parameters_close == 0) {
      insertions_.push_back({f_.name_end, "(\n\t" + declaration + "\n)"});
    } else if (f_.parameters.empty()) {
      insertions_.push_back({f_.parameters_close, "\n\t" + declaration + "\n"});
    } else {
      std::size_t at = f_.parameters_close;
      while (at > f_.parameters_open && std::isspace(static_cast<unsigned char>(m_.text[at - 1])))
        --at;
      insertions_.push_back({at, ",\n\t" + declaration});
    }
  }

  // Before the statement: at the start of its line when only blanks precede it there.
  void insert_before(const Statement& s, std::string glue) {
    std::size_t line_start = s.begin;
    while (line_start > 0 && (m_.text[line_start - 1] == ' ' || m_.text[line_start - 1] == '\t'))
      --line_start;
    if (line_start == 0 || m_.text[line_start - 1] == '\n')
      insertions_.push_back({line_start, std::move(glue)});
    else
      insertions_.push_back({s.begin, "\n" + glue + "\t"});
  }

  // After the statement: at the start of the next line.
  void insert_after(const Statement& s, std::string glue) {
    const auto newline = m_.text.find('\n', s.end);
    if (newline == std::string_view::npos)
      insertions_.push_back({m_.text.size(), "\n" + glue});
    else
      insertions_.push_back({newline + 1, std::move(glue)});
  }

  void unrecorded(std::string category, std::string_view opcode) {
    ++unrecorded_[{file(), location_.line, std::move(category), std::string(opcode)}];
  }

  void finish_report() {
    for (const auto& [site, count] : recorded_) {
      report_.recorded.push_back(site);
      report_.recorded.back().count = count;
    }
    for (const auto& [key, count] : unrecorded_) {
      const auto& [file, line, category, opcode] = key;
      report_.unrecorded.push_back({file, line, category, opcode, count});
    }
  }

  struct SiteOrder {
    bool operator()(const MemoryInstructions& a, const MemoryInstructions& b) const {
      return std::tie(a.file, a.line, a.space, a.store, a.bytes, a.vector_width, a.merged) <
             std::tie(b.file, b.line, b.space, b.store, b.bytes, b.vector_width, b.merged);
    }
  };

  const Module& m_;
  const Function& f_;
  bool rewrite_;
  Pass pass_;
  int labels_ = 0;
  // The clock pass: its barrier sites, the labels and branches (to find
  // loops), the first instruction (where the sites' registers start), and
  // the exits.
  std::vector<ClockSite> clock_sites_;
  std::map<std::string, std::size_t, std::less<>> clock_labels_;
  std::vector<std::pair<std::size_t, std::string>> clock_branches_;
  bool clock_looped_ = false;
  const Statement* clock_first_ = nullptr;
  std::vector<std::tuple<const Statement*, std::string_view, std::string_view>> clock_exits_;
  ptx::Location location_{};
  Registers registers_;
  std::map<std::string, ptx::Variable, std::less<>> variables_;
  // Stores folded into an earlier one (not recorded) -> that store, by statement index.
  std::map<std::size_t, std::size_t> folded_into_;
  std::vector<Access> accesses_;
  std::vector<std::size_t> run_;
  std::vector<std::vector<std::size_t>> runs_;
  std::map<MemoryInstructions, int, SiteOrder> recorded_;
  std::map<std::tuple<std::string, int, std::string, std::string>, int> unrecorded_;
  EntryReport report_;
  std::vector<Insertion> insertions_;
};

std::string_view without_trailing_nuls(std::string_view text) {
  while (!text.empty() && text.back() == '\0') text.remove_suffix(1);
  return text;
}

Module read_kernel_module(std::string_view text) {
  Module m = ptx::parse_module(text);
  if (m.address_size != 64)
    throw PtxError("the instrumenter needs .address_size 64; the PTX has " +
                   (m.address_size ? std::to_string(m.address_size) : std::string("none")));
  return m;
}

const Function& find_entry(const Module& m, std::string_view name) {
  const Function* f = m.find_function(name);
  if (f && f->entry) return *f;
  std::string entries;
  for (const Function& g : m.functions)
    if (g.entry) entries += (entries.empty() ? "" : ", ") + g.name;
  throw PtxError("no kernel (.entry) named " + std::string(name) + " in the PTX; it has " +
                 (entries.empty() ? std::string("none") : entries));
}

// The reserved prefix as a name of its own (not inside a mangled name).
void check_reserved_names(const Module& m) {
  for (const Statement& s : m.statements) {
    if (s.kind == StatementKind::Directive) {
      const std::string_view word = ptx::directive_word(s.text);
      if (word == ".file" || word == ".section") continue;
    }
    for (auto at = s.text.find(kReservedPrefix); at != std::string_view::npos;
         at = s.text.find(kReservedPrefix, at + 1)) {
      if (at == 0 || !ptx::is_identifier_char(s.text[at - 1]) || s.text[at - 1] == '%')
        throw PtxError(line_prefix(m.text, s.begin) + "the PTX already uses the name prefix " +
                       std::string(kReservedPrefix) +
                       ", which the instrumenter reserves (instrumented twice?)");
    }
  }
}

}  // namespace

std::string_view space_name(MemorySpace space) {
  switch (space) {
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    case MemorySpace::Generic: return "generic";
  }
  return "?";
}

int EntryReport::recorded_count() const {
  int n = 0;
  for (const MemoryInstructions& m : recorded) n += m.count;
  return n;
}

int EntryReport::ptx_instruction_count() const {
  int n = 0;
  for (const MemoryInstructions& m : recorded) n += m.count * m.merged;
  return n;
}

EntryReport memory_instructions(std::string_view kernel_ptx, std::string_view entry) {
  const std::string_view text = without_trailing_nuls(kernel_ptx);
  const Module m = ptx::parse_module(text);
  EntryWalk walk(m, find_entry(m, entry), false);
  walk.run();
  return std::move(walk.report());
}

InstrumentedPtx instrument_ptx(std::string_view kernel_ptx, const std::vector<std::string>& entries,
                               std::string_view runtime_ptx, Pass pass) {
  const std::string_view text = without_trailing_nuls(kernel_ptx);
  const Module m = read_kernel_module(text);
  check_reserved_names(m);
  const ptx::Runtime runtime = ptx::read_runtime(without_trailing_nuls(runtime_ptx));
  if (runtime.target != m.target)
    throw PtxError("the trace runtime was compiled for .target " + runtime.target +
                   ", the kernel for " + m.target + ": compile the runtime for the kernel's target");
  if (version_number(runtime.version) > version_number(m.version))
    throw PtxError("the trace runtime is PTX " + runtime.version + ", newer than the kernel's " +
                   m.version + ": compile both with the same NVRTC");

  InstrumentedPtx out;
  // The clock pass calls nothing: only the access pass takes the runtime.
  std::vector<Insertion> insertions;
  if (pass == Pass::Access)
    insertions.push_back(
        {m.header_end, "\n\n// threadmap: the recording runtime (kernels/cuda/trace_runtime.cuh)\n" + runtime.text});
  std::set<std::string> done;
  for (const std::string& name : entries) {
    if (!done.insert(name).second) continue;
    EntryWalk walk(m, find_entry(m, name), true, pass);
    walk.run();
    out.entries.push_back(std::move(walk.report()));
    for (Insertion& i : walk.insertions()) insertions.push_back(std::move(i));
  }
  std::stable_sort(insertions.begin(), insertions.end(),
                   [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; });
  std::size_t copied = 0;
  for (const Insertion& i : insertions) {
    out.ptx.append(text.substr(copied, i.offset - copied));
    out.ptx += i.text;
    copied = i.offset + i.erase;
  }
  out.ptx.append(text.substr(copied));
  return out;
}

CompileRequest trace_runtime_request(std::string target) {
  CompileRequest r;
  r.file_name = "trace_runtime.cu";
  r.text = "#include \"kernels/cuda/trace_runtime.cuh\"\n";
  r.target = std::move(target);
  r.options = {"-rdc=true"};
  r.headers = {{"kernels/cuda/trace_runtime.cuh", std::string(embedded_source("trace_runtime.cuh"))},
               {"kernels/trace_format.h", std::string(embedded_source("trace_format.h"))}};
  return r;
}

InstrumentedPtx instrument_compiled(const CompileResult& timed, const Nvrtc& nvrtc, Pass pass) {
  if (!timed.ptx)
    throw PtxError("the instrumenter rewrites PTX; this build is a " + timed.target +
                   " cubin: compile for compute_" +
                   std::to_string(Nvrtc::architecture_number(timed.target)) + " instead");
  const CompileResult runtime = nvrtc.compile(trace_runtime_request(timed.target));
  std::vector<std::string> entries;
  for (const CompiledKernel& k : timed.kernels) entries.push_back(k.lowered_name);
  return instrument_ptx(timed.image, entries, runtime.image, pass);
}

}  // namespace threadmap::cuda
