#include "kernels/ptx/ptx_instrument.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "kernels/ptx/ptx_alignment.h"
#include "kernels/ptx/ptx_passes.h"
#include "kernels/ptx/ptx_runtime.h"
#include "kernels/core/sources.h"
#include "kernels/core/trace_format.h"

namespace threadmap::cuda {

using ptx::Function;
using ptx::Module;
using ptx::Statement;
using ptx::StatementKind;
using ptx::StateSpace;

namespace {

constexpr std::string_view kReservedPrefix = "threadmap_";

// Bytes of a PTX fundamental type; 0 for a word that is none.
int type_bytes(std::string_view type) {
  if (type == "b8" || type == "u8" || type == "s8") return 1;
  if (type == "b16" || type == "u16" || type == "s16" || type == "f16" || type == "bf16") return 2;
  if (type == "b32" || type == "u32" || type == "s32" || type == "f32" || type == "f16x2" || type == "bf16x2" ||
      type == "tf32")
    return 4;
  if (type == "b64" || type == "u64" || type == "s64" || type == "f64") return 8;
  if (type == "b128") return 16;
  return 0;
}

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
      else if (!name.empty()) names_[std::string(name)] = bits;
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

constexpr std::string_view kOtherMemoryOpcodes[] = {"prefetch", "prefetchu", "cp",    "ldmatrix", "stmatrix",
                                                    "tex",      "tld4",      "suld",  "sust",     "sured",
                                                    "mbarrier", "multimem",  "wgmma", "tcgen05"};

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
    while (i < operands.size() && (operands[i] == ' ' || operands[i] == '\t' || operands[i] == ',')) ++i;
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

// Whether `text` names register `name` as a whole word.
bool names_register(std::string_view text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !ptx::is_identifier_char(text[at - 1])) &&
        (end >= text.size() || !ptx::is_identifier_char(text[end])))
      return true;
  }
  return false;
}

// Whether an instruction writes register `name`: its first operand names it
// ("%r1", "%p1|%p2", "{%f1, %f2}"). Stores, branches and barriers write none.
bool writes_register(const ptx::Instruction& in, std::string_view name) {
  const std::string_view op = in.opcode.substr(0, in.opcode.find('.'));
  if (name.empty() || op == "st" || op == "red" || op == "bra" || op == "bar" || op == "barrier") return false;
  const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
  if (operands.empty()) return false;
  return names_register(operands.front(), name);
}

std::pair<int, int> version_number(std::string_view version) {
  int major = 0, minor = 0;
  const auto dot = version.find('.');
  std::from_chars(version.data(), version.data() + version.size(), major);
  if (dot != std::string_view::npos) std::from_chars(version.data() + dot + 1, version.data() + version.size(), minor);
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
  int absorbed = 0;                // later stores to the same address the assembler folds into this one
  unsigned atomic = TM_ATOM_NONE;  // atom / red: the operation (store is set too)
  bool reduction = false;          // red: no old value returned
};

// An atom or red opcode's operation (TM_ATOM_*); TM_ATOM_NONE for one the
// trace has no name for.
unsigned atomic_operation(const std::vector<std::string_view>& words) {
  static const std::pair<std::string_view, unsigned> kOps[] = {
      {"add", TM_ATOM_ADD}, {"inc", TM_ATOM_INC}, {"dec", TM_ATOM_DEC}, {"min", TM_ATOM_MIN},   {"max", TM_ATOM_MAX},
      {"and", TM_ATOM_AND}, {"or", TM_ATOM_OR},   {"xor", TM_ATOM_XOR}, {"exch", TM_ATOM_EXCH}, {"cas", TM_ATOM_CAS}};
  for (std::size_t i = 1; i < words.size(); ++i)
    for (const auto& [name, op] : kOps)
      if (words[i] == name) return op;
  return TM_ATOM_NONE;
}

// A shared store without a guard: its width and address.
struct SharedStore {
  int bytes = 0;
  std::string address;
};

std::optional<SharedStore> unguarded_shared_store(const ptx::Instruction& in) {
  const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
  if (!in.guard.empty() || words.empty() || words[0] != "st") return std::nullopt;
  const MemoryShape shape = memory_shape(words);
  const auto inside = bracketed(in.operands);
  if (shape.async || shape.space != StateSpace::Shared || !inside) return std::nullopt;
  return SharedStore{shape.element_bytes * shape.vector_width, std::string(ptx::trim(*inside))};
}

