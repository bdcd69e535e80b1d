#include "kernels/engine/opencl/cl_instrument.h"

#include <clang-c/Index.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "kernels/core/error.h"
#include "kernels/core/sources.h"

namespace threadmap {

namespace {

// libclang's C API, opened at run time. The function types come from its
// own header, so nothing here restates a prototype.
#define TM_LIBCLANG_FUNCTIONS(X)                                                                                    \
  X(clang_createIndex)                                                                                              \
  X(clang_disposeIndex) X(clang_parseTranslationUnit2) X(clang_disposeTranslationUnit) X(clang_getNumDiagnostics)   \
      X(clang_getDiagnostic) X(clang_getDiagnosticSeverity) X(clang_getDiagnosticSpelling)                          \
          X(clang_getDiagnosticLocation) X(clang_disposeDiagnostic) X(clang_getTranslationUnitCursor)               \
              X(clang_visitChildren) X(clang_getCursorKind) X(clang_getCursorType) X(clang_getTypeSpelling)         \
                  X(clang_getCursorSpelling) X(clang_getCString) X(clang_disposeString) X(clang_getCursorExtent)    \
                      X(clang_getRangeStart) X(clang_getRangeEnd) X(clang_getSpellingLocation)                      \
                          X(clang_getExpansionLocation) X(clang_getFile) X(clang_getLocationForOffset)              \
                              X(clang_getRange) X(clang_tokenize) X(clang_getTokenSpelling) X(clang_getTokenExtent) \
                                  X(clang_getTokenKind) X(clang_disposeTokens) X(clang_getFileContents)

struct Libclang {
#define TM_DECLARE(f) decltype(&::f) f = nullptr;
  TM_LIBCLANG_FUNCTIONS(TM_DECLARE)
#undef TM_DECLARE
  std::string error;  // why it could not be opened

  static const Libclang& get() {
    static const Libclang lib = open();
    return lib;
  }

