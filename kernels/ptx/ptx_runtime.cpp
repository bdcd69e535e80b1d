#include "kernels/ptx/ptx_runtime.h"

#include <stdexcept>

namespace threadmap::cuda::ptx {

namespace {

// What the glue passes to each runtime function, checked against the
// runtime's PTX so that a change on one side cannot go unnoticed.
struct RuntimeSignature {
  std::string_view name;
  std::string_view returns;  // ".b32", or empty
  std::vector<std::string_view> parameters;
};
const std::vector<RuntimeSignature>& runtime_signatures() {
  static const std::vector<RuntimeSignature> signatures{
      {"threadmap_block_id", ".b32", {}},
      {"threadmap_thread_id", ".b32", {}},
      {"threadmap_begin", ".b32", {".b64", ".b32", ".b32"}},
      {"threadmap_end", "", {".b64", ".b32", ".b32"}},
      {"threadmap_access", ".b32", {".b64", ".b32", ".b32", ".b32", ".b32", ".b32", ".b64", ".b32", ".b32", ".b32"}},
      {"threadmap_arrive", ".b32", {".b64", ".b32", ".b32", ".b32", ".b32"}},
      {"threadmap_release", "", {".b64", ".b32", ".b32"}},
  };
  return signatures;
}
const RuntimeSignature& signature(std::string_view name) {
  for (const RuntimeSignature& s : runtime_signatures())
    if (s.name == name) return s;
  throw std::logic_error("no runtime function " + std::string(name));
}

std::string describe(const std::vector<std::string_view>& types) {
  std::string s = "(";
  for (std::size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + std::string(types[i]);
  return s + ")";
}

}  // namespace

std::string runtime_call(std::string_view what, std::string_view guard, std::string_view function,
                         const std::vector<std::string>& arguments, std::string_view result,
                         const std::vector<std::string>& prelude) {
  const RuntimeSignature& s = signature(function);
  std::string g = guard.empty() ? std::string() : std::string(guard) + " ";
  std::string out = "\t{ // threadmap: " + std::string(what) + "\n";
  for (const std::string& line : prelude) out += "\t" + line + "\n";
  std::string list;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string name = "threadmap_arg" + std::to_string(i);
    const std::string type(s.parameters[i]);
    out += "\t.param " + type + " " + name + ";\n";
    out += "\tst.param" + type + " \t[" + name + "], " + arguments[i] + ";\n";
    list += (i ? ", " : "") + name;
  }
  if (!s.returns.empty()) {
    out += "\t.param " + std::string(s.returns) + " threadmap_result;\n";
    out += "\t" + g + "call (threadmap_result), " + std::string(function) + ", (" + list + ");\n";
    // Read unguarded (ptxas does not predicate a read of a call's result):
    // under a false guard the value is stale, and the glue uses it only
    // under the same guard.
    out += "\tld.param" + std::string(s.returns) + " \t" + std::string(result) + ", [threadmap_result];\n";
  } else {
    out += "\t" + g + "call " + std::string(function) + ", (" + list + ");\n";
  }
  return out + "\t}\n";
}

Runtime read_runtime(std::string_view runtime_ptx) {
  Module m = [&] {
    try {
      return parse_module(runtime_ptx);
    } catch (const PtxError& e) {
      throw PtxError(std::string("the trace runtime's PTX: ") + e.what());
    }
  }();
  for (const RuntimeSignature& expected : runtime_signatures()) {
    const Function* f = m.find_function(expected.name);
    if (!f || f->entry)
      throw PtxError("the trace runtime's PTX has no function " + std::string(expected.name) +
                     ": was it compiled from trace_runtime.cuh with -rdc=true?");
    std::vector<std::string_view> types;
    for (const Parameter& p : f->parameters) types.push_back(p.type);
    const std::string_view returns = f->returns.empty() ? std::string_view() : f->returns[0].type;
    if (types != expected.parameters || returns != expected.returns || f->returns.size() > 1)
      throw PtxError("the trace runtime's " + std::string(expected.name) + " takes " + describe(types) +
                     (returns.empty() ? "" : " -> " + std::string(returns)) + "; the instrumenter passes " +
                     describe(expected.parameters) +
                     (expected.returns.empty() ? "" : " -> " + std::string(expected.returns)));
  }
  Runtime r{{}, m.version, m.target};
  for (const Statement& s : m.statements) {
    if (s.kind != StatementKind::Directive) continue;
    const std::string_view word = directive_word(s.text);
    if (word == ".extern" || word == ".global" || word == ".shared" || word == ".const")
      throw PtxError("the trace runtime's PTX declares `" + std::string(trim(s.text)) +
                     "`; only self-contained functions can be merged into a kernel's module");
  }
  // Each function whole, as NVRTC wrote it, less its line directives (their
  // file numbers are the runtime's, not the kernel module's) and exported
  // names (the functions are the module's own).
  for (const Function& f : m.functions) {
    if (f.entry) continue;
    std::string header(m.statements[f.header].text);
    for (std::string_view linkage : {".visible ", ".weak "})
      if (header.starts_with(linkage)) header.erase(0, linkage.size());
    r.text += header + "\n";
    std::size_t copied = m.statements[f.open].begin;
    for (std::size_t i = f.open; i <= f.close; ++i) {
      const Statement& s = m.statements[i];
      if (s.kind == StatementKind::Directive && directive_word(s.text) == ".loc") {
        std::size_t line_start = s.begin;
        while (line_start > copied && (runtime_ptx[line_start - 1] == ' ' || runtime_ptx[line_start - 1] == '\t'))
          --line_start;
        r.text += runtime_ptx.substr(copied, line_start - copied);
        copied = s.end;
        while (copied < runtime_ptx.size() && runtime_ptx[copied] != '\n') ++copied;
        if (copied < runtime_ptx.size()) ++copied;
      }
    }
    r.text += runtime_ptx.substr(copied, m.statements[f.close].end - copied);
    r.text += "\n\n";
  }
  return r;
}

}  // namespace threadmap::cuda::ptx