// Whether an instruction leaves shared memory and `base` alone, and neither
// branches nor synchronises: arithmetic, and accesses to spaces that cannot
// alias shared memory.
bool leaves_shared_memory_alone(const ptx::Instruction& in, std::string_view base) {
  const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
  if (words.empty()) return false;
  const std::string_view op = words[0];
  if (op == "bra" || op == "brx" || op == "call" || op == "ret" || op == "exit" || op == "atom" || op == "red" ||
      op == "membar" || op == "fence" || op == "trap" || op == "bar" || op == "barrier" ||
      std::find(std::begin(kOtherMemoryOpcodes), std::end(kOtherMemoryOpcodes), op) != std::end(kOtherMemoryOpcodes))
    return false;
  if (op == "ld" || op == "st" || op == "ldu") {
    const MemoryShape shape = memory_shape(words);
    if (shape.async || !shape.space ||
        (*shape.space != StateSpace::Global && *shape.space != StateSpace::Param && *shape.space != StateSpace::Local &&
         *shape.space != StateSpace::Const))
      return false;
  }
  return !writes_register(in, base);
}

// How many branches target each label of the entry.
std::map<std::string, int, std::less<>> branch_targets(const Module& m, const Function& f) {
  std::map<std::string, int, std::less<>> targeted;
  for (std::size_t i = f.open + 1; i < f.close; ++i) {
    const Statement& s = m.statements[i];
    if (s.kind != StatementKind::Instruction) continue;
    const ptx::Instruction in = ptx::parse_instruction(s.text);
    const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
    if (!words.empty() && (words[0] == "bra" || words[0] == "brx"))
      for (std::string_view operand : ptx::split_operands(in.operands)) ++targeted[std::string(ptx::trim(operand))];
  }
  return targeted;
}

// The store folded into the one at statement `first` (S1 below), or 0.
std::size_t store_folded_into(const Module& m, const Function& f, std::size_t first, const SharedStore& s1,
                              std::map<std::string, int, std::less<>>& targeted) {
  const std::optional<Address> address = parse_address(s1.address);
  const std::string base = address && address->base != Address::Base::Absolute ? address->name : "";
  std::string label;
  std::size_t second = 0;
  for (std::size_t i = first + 1; i < f.close; ++i) {
    const Statement& s = m.statements[i];
    if (s.kind == StatementKind::Directive) continue;
    if (s.kind == StatementKind::Label) {
      const bool folds = !label.empty() && second != 0 && ptx::trim(s.text.substr(0, s.text.find(':'))) == label &&
                         targeted[label] == 1;
      return folds ? second : 0;
    }
    if (s.kind != StatementKind::Instruction) return 0;
    const ptx::Instruction in = ptx::parse_instruction(s.text);
    const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
    if (label.empty() && !words.empty() && words[0] == "bra" && !in.guard.empty()) {
      const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
      if (operands.size() != 1) return 0;
      label = std::string(ptx::trim(operands.front()));
      continue;
    }
    if (!label.empty() && second == 0) {
      if (const std::optional<SharedStore> s2 = unguarded_shared_store(in)) {
        if (s2->bytes != s1.bytes || s2->address != s1.address) return 0;
        second = i;
        continue;
      }
    }
    if (!leaves_shared_memory_alone(in, base)) return 0;
  }
  return 0;
}

// The stores the assembler folds into an earlier one (statement index ->
// that store's). NVVM writes
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
std::map<std::size_t, std::size_t> find_folded_stores(const Module& m, const Function& f) {
  std::map<std::string, int, std::less<>> targeted = branch_targets(m, f);
  std::map<std::size_t, std::size_t> folded_into;
  for (std::size_t first = f.open + 1; first < f.close; ++first) {
    if (m.statements[first].kind != StatementKind::Instruction) continue;
    const std::optional<SharedStore> s1 = unguarded_shared_store(ptx::parse_instruction(m.statements[first].text));
    if (!s1) continue;
    if (const std::size_t second = store_folded_into(m, f, first, *s1, targeted)) folded_into[second] = first;
  }
  return folded_into;
}