 private:
  static Libclang open() {
    Libclang lib;
    std::vector<std::string> names;
    if (const char* path = std::getenv("THREADMAP_LIBCLANG")) names.push_back(path);
    names.insert(names.end(), {"libclang-14.so.1", "libclang.so.1", "libclang-15.so.1", "libclang.so"});
    void* handle = nullptr;
    for (const std::string& name : names)
      if ((handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!handle) {
      lib.error = "libclang could not be opened (tried " + names.front() + (names.size() > 1 ? " and others" : "") +
                  "); install Debian's libclang1-14, or set THREADMAP_LIBCLANG to the library";
      return lib;
    }
#define TM_LOAD(f)                                              \
  lib.f = reinterpret_cast<decltype(lib.f)>(dlsym(handle, #f)); \
  if (!lib.f && lib.error.empty()) lib.error = "libclang has no " #f;
    TM_LIBCLANG_FUNCTIONS(TM_LOAD)
#undef TM_LOAD
    return lib;
  }
};

const Libclang& libclang() {
  const Libclang& lib = Libclang::get();
  if (!lib.error.empty()) throw DeviceError("tracing an OpenCL kernel needs libclang: " + lib.error);
  return lib;
}

std::string text_of(const Libclang& lib, CXString s) {
  const char* c = lib.clang_getCString(s);
  std::string r = c ? c : "";
  lib.clang_disposeString(s);
  return r;
}

// One node of the syntax tree, as the rewrite needs it.
struct Node {
  CXCursorKind kind;
  std::string type;             // its type's spelling: "__global float", "__local int[32][33]"
  std::string spelling;         // a call's callee, a declaration's name
  unsigned begin = 0, end = 0;  // offsets in the parsed buffer
  bool in_main = false;         // written in the parsed text itself, not in a macro
  int parent = -1;
  std::vector<int> children;
};

struct Walk {
  const Libclang& lib;
  CXFile main_file;
  unsigned skip;
  std::vector<Node> nodes;

  unsigned offset(CXSourceLocation loc, bool expansion, bool* here) const {
    CXFile file;
    unsigned line, column, at;
    if (expansion) lib.clang_getExpansionLocation(loc, &file, &line, &column, &at);
    else lib.clang_getSpellingLocation(loc, &file, &line, &column, &at);
    if (here) *here = file == main_file;
    return at;
  }
};

struct Frame {
  Walk* walk;
  int parent;
};

CXChildVisitResult visit_node(CXCursor c, CXCursor, CXClientData data) {
  Frame& f = *static_cast<Frame*>(data);
  Walk& w = *f.walk;
  const Libclang& lib = w.lib;
  Node n;
  const CXSourceRange extent = lib.clang_getCursorExtent(c);
  bool begin_here = false, end_here = false;
  const unsigned spelled_begin = w.offset(lib.clang_getRangeStart(extent), false, &begin_here);
  // The builtins' declarations and the prelude's: not walked.
  if (f.parent < 0 && (!begin_here || spelled_begin < w.skip)) return CXChildVisit_Continue;
  n.kind = lib.clang_getCursorKind(c);
  n.type = text_of(lib, lib.clang_getTypeSpelling(lib.clang_getCursorType(c)));
  n.spelling = text_of(lib, lib.clang_getCursorSpelling(c));
  const unsigned spelled_end = w.offset(lib.clang_getRangeEnd(extent), false, &end_here);
  n.begin = w.offset(lib.clang_getRangeStart(extent), true, nullptr);
  n.end = w.offset(lib.clang_getRangeEnd(extent), true, nullptr);
  n.in_main = begin_here && end_here && spelled_begin == n.begin && spelled_end == n.end && n.begin >= w.skip;
  n.parent = f.parent;
  const int id = static_cast<int>(w.nodes.size());
  w.nodes.push_back(std::move(n));
  if (f.parent >= 0) w.nodes[static_cast<std::size_t>(f.parent)].children.push_back(id);
  Frame child{&w, id};
  lib.clang_visitChildren(c, visit_node, &child);
  return CXChildVisit_Continue;
}

struct Edit {
  unsigned at;
  int order;  // at one offset: closes (inner first), then opens (outer first)
  std::string text;
};

// An element (not an array, pointer or function) in that address space:
// "__global int", "const __global float4", "__local int".
bool in_space(const std::string& type, std::string_view space) {
  const std::size_t at = type.find(space);
  return at != std::string::npos && (at == 0 || type[at - 1] == ' ') && type.find_first_of("[(*") == std::string::npos;
}

// The space of what a pointer type points to: "__global", "__local" or "".
std::string_view pointee_space(const std::string& type) {
  const std::size_t star = type.rfind('*');
  if (star == std::string::npos) return {};
  const std::string pointee = type.substr(0, star);
  for (std::string_view space : {"__global", "__local"}) {
    const std::size_t at = pointee.find(space);
    if (at != std::string::npos && (at == 0 || pointee[at - 1] == ' ' || pointee[at - 1] == '(')) return space;
  }
  return {};
}

// The element count of a vloadN / vstoreN builtin ("vload4": 4), else 0.
int vector_builtin(std::string_view name, bool& store) {
  store = name.starts_with("vstore");
  if (!name.starts_with("vload") && !store) return 0;
  name.remove_prefix(store ? 6 : 5);
  for (const int n : {2, 3, 4, 8, 16})
    if (name == std::to_string(n)) return n;
  return 0;
}

// A builtin that reads or writes memory in a form the hooks do not record
// (vload_half, vstorea_half_rte, async_work_group_copy, ...): the traced
// build refuses it, naming it, rather than record a run that misses accesses.
bool untraced_builtin(std::string_view name) {
  for (std::string_view prefix : {"vload_half", "vloada_half", "vstore_half", "vstorea_half", "async_work_group",
                                  "wait_group_events"})
    if (name.starts_with(prefix)) return true;
  return false;
}

// The trace's operation (a TM_ATOM_* name) of an OpenCL atomic builtin that
// modifies memory (atomic_inc adds 1: TM_ATOM_ADD_ONE, as atomic_add(p, 1)) (1.x atomic_*, the atom_* extensions, 2.0
// atomic_fetch_*, exchange and compare-exchange); "" for any other function.
std::string_view atomic_builtin(std::string_view name) {
  static const std::map<std::string_view, std::string_view> kOps = {{"add", "TM_ATOM_ADD"},
                                                                    {"sub", "TM_ATOM_SUB"},
                                                                    {"xchg", "TM_ATOM_EXCH"},
                                                                    {"inc", "TM_ATOM_ADD_ONE"},
                                                                    {"dec", "TM_ATOM_DEC"},
                                                                    {"cmpxchg", "TM_ATOM_CAS"},
                                                                    {"min", "TM_ATOM_MIN"},
                                                                    {"max", "TM_ATOM_MAX"},
                                                                    {"and", "TM_ATOM_AND"},
                                                                    {"or", "TM_ATOM_OR"},
                                                                    {"xor", "TM_ATOM_XOR"},
                                                                    {"exchange", "TM_ATOM_EXCH"},
                                                                    {"compare_exchange_strong", "TM_ATOM_CAS"},
                                                                    {"compare_exchange_weak", "TM_ATOM_CAS"}};
  if (name.ends_with("_explicit")) name.remove_suffix(std::string_view("_explicit").size());
  if (name.starts_with("atomic_fetch_")) name.remove_prefix(std::string_view("atomic_fetch_").size());
  else if (name.starts_with("atomic_")) name.remove_prefix(std::string_view("atomic_").size());
  else if (name.starts_with("atom_")) name.remove_prefix(std::string_view("atom_").size());
  else return {};
  const auto found = kOps.find(name);
  return found == kOps.end() ? std::string_view() : found->second;
}

// The name libclang is given for the text it parses.
constexpr const char* kParsedName = "threadmap_input.cl";

// As the device builds it (opencl_backend.cpp): OpenCL C 1.2, or 2.0 with
// the sub-group extensions where the build uses sub-group shuffles.
std::vector<std::string> clang_arguments(const std::vector<std::pair<std::string, std::string>>& defines) {
  bool subgroups = false;
  for (const auto& [define, value] : defines) subgroups |= define == "THREADMAP_SUBGROUP_SHUFFLE";
  std::vector<std::string> args{"-x", "cl", subgroups ? "-cl-std=CL2.0" : "-cl-std=CL1.2", "-Xclang",
                                "-finclude-default-header"};
  if (subgroups)
    args.insert(args.end(),
                {"-Xclang", "-cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative",
                 "-Dcl_khr_subgroups=1", "-Dcl_khr_subgroup_shuffle=1", "-Dcl_khr_subgroup_shuffle_relative=1"});
  for (const auto& [define, value] : defines) args.push_back("-D" + define + "=" + value);
  return args;
}

// The prelude, then the text from its line 1: what libclang parses, and
// where the text starts in it.
struct ParsedBuffer {
  std::string text;
  unsigned skip = 0;

  ParsedBuffer(std::string_view prelude, std::string_view source) {
    const std::string head = std::string(prelude) + "\n#line 1\n";
    text = head + std::string(source);
    skip = static_cast<unsigned>(head.size());
  }
  // A line of the source from an offset in the buffer.
  long line_of(unsigned offset) const {
    return offset < skip ? 0 : 1 + std::count(text.begin() + skip, text.begin() + offset, '\n');
  }
};

// libclang's index and translation unit, disposed with it.
struct ClangUnit {
  const Libclang& lib;
  CXIndex index;
  CXTranslationUnit tu = nullptr;

  explicit ClangUnit(const Libclang& l) : lib(l), index(l.clang_createIndex(0, 0)) {}
  ClangUnit(const ClangUnit&) = delete;
  ClangUnit& operator=(const ClangUnit&) = delete;
  ~ClangUnit() {
    if (tu) lib.clang_disposeTranslationUnit(tu);
    lib.clang_disposeIndex(index);
  }
};

void parse(ClangUnit& unit, const ParsedBuffer& buffer, const std::vector<std::string>& args,
           std::string_view file_name) {
  const Libclang& lib = unit.lib;
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  CXUnsavedFile unsaved{kParsedName, buffer.text.data(), static_cast<unsigned long>(buffer.text.size())};
  const CXErrorCode parsed =
      lib.clang_parseTranslationUnit2(unit.index, kParsedName, argv.data(), static_cast<int>(argv.size()), &unsaved, 1,
                                      CXTranslationUnit_DetailedPreprocessingRecord, &unit.tu);
  if (parsed != CXError_Success || !unit.tu)
    throw DeviceError("libclang could not parse " + std::string(file_name) + " (error " +
                      std::to_string(static_cast<int>(parsed)) + ")");
}

// Every error libclang reports, with the file, line and column, as one CompileError.
void check_parsed(const ClangUnit& unit, const ParsedBuffer& buffer, std::string_view file_name) {
  const Libclang& lib = unit.lib;
  std::string errors;
  for (unsigned i = 0; i < lib.clang_getNumDiagnostics(unit.tu); ++i) {
    CXDiagnostic d = lib.clang_getDiagnostic(unit.tu, i);
    if (lib.clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile file;
      unsigned line, column, offset;
      lib.clang_getSpellingLocation(lib.clang_getDiagnosticLocation(d), &file, &line, &column, &offset);
      errors += std::string(file_name) + ":" + std::to_string(buffer.line_of(offset)) + ":" + std::to_string(column) +
                ": error: " + text_of(lib, lib.clang_getDiagnosticSpelling(d)) + "\n";
    }
    lib.clang_disposeDiagnostic(d);
  }
  if (!errors.empty()) throw CompileError(errors);
}

// The tokens of the text, to find operators, semicolons and parentheses.
class Tokens {
 public:
  struct Token {
    unsigned begin, end;
    std::string text;
  };

  Tokens(const ClangUnit& unit, const Walk& walk, const ParsedBuffer& buffer) {
    const Libclang& lib = unit.lib;
    CXSourceRange all = lib.clang_getRange(
        lib.clang_getLocationForOffset(unit.tu, walk.main_file, buffer.skip),
        lib.clang_getLocationForOffset(unit.tu, walk.main_file, static_cast<unsigned>(buffer.text.size())));
    CXToken* raw = nullptr;
    unsigned count = 0;
    lib.clang_tokenize(unit.tu, all, &raw, &count);
    for (unsigned k = 0; k < count; ++k) {
      const CXSourceRange r = lib.clang_getTokenExtent(unit.tu, raw[k]);
      tokens_.push_back({walk.offset(lib.clang_getRangeStart(r), false, nullptr),
                         walk.offset(lib.clang_getRangeEnd(r), false, nullptr),
                         text_of(lib, lib.clang_getTokenSpelling(unit.tu, raw[k]))});
    }
    if (raw) lib.clang_disposeTokens(unit.tu, raw, count);
  }

  std::size_t size() const { return tokens_.size(); }
  const Token& operator[](std::size_t k) const { return tokens_[k]; }

  // The first token at or after an offset (size() if none).
  std::size_t from(unsigned offset) const {
    return static_cast<std::size_t>(std::lower_bound(tokens_.begin(), tokens_.end(), offset,
                                                     [](const Token& t, unsigned o) { return t.begin < o; }) -
                                    tokens_.begin());
  }
  std::string at(unsigned offset) const {
    const std::size_t k = from(offset);
    return k < tokens_.size() && tokens_[k].begin == offset ? tokens_[k].text : std::string();
  }
  // The `;` that ends the statement whose last expression ends at `offset`.
  unsigned semicolon_after(unsigned offset) const {
    for (std::size_t k = from(offset); k < tokens_.size(); ++k)
      if (tokens_[k].text == ";") return tokens_[k].end;
    return offset;
  }

 private:
  std::vector<Token> tokens_;
};

// Where the hooks of opencl/trace.clh go: the edits, from the syntax tree and
// the tokens.
class HookEdits {
 public:
  HookEdits(const std::vector<Node>& nodes, const Tokens& tokens) : nodes_(nodes), tokens_(tokens) {
    // Macro invocations in the text. libclang gives the nodes a macro makes
    // the invocation's extent: an access a macro makes (STRIP_AT(p) for
    // *(__global Vector*)(p)) is wrapped where the macro is invoked, unless
    // the macro makes more than one.
    for (const Node& n : nodes_)
      if (n.kind == CXCursor_MacroExpansion && n.in_main) invocations_.emplace_back(n.begin, n.end);
    std::sort(invocations_.begin(), invocations_.end());
    for (const Node& m : nodes_)
      if (m.in_main && is_access(m)) ++accesses_at_[{m.begin, m.end}];
  }

  std::vector<Edit> edits() {
    for (const Node& n : nodes_)
      if (n.kind == CXCursor_FunctionDecl && n.in_main) kernel(n);
    return std::move(edits_);
  }

  // The calls of builtins the hooks cannot record: where, and which.
  struct Untraced {
    unsigned at;
    std::string name;
  };
  const std::vector<Untraced>& untraced() const { return untraced_; }

 private:
  const Node& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }

  bool is_invocation(unsigned begin, unsigned end) const {
    return std::binary_search(invocations_.begin(), invocations_.end(), std::make_pair(begin, end));
  }

  bool is_access(const Node& m) const {
    if (!in_space(m.type, "__global") && !in_space(m.type, "__local")) return false;
    if (m.kind == CXCursor_ArraySubscriptExpr) return true;
    return m.kind == CXCursor_UnaryOperator && (tokens_.at(m.begin) == "*" || is_invocation(m.begin, m.end));
  }

  void wrap(const Node& n, const std::string& open, const std::string& close) {
    const int length = static_cast<int>(n.end - n.begin);
    edits_.push_back({n.begin, 1000000 - length, open});  // outer opens first
    edits_.push_back({n.end, -1000000 + length, close});  // inner closes first
  }

  // The operator between a binary expression's operands, or before/after a
  // unary one's.
  std::string operator_of(const Node& n) const {
    if (n.kind == CXCursor_BinaryOperator || n.kind == CXCursor_CompoundAssignOperator) {
      if (n.children.empty()) return {};
      const std::size_t k = tokens_.from(node(n.children[0]).end);
      return k < tokens_.size() ? tokens_[k].text : std::string();
    }
    if (n.kind == CXCursor_UnaryOperator) {
      const std::string first = tokens_.at(n.begin);
      if (first == "*" || first == "&" || first == "++" || first == "--" || first == "-" || first == "!" ||
          first == "~" || first == "+")
        return first;
      // x++ / x--: the operator is the last token.
      const std::size_t k = tokens_.from(n.end);
      return k > 0 && k <= tokens_.size() ? tokens_[k - 1].text : std::string();
    }
    return {};
  }

  // A __kernel: its parameters, body, local arrays, barriers, returns.
  void kernel(const Node& n) {
    const std::size_t first = tokens_.from(n.begin);
    bool is_kernel = false;
    for (std::size_t k = first; k < tokens_.size() && tokens_[k].begin < n.end && tokens_[k].text != "("; ++k)
      is_kernel = is_kernel || tokens_[k].text == "__kernel" || tokens_[k].text == "kernel";
    int body = -1;
    for (int c : n.children)
      if (node(c).kind == CXCursor_CompoundStmt) body = c;
    if (!is_kernel || body < 0) return;
    const Node& b = node(body);
    std::size_t close = tokens_.from(b.begin);
    while (close > 0 && tokens_[close - 1].text != ")") --close;
    if (close == 0) return;
    edits_.push_back({tokens_[close - 1].begin, 0, " TM_TRACE_PARAM"});
    std::string begin = " TM_BEGIN();";
    int local_parameters = 0;
    for (int c : n.children) {
      const Node& p = node(c);
      if (p.kind == CXCursor_ParmDecl && p.type.rfind("__local ", 0) == 0)
        begin += " TM_LOCAL_PARAMETER(" + p.spelling + ", " + std::to_string(local_parameters++) + ");";
    }
    edits_.push_back({b.begin + 1, 0, begin});
    edits_.push_back({b.end - 1, 0, " TM_END(); "});
    body_hooks(body);
  }

  // Everything inside a kernel's body.
  void body_hooks(int body) {
    std::vector<int> pending{body};
    std::vector<const Node*> local_arrays;
    while (!pending.empty()) {
      const int id = pending.back();
      const Node& m = node(id);
      pending.pop_back();
      for (int c : m.children) pending.push_back(c);
      if (!m.in_main) continue;
      if (m.kind == CXCursor_VarDecl && m.type.rfind("__local ", 0) == 0 && m.type.find('[') != std::string::npos) {
        local_arrays.push_back(&m);
      } else if (m.kind == CXCursor_CallExpr && (m.spelling == "barrier" || m.spelling == "work_group_barrier")) {
        edits_.push_back({m.begin, 1000000, "{ TM_ARRIVE(); "});
        edits_.push_back({tokens_.semicolon_after(m.end), -1000000, " TM_RELEASE(); }"});
      } else if (m.kind == CXCursor_ReturnStmt) {
        edits_.push_back({m.begin, 1000000, "{ TM_END(); "});
        edits_.push_back({tokens_.semicolon_after(m.end), -1000000, " }"});
      } else if (m.kind == CXCursor_CallExpr && !atomic_builtin(m.spelling).empty()) {
        atomic_hook(id);
      } else if (bool store = false; m.kind == CXCursor_CallExpr && vector_builtin(m.spelling, store)) {
        vector_hook(id, store);
      } else if (m.kind == CXCursor_CallExpr && untraced_builtin(m.spelling)) {
        untraced_.push_back({m.begin, m.spelling});
      } else if (is_access(m) && accesses_at_[{m.begin, m.end}] == 1) {
        access_hook(id);
      }
    }
    // Registered in the order declared: the first is where shared offsets count from.
    std::sort(local_arrays.begin(), local_arrays.end(),
              [](const Node* x, const Node* y) { return x->begin < y->begin; });
    for (const Node* m : local_arrays)
      edits_.push_back({tokens_.semicolon_after(m->end), 0, " TM_LOCAL_ARRAY(" + m->spelling + ");"});
  }

  // A load, a store, or both (x op= y, ++x), by the expression the access
  // is part of; an address (&a[i]) is no access.
  void access_hook(int id) {
    const Node& m = node(id);
    // Parentheses do not change what an access is: (*p) = x stores.
    int self = id;
    while (node(self).parent >= 0 && node(node(self).parent).kind == CXCursor_ParenExpr) self = node(self).parent;
    const int parent_id = node(self).parent;
    const Node* parent = parent_id >= 0 ? &node(parent_id) : nullptr;
    const bool global = in_space(m.type, "__global");
    const std::string op = parent ? operator_of(*parent) : std::string();
    const bool lhs = parent && !parent->children.empty() && parent->children[0] == self;
    if (parent && parent->kind == CXCursor_UnaryOperator && op == "&") return;
    std::string hook;
    if (parent && parent->kind == CXCursor_BinaryOperator && lhs && op == "=") hook = global ? "STG(" : "STS(";
    else if ((parent && parent->kind == CXCursor_CompoundAssignOperator && lhs) ||
             (parent && parent->kind == CXCursor_UnaryOperator && (op == "++" || op == "--")))
      hook = global ? "LDSTG(" : "LDSTS(";
    else hook = global ? "LDG(" : "LDS(";
    wrap(m, hook, ")");
  }

  // An atomic builtin's pointer argument, wrapped: ATOMG(p, TM_ATOM_ADD, 1u).
  // A pointer to neither __global nor __local memory is left alone.
  void atomic_hook(int id) {
    const Node& call = node(id);
    if (call.children.size() < 2) return;
    const Node& pointer = node(call.children[1]);
    const std::string_view space = pointee_space(pointer.type);
    if (space.empty() || !pointer.in_main) return;
    std::string_view op = atomic_builtin(call.spelling);
    if (op == "TM_ATOM_ADD" && call.children.size() == 3 && is_one(node(call.children[2]))) op = "TM_ATOM_ADD_ONE";
    // As ptxas makes an unused atomic a reduction, save an exchange's.
    const bool reduction = result_unused(id) && op != "TM_ATOM_CAS" && op != "TM_ATOM_EXCH";
    wrap(pointer, space == "__global" ? "ATOMG(" : "ATOMS(",
         ", " + std::string(op) + ", " + (reduction ? "1u" : "0u") + ")");
  }

  // vloadN(offset, p) / vstoreN(data, offset, p) of __global or __local
  // memory: the builtin's name is prefixed (TM_VLOADG_vload4(offset, p)), a
  // macro of opencl/trace.clh that records the n elements at p + n * offset
  // and makes the access there (or on the sink, outside).
  void vector_hook(int id, bool store) {
    const Node& call = node(id);
    if (call.children.size() != (store ? 4u : 3u) || tokens_.at(call.begin) != call.spelling) return;
    const std::string_view space = pointee_space(node(call.children.back()).type);
    if (space.empty()) return;
    const std::string hook = std::string(store ? "TM_VSTORE" : "TM_VLOAD") + (space == "__global" ? "G_" : "S_");
    edits_.push_back({call.begin, 2000000, hook});  // right before the name, inside every other open
  }

  // Whether an expression is the literal 1 (1, 1u, (1)).
  bool is_one(const Node& n) const {
    std::string text;
    for (std::size_t k = tokens_.from(n.begin); k < tokens_.size() && tokens_[k].begin < n.end; ++k)
      if (tokens_[k].text != "(" && tokens_[k].text != ")") text += tokens_[k].text;
    return text == "1" || text == "1u" || text == "1U";
  }

  // Whether a call's value is thrown away: a statement of its own (a
  // block's, or an if's or loop's body).
  bool result_unused(int id) const {
    const int parent_id = node(id).parent;
    if (parent_id < 0) return false;
    const Node& parent = node(parent_id);
    const auto& c = parent.children;
    const auto at = std::find(c.begin(), c.end(), id) - c.begin();
    switch (parent.kind) {
      case CXCursor_CompoundStmt: return true;
      case CXCursor_IfStmt:
      case CXCursor_WhileStmt: return at >= 1;
      case CXCursor_ForStmt: return at + 1 == static_cast<std::ptrdiff_t>(c.size());
      case CXCursor_DoStmt: return at == 0;
      default: return false;
    }
  }

  const std::vector<Node>& nodes_;
  std::vector<Untraced> untraced_;
  const Tokens& tokens_;
  std::vector<std::pair<unsigned, unsigned>> invocations_;
  std::map<std::pair<unsigned, unsigned>, int> accesses_at_;
  std::vector<Edit> edits_;
};

// The text with the edits, each on the line it belongs to.
std::string with_edits(const ParsedBuffer& buffer, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& x, const Edit& y) { return x.at != y.at ? x.at < y.at : x.order < y.order; });
  std::string out;
  unsigned at = buffer.skip;
  for (const Edit& e : edits) {
    if (e.at < buffer.skip) continue;
    out.append(buffer.text, at, e.at - at);
    out += e.text;
    at = e.at;
  }
  out.append(buffer.text, at, std::string::npos);
  return out;
}

}  // namespace

bool opencl_instrumenter_available(std::string* why) {
  const Libclang& lib = Libclang::get();
  if (why) *why = lib.error;
  return lib.error.empty();
}

namespace {

// The text parsed with libclang, its tree flattened and its tokens, handed
// to `use`. Throws as instrument_opencl does.
template <class Use>
auto with_tree(std::string_view text, std::string_view file_name, std::string_view prelude,
               const std::vector<std::pair<std::string, std::string>>& defines, Use use) {
  const Libclang& lib = libclang();
  const ParsedBuffer buffer(prelude, text);
  ClangUnit unit(lib);
  parse(unit, buffer, clang_arguments(defines), file_name);
  check_parsed(unit, buffer, file_name);
  Walk walk{lib, lib.clang_getFile(unit.tu, kParsedName), buffer.skip, {}};
  Frame top{&walk, -1};
  lib.clang_visitChildren(lib.clang_getTranslationUnitCursor(unit.tu), visit_node, &top);
  const Tokens tokens(unit, walk, buffer);
  return use(walk.nodes, tokens, buffer);
}

// Whether `id` lies in a branch of a node of its function: an if's or a
// ?:'s arm, a switch's body (not their conditions).
bool in_branch(const std::vector<Node>& nodes, int id) {
  for (int child = id, at = nodes[static_cast<std::size_t>(id)].parent; at >= 0;
       child = at, at = nodes[static_cast<std::size_t>(at)].parent) {
    const Node& n = nodes[static_cast<std::size_t>(at)];
    if (n.kind == CXCursor_FunctionDecl) return false;
    const bool branching = n.kind == CXCursor_IfStmt || n.kind == CXCursor_ConditionalOperator ||
                           n.kind == CXCursor_SwitchStmt;
    if (branching && !n.children.empty() && n.children.front() != child) return true;
  }
  return false;
}

std::string instrumented(const std::vector<Node>& nodes, const Tokens& tokens, const ParsedBuffer& buffer,
                         std::string_view file_name);

int function_of(const std::vector<Node>& nodes, int id) {
  while (id >= 0 && nodes[static_cast<std::size_t>(id)].kind != CXCursor_FunctionDecl)
    id = nodes[static_cast<std::size_t>(id)].parent;
  return id;
}

}  // namespace

std::vector<long> divergent_barrier_lines(std::string_view text, std::string_view file_name, std::string_view prelude,
                                          const std::vector<std::pair<std::string, std::string>>& defines) {
  return with_tree(text, file_name, prelude, defines,
                   [](const std::vector<Node>& nodes, const Tokens&, const ParsedBuffer& buffer) {
                     // Each function's first return inside a branch: a barrier after it
                     // is not reached by the work-items that returned.
                     std::map<int, unsigned> early_return;
                     for (int id = 0; id < static_cast<int>(nodes.size()); ++id) {
                       const Node& n = nodes[static_cast<std::size_t>(id)];
                       if (n.in_main && n.kind == CXCursor_ReturnStmt && in_branch(nodes, id)) {
                         const int f = function_of(nodes, id);
                         if (!early_return.count(f) || n.begin < early_return[f]) early_return[f] = n.begin;
                       }
                     }
                     std::vector<long> lines;
                     for (int id = 0; id < static_cast<int>(nodes.size()); ++id) {
                       const Node& n = nodes[static_cast<std::size_t>(id)];
                       if (!n.in_main || n.kind != CXCursor_CallExpr ||
                           (n.spelling != "barrier" && n.spelling != "work_group_barrier"))
                         continue;
                       const auto returned = early_return.find(function_of(nodes, id));
                       if (in_branch(nodes, id) || (returned != early_return.end() && returned->second < n.begin))
                         lines.push_back(buffer.line_of(n.begin));
                     }
                     std::sort(lines.begin(), lines.end());
                     return lines;
                   });
}

std::string instrument_opencl(std::string_view text, std::string_view file_name, std::string_view prelude,
                              const std::vector<std::pair<std::string, std::string>>& defines) {
  return with_tree(text, file_name, prelude, defines,
                   [&](const std::vector<Node>& nodes, const Tokens& tokens, const ParsedBuffer& buffer) {
                     return instrumented(nodes, tokens, buffer, file_name);
                   });
}

namespace {

std::string instrumented(const std::vector<Node>& nodes, const Tokens& tokens, const ParsedBuffer& buffer,
                         std::string_view file_name) {
  HookEdits hooks(nodes, tokens);
  std::vector<Edit> edits = hooks.edits();
  std::string refused;
  for (const HookEdits::Untraced& u : hooks.untraced())
    refused += std::string(file_name) + ":" + std::to_string(buffer.line_of(u.at)) + ": error: " + u.name +
               " is not traced: ThreadMap records element loads and stores, vloadN and vstoreN, atomics and "
               "barriers; write the copy as element accesses to trace this kernel\n";
  if (!refused.empty()) throw CompileError(refused);
  return with_edits(buffer, std::move(edits));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> opencl_defines(const ProgramKey& key, bool subgroup_shuffle) {
  std::vector<std::pair<std::string, std::string>> defines{{"ELEM", std::string(element_name(key.type))}};
  if (key.type == ElementType::Double) defines.emplace_back("THREADMAP_DOUBLE", "1");
  if (subgroup_shuffle) defines.emplace_back("THREADMAP_SUBGROUP_SHUFFLE", "1");
  for (const auto& [name, value] : key.defines) defines.emplace_back(name, std::to_string(value));
  return defines;
}

std::string opencl_trace_prelude() {
  return std::string(embedded_source("trace_format.h")) + "\n" + std::string(embedded_source("common.clh"));
}

}  // namespace threadmap