// Whether the entry names `name` (a whole identifier).
bool uses(const Module& m, const Function& f, std::string_view name) {
  for (std::size_t i = f.open + 1; i < f.close; ++i) {
    const std::string_view text = m.statements[i].text;
    for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      const std::size_t end = at + name.size();
      if ((at == 0 || !ptx::is_identifier_char(text[at - 1])) &&
          (end >= text.size() || !ptx::is_identifier_char(text[end])))
        return true;
    }
  }
  return false;
}

// Where the assembler puts the variables: the first static shared variable
// a kernel uses, in declaration order, starts its shared window, 16-byte
// aligned (the A tile of a matrix multiply's two: its rows read along k
// become LDS.128); any other variable is known only by its declared .align.
std::map<std::string, int, std::less<>> symbol_alignments(
    const Module& m, const Function& f, const std::map<std::string, ptx::Variable, std::less<>>& variables) {
  std::map<std::string, int, std::less<>> bits;
  std::string first_shared;  // the first static shared array the entry uses, in declaration order
  for (const auto& [name, v] : variables) {
    int b = 0;
    while (b < ptx::KnownAlignment::kCap && (2ll << b) <= v.align) ++b;
    bits[name] = b;
    if (v.space == StateSpace::Shared && !v.external && uses(m, f, name) &&
        (first_shared.empty() || m.text.find(name) < m.text.find(first_shared)))
      first_shared = name;
  }
  // ptxas places it at offset 0 of the block's window.
  if (!first_shared.empty()) bits[first_shared] = std::max(bits[first_shared], 4);
  return bits;
}

// The instrumenter's walk over one entry: its report, and, for a pass, the
// places its glue goes, told to the pass's observer (ptx_passes.h) as the
// walk meets them.
//
// Accesses are gathered into runs the assembler may merge: the same opcode,
// guard and base address, one after the other with nothing between them but
// arithmetic that leaves the base alone, and, between loads, loads of other
// bases (the assembler reorders loads past loads: the rows of a shared tile
// read along an unrolled loop beside another tile's column become 16-byte
// loads). A run's accesses at contiguous
// offsets become one machine access wherever the base's known alignment
// allows the wider one (ptx_alignment.h); the trace then records that one
// access, as the machine makes it.
class EntryWalk {
 public:
  // `glue` null: the report only.
  EntryWalk(const Module& module, const Function& entry, PassGlue* glue) : m_(module), f_(entry), glue_(glue) {
    report_.entry = entry.name;
    for (const auto& [name, v] : module.variables) variables_[name] = v;
  }

  void run() {
    folded_into_ = find_folded_stores(m_, f_);
    bool begun = false;
    for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
      const Statement& s = m_.statements[i];
      if (s.kind == StatementKind::Directive) {
        directive(s);
        continue;
      }
      if ((s.kind == StatementKind::Instruction || s.kind == StatementKind::Label) && !begun) {
        begun = true;
        if (glue_) glue_->begin(s);
      }
      if (s.kind == StatementKind::Label) {
        end_run();
        const std::string_view name = ptx::trim(s.text.substr(0, s.text.find(':')));
        flow_.labels.emplace(std::string(name), i);
      }
      if (s.kind == StatementKind::Instruction) instruction(i);
    }
    end_run();
    if (glue_ && !begun)
      throw PtxError(line_prefix(m_.text, m_.statements[f_.open].begin) + "the body of " + f_.name +
                     " has no instructions");
    record_runs();
    if (glue_) glue_->shared_arrays(shared_arrays_named());
    finish_report();
  }

  EntryReport& report() { return report_; }
  const ControlFlow& control_flow() const { return flow_; }

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
      flow_.branches.push_back({index, std::string(ptx::trim(ptx::split_operands(in.operands).front()))});
    if (op == "ld" || op == "st" || op == "ldu") {
      memory(index, in, words);
      return;
    }
    if (op == "atom" || op == "red") {
      end_run();
      atomic(index, in, words);
    } else if (is_barrier(words)) {
      end_run();
      ++report_.barriers;
      if (glue_) glue_->barrier({&s, index, in, location_.line});
    } else if (op == "ret" || op == "exit") {
      end_run();
      ++report_.exits;
      if (glue_) glue_->exit({&s, in.guard, op});
    } else if (op == "call") {
      end_run();
      unrecorded("call", callee_of(in.operands));
    } else if (std::find(std::begin(kOtherMemoryOpcodes), std::end(kOtherMemoryOpcodes), op) !=
               std::end(kOtherMemoryOpcodes)) {
      end_run();
      unrecorded("other memory", in.opcode);
    } else if (op == "bra" || op == "brx" || op == "membar" || op == "fence" || op == "trap" || op == "bar" ||
               op == "barrier") {
      end_run();
    } else {
      // Arithmetic between a run's accesses ends it only by changing its
      // base or its predicate ("setp ... %p1|%p2, ..." writes two).
      end_runs_if([&](const Access& last) {
        std::string_view guard = last.guard;
        while (guard.starts_with('@') || guard.starts_with('!')) guard.remove_prefix(1);
        return writes_register(in, last.address.name) || writes_register(in, guard);
      });
    }
  }

  // A load or store: counted as not recorded (param, local, const, other
  // spaces, asynchronous copies), folded into an earlier store, or added to
  // the current run.
  void memory(std::size_t index, const ptx::Instruction& in, const std::vector<std::string_view>& words) {
    const MemoryShape shape = memory_shape(words);
    if (shape.async) {
      end_run();
      return unrecorded("other memory", in.opcode);
    }
    const StateSpace written = shape.space.value_or(StateSpace::Generic);
    if (const std::string_view category = unrecorded_space(written); !category.empty()) {
      end_run();
      return unrecorded(std::string(category), in.opcode);
    }
    const Statement& s = m_.statements[index];
    Address address = address_of(s, in);
    const std::optional<unsigned> space_code = recorded_space(s, in, shape, address);
    if (!space_code) {
      end_run();
      return;
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
             std::move(address),
             *space_code,
             memory_space(written),
             words[0] == "st",
             shape.element_bytes,
             shape.element_bytes * shape.vector_width,
             file(),
             location_.line};
    a.absorbed = static_cast<int>(std::count_if(folded_into_.begin(), folded_into_.end(),
                                                [&](const auto& fold) { return fold.second == index; }));
    continue_run(std::move(a));
  }

  // An atomic or reduction (atom, red) on global, shared or generic memory:
  // recorded alone, a read-modify-write with its operation. One the trace
  // cannot hold (a vector atomic, another space) is counted as not recorded.
  void atomic(std::size_t index, const ptx::Instruction& in, const std::vector<std::string_view>& words) {
    const MemoryShape shape = memory_shape(words);
    const unsigned operation = atomic_operation(words);
    if (operation == TM_ATOM_NONE || shape.vector_width > 1) return unrecorded("atomic", in.opcode);
    const Statement& s = m_.statements[index];
    Address address = address_of(s, in);
    const std::optional<unsigned> space_code = recorded_space(s, in, shape, address);
    if (!space_code) return;
    Access a{index,
             in.guard,
             in.opcode,
             std::move(address),
             *space_code,
             memory_space(shape.space.value_or(StateSpace::Generic)),
             true,
             shape.element_bytes,
             shape.element_bytes,
             file(),
             location_.line};
    const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
    a.atomic = operation == TM_ATOM_ADD && !operands.empty() && ptx::trim(operands.back()) == "1" ? TM_ATOM_ADD_ONE
                                                                                                  : operation;
    // ptxas makes an atom whose old value nothing reads a reduction (RED),
    // except an exchange or compare-and-swap.
    a.reduction = words[0] == "red" || (operation != TM_ATOM_CAS && operation != TM_ATOM_EXCH && !operands.empty() &&
                                        !read_after(index, ptx::trim(operands.front())));
    accesses_.push_back(std::move(a));
    runs_.push_back({accesses_.size() - 1});
  }

  // Whether any instruction of the entry other than statement `index` reads
  // register `name` (as an operand after the first, or as a guard).
  bool read_after(std::size_t index, std::string_view name) const {
    for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
      const Statement& s = m_.statements[i];
      if (i == index || s.kind != StatementKind::Instruction) continue;
      const ptx::Instruction other = ptx::parse_instruction(s.text);
      std::vector<std::string_view> operands = ptx::split_operands(other.operands);
      if (!operands.empty() && writes_register(other, name)) operands.erase(operands.begin());
      if (names_register(other.guard, name)) return true;
      for (std::string_view o : operands)
        if (names_register(o, name)) return true;
    }
    return false;
  }

  // Where an access goes (kSpace*), or nullopt for a space the trace does
  // not record (counted as such). A generic access to a named variable
  // reaches that variable's space.
  std::optional<unsigned> recorded_space(const Statement& s, const ptx::Instruction& in, const MemoryShape& shape,
                                         const Address& address) {
    if (shape.element_bytes == 0)
      throw PtxError(line_prefix(m_.text, s.begin) + "`" + std::string(in.opcode) +
                     "` names no type the instrumenter knows (.b8 to .b128)");
    const StateSpace written = shape.space.value_or(StateSpace::Generic);
    unsigned space_code = written == StateSpace::Shared   ? kSpaceShared
                          : written == StateSpace::Global ? kSpaceGlobal
                                                          : kSpaceGeneric;
    if (const std::string_view category = unrecorded_space(written); !category.empty()) {
      unrecorded(std::string(category), in.opcode);
      return std::nullopt;
    }
    if (address.base == Address::Base::Symbol) {
      const StateSpace declared = symbol_space(s, address.name);
      if (declared == StateSpace::Local || declared == StateSpace::Const || declared == StateSpace::Param) {
        unrecorded(std::string(unrecorded_space(declared)), in.opcode);
        return std::nullopt;
      }
      if (declared == StateSpace::Shared) space_code = kSpaceShared;
      if (declared == StateSpace::Global) space_code = kSpaceGlobal;
    }
    return space_code;
  }

  static MemorySpace memory_space(StateSpace space) {
    return space == StateSpace::Shared   ? MemorySpace::Shared
           : space == StateSpace::Global ? MemorySpace::Global
                                         : MemorySpace::Generic;
  }

  // The report's category for a space the trace does not record; "" for
  // global, shared and generic.
  static std::string_view unrecorded_space(StateSpace space) {
    switch (space) {
      case StateSpace::Param: return "param";
      case StateSpace::Local: return "local";
      case StateSpace::Const: return "const";
      case StateSpace::SharedCluster:
      case StateSpace::Other: return "other memory";
      case StateSpace::Generic:
      case StateSpace::Global:
      case StateSpace::Shared: break;
    }
    return {};
  }

  // The address operand, checked: a register the glue can widen to 64 bits.
  Address address_of(const Statement& s, const ptx::Instruction& in) const {
    const auto inside = bracketed(in.operands);
    auto address = inside ? parse_address(*inside) : std::nullopt;
    if (!address)
      throw PtxError(line_prefix(m_.text, s.begin) + "cannot read the address of `" + std::string(ptx::trim(s.text)) +
                     "`");
    // Inline assembly may name registers without '%'.
    if (address->base == Address::Base::Symbol && registers_.bits(address->name) != 0)
      address->base = Address::Base::Register;
    if (glue_ && address->base == Address::Base::Register) {
      const int bits = registers_.bits(address->name);
      if (bits != 32 && bits != 64)
        throw PtxError(
            line_prefix(m_.text, s.begin) + "the address register " + address->name +
            (bits == 0 ? " is not declared in " + f_.name : " has " + std::to_string(bits) + " bits, not 32 or 64"));
    }
    return *address;
  }

  // A load joins the open load run of its opcode, guard and base, or opens
  // one; a store continues only the run of the access just before it.
  void continue_run(Access a) {
    const bool load = !a.store;
    const auto same = [&](const std::vector<std::size_t>& run) {
      const Access& last = accesses_[run.back()];
      return last.opcode == a.opcode && last.guard == a.guard && last.address.base == a.address.base &&
             last.address.name == a.address.name;
    };
    if (load ? last_store_run_ : !(last_store_run_ && same(open_runs_.back()))) end_run();
    const auto joined = load ? std::find_if(open_runs_.begin(), open_runs_.end(), same) : open_runs_.begin();
    accesses_.push_back(std::move(a));
    if (joined == open_runs_.end()) open_runs_.push_back({accesses_.size() - 1});
    else joined->push_back(accesses_.size() - 1);
    last_store_run_ = !load;
  }

  // Ends every open run.
  void end_run() {
    for (auto& run : open_runs_) runs_.push_back(std::move(run));
    open_runs_.clear();
    last_store_run_ = false;
  }

  // Ends the open runs whose last access `ends` says the instruction breaks.
  template <class Ends>
  void end_runs_if(Ends ends) {
    for (auto run = open_runs_.begin(); run != open_runs_.end();) {
      if (!ends(accesses_[run->back()])) {
        ++run;
        continue;
      }
      runs_.push_back(std::move(*run));
      run = open_runs_.erase(run);
    }
    if (open_runs_.empty()) last_store_run_ = false;
  }

  // Splits each run into the machine accesses it becomes, and records them.
  void record_runs() {
    const ptx::KnownAlignment alignment(m_, f_, symbol_alignments(m_, f_, variables_));
    for (const std::vector<std::size_t>& run : runs_) {
      std::vector<std::size_t> by_offset = run;
      std::stable_sort(by_offset.begin(), by_offset.end(), [&](std::size_t x, std::size_t y) {
        return accesses_[x].address.offset < accesses_[y].address.offset;
      });
      const Access& first = accesses_[run.front()];
      const int base_bits = first.address.base == Address::Base::Absolute ? ptx::KnownAlignment::kCap
                                                                          : alignment.zero_bits(first.address.name);
      for (std::size_t i = 0; i < by_offset.size();) {
        const std::size_t members = widest_access(by_offset, i, base_bits);
        record(std::vector<std::size_t>(by_offset.begin() + static_cast<std::ptrdiff_t>(i),
                                        by_offset.begin() + static_cast<std::ptrdiff_t>(i + members)));
        i += members;
      }
    }
  }

  // How many members from `i` of a run (sorted by offset) make the widest
  // access, up to 16 bytes, that is aligned and covers contiguous members.
  std::size_t widest_access(const std::vector<std::size_t>& by_offset, std::size_t i, int base_bits) const {
    const Access& a = accesses_[by_offset[i]];
    const int aligned_bits = std::min(base_bits, ptx::zero_bits_of(a.address.offset));
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
    return members;
  }

  // One machine access made of `chunk` (accesses at contiguous offsets,
  // lowest first): recorded before the first of them in program order.
  void record(const std::vector<std::size_t>& chunk) {
    const Access& low = accesses_[chunk.front()];
    const Access& earliest = accesses_[*std::min_element(chunk.begin(), chunk.end())];
    const int bytes = low.access_bytes * static_cast<int>(chunk.size());
    int merged = 0;
    for (const std::size_t k : chunk) merged += 1 + accesses_[k].absorbed;
    MemoryInstructions site{earliest.file, earliest.line,          low.written, low.store,
                            bytes,         bytes / low.type_bytes, merged,      0};
    site.atomic = low.atomic != TM_ATOM_NONE;
    ++recorded_[site];
    if (!glue_) return;
    MachineAccess machine{&m_.statements[earliest.statement],
                          low.opcode,
                          low.guard,
                          low.address,
                          low.address.base == Address::Base::Register ? registers_.bits(low.address.name) : 0,
                          low.space_code,
                          low.store,
                          bytes,
                          static_cast<int>(chunk.size()),
                          merged,
                          earliest.line,
                          {},
                          low.atomic,
                          low.reduction};
    for (const std::size_t k : chunk) {
      machine.statements.push_back(&m_.statements[accesses_[k].statement]);
      for (const auto& [folded, into] : folded_into_)
        if (into == accesses_[k].statement) machine.statements.push_back(&m_.statements[folded]);
    }
    glue_->access(machine);
  }

  // The shared variables whose names the entry's instructions use.
  std::vector<ptx::Variable> shared_arrays_named() const {
    std::vector<ptx::Variable> named;
    for (const auto& [name, v] : variables_) {
      if (v.space != StateSpace::Shared) continue;
      for (std::size_t i = f_.open + 1; i < f_.close; ++i) {
        const Statement& s = m_.statements[i];
        if (s.kind != StatementKind::Instruction) continue;
        const std::size_t at = s.text.find(name);
        const std::size_t end = at + name.size();
        if (at != std::string_view::npos && (at == 0 || !ptx::is_identifier_char(s.text[at - 1])) &&
            (end >= s.text.size() || !ptx::is_identifier_char(s.text[end]))) {
          named.push_back(v);
          break;
        }
      }
    }
    return named;
  }

  StateSpace symbol_space(const Statement& s, const std::string& name) const {
    if (const auto v = variables_.find(name); v != variables_.end()) return v->second.space;
    for (const ptx::Parameter& p : f_.parameters)
      if (p.name == name) return StateSpace::Param;
    throw PtxError(line_prefix(m_.text, s.begin) + "the address [" + name +
                   "] names no variable declared in the module or in " + f_.name);
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
      return std::tie(a.file, a.line, a.space, a.store, a.atomic, a.bytes, a.vector_width, a.merged) <
             std::tie(b.file, b.line, b.space, b.store, b.atomic, b.bytes, b.vector_width, b.merged);
    }
  };

  const Module& m_;
  const Function& f_;
  PassGlue* glue_;
  ptx::Location location_{};
  Registers registers_;
  std::map<std::string, ptx::Variable, std::less<>> variables_;
  ControlFlow flow_;
  // Stores folded into an earlier one (not recorded) -> that store, by statement index.
  std::map<std::size_t, std::size_t> folded_into_;
  std::vector<Access> accesses_;
  std::vector<std::vector<std::size_t>> open_runs_;  // loads' runs, or the one store run
  bool last_store_run_ = false;                       // open_runs_ holds a store run (and only it)
  std::vector<std::vector<std::size_t>> runs_;
  std::map<MemoryInstructions, int, SiteOrder> recorded_;
  std::map<std::tuple<std::string, int, std::string, std::string>, int> unrecorded_;
  EntryReport report_;
};

// The entry's one more parameter, the trace buffer's address, last.
void add_trace_buffer_parameter(const Module& m, const Function& f, Splice& splice) {
  const std::string declaration = ".param .u64 " + std::string(kTraceBufferParameter);
  if (f.parameters_close == 0) {
    splice.at(f.name_end, "(\n\t" + declaration + "\n)");
  } else if (f.parameters.empty()) {
    splice.at(f.parameters_close, "\n\t" + declaration + "\n");
  } else {
    std::size_t at = f.parameters_close;
    while (at > f.parameters_open && std::isspace(static_cast<unsigned char>(m.text[at - 1]))) --at;
    splice.at(at, ",\n\t" + declaration);
  }
}

// One entry rewritten for one pass: the walk, with the pass's glue
// observing it; then the glue's registers and, unless the glue writes the
// trace buffer's address into the code, the trace buffer parameter.
EntryReport instrument_entry(const Module& m, const Function& entry, Pass pass, Splice& splice,
                             const AccessGlueOptions& options = {}) {
  const std::unique_ptr<PassGlue> glue =
      pass == Pass::Access ? access_pass_glue(splice, options) : clock_pass_glue(splice);
  EntryWalk walk(m, entry, glue.get());
  walk.run();
  glue->end(walk.control_flow());
  splice.at(m.statements[entry.open].end, glue->declarations());
  if (!options.trace_buffer) add_trace_buffer_parameter(m, entry, splice);
  return std::move(walk.report());
}

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
                       std::string(kReservedPrefix) + ", which the instrumenter reserves (instrumented twice?)");
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
  EntryWalk walk(m, find_entry(m, entry), nullptr);
  walk.run();
  return std::move(walk.report());
}

// The module's text with the insertions made.
std::string spliced(std::string_view text, std::vector<Insertion>& insertions) {
  std::stable_sort(insertions.begin(), insertions.end(),
                   [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; });
  std::string out;
  std::size_t copied = 0;
  for (const Insertion& i : insertions) {
    out.append(text.substr(copied, i.offset - copied));
    out += i.text;
    copied = i.offset + i.erase;
  }
  out.append(text.substr(copied));
  return out;
}

// The runtime, read and checked against the module it goes into; a runtime
// of newer PTX is refused unless the module's version may be raised.
ptx::Runtime runtime_for(const Module& m, std::string_view runtime_ptx, bool raise_version) {
  ptx::Runtime runtime = ptx::read_runtime(without_trailing_nuls(runtime_ptx));
  if (runtime.target != m.target)
    throw PtxError("the trace runtime was compiled for .target " + runtime.target + ", the kernel for " + m.target +
                   ": compile the runtime for the kernel's target");
  if (!raise_version && version_number(runtime.version) > version_number(m.version))
    throw PtxError("the trace runtime is PTX " + runtime.version + ", newer than the kernel's " + m.version +
                   ": compile both with the same NVRTC");
  return runtime;
}

const std::string_view kRuntimeComment = "\n\n// threadmap: the recording runtime (kernels/ptx/trace_runtime.cuh)\n";

InstrumentedPtx instrument_ptx(std::string_view kernel_ptx, const std::vector<std::string>& entries,
                               std::string_view runtime_ptx, Pass pass) {
  const std::string_view text = without_trailing_nuls(kernel_ptx);
  const Module m = read_kernel_module(text);
  check_reserved_names(m);
  const ptx::Runtime runtime = runtime_for(m, runtime_ptx, false);
  InstrumentedPtx out;
  // The clock pass calls nothing: only the access pass takes the runtime.
  std::vector<Insertion> insertions;
  if (pass == Pass::Access) insertions.push_back({m.header_end, std::string(kRuntimeComment) + runtime.text});
  Splice splice(m.text, insertions);
  std::set<std::string> done;
  for (const std::string& name : entries)
    if (done.insert(name).second) out.entries.push_back(instrument_entry(m, find_entry(m, name), pass, splice));
  out.ptx = spliced(text, insertions);
  return out;
}

std::vector<std::string> function_definitions(std::string_view module_ptx) {
  const Module m = ptx::parse_module(without_trailing_nuls(module_ptx));
  std::vector<std::string> names;
  for (const Function& f : m.functions)
    if (!f.entry) names.push_back(f.name);
  return names;
}

InstrumentedPtx instrument_offload_ptx(std::string_view module_ptx, const std::vector<std::string>& entries,
                                       std::string_view runtime_ptx, const OffloadOptions& options) {
  if (!options.trace_buffer) throw PtxError("an offload image's trace buffer needs its device address");
  const std::string_view text = without_trailing_nuls(module_ptx);
  const Module m = read_kernel_module(text);
  check_reserved_names(m);
  const ptx::Runtime runtime = runtime_for(m, runtime_ptx, true);
  std::vector<Insertion> insertions;
  if (version_number(runtime.version) > version_number(m.version))
    for (const Statement& s : m.statements)
      if (s.kind == StatementKind::Directive && ptx::directive_word(s.text) == ".version") {
        insertions.push_back({s.begin, ".version " + runtime.version, s.end - s.begin});
        break;
      }
  insertions.push_back({m.header_end, std::string(kRuntimeComment) + runtime.text});
  Splice splice(m.text, insertions);
  InstrumentedPtx out;
  std::set<std::string> done;
  const AccessGlueOptions entry{options.trace_buffer, true, true};
  for (const std::string& name : entries)
    if (done.insert(name).second)
      out.entries.push_back(instrument_entry(m, find_entry(m, name), Pass::Access, splice, entry));
  const AccessGlueOptions function{options.trace_buffer, true, false};
  for (const std::string& name : options.functions) {
    if (!done.insert(name).second) continue;
    const Function* f = m.find_function(name);
    if (!f || f->entry) throw PtxError("no function (.func) named " + name + " with a body in the PTX");
    out.entries.push_back(instrument_entry(m, *f, Pass::Access, splice, function));
  }
  out.ptx = spliced(text, insertions);
  return out;
}

CompileRequest trace_runtime_request(std::string target) {
  CompileRequest r;
  r.file_name = "trace_runtime.cu";
  r.text = "#include \"kernels/ptx/trace_runtime.cuh\"\n";
  r.target = std::move(target);
  r.options = {"-rdc=true"};
  r.headers = {{"kernels/ptx/trace_runtime.cuh", std::string(embedded_source("trace_runtime.cuh"))},
               {"kernels/core/trace_format.h", std::string(embedded_source("trace_format.h"))}};
  return r;
}

}  // namespace threadmap::cuda
