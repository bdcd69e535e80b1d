#include "kernels/learner_source.h"

#include <array>
#include <sstream>
#include <vector>

#include "kernels/error.h"
#include "kernels/sources.h"

namespace threadmap {

namespace {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// LDG(expr) -> expr, for the four access hooks, nested ones included.
std::string unwrap_access_hooks(std::string line) {
  static constexpr std::array<std::string_view, 4> hooks{"LDG(", "STG(", "LDS(", "STS("};
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view hook : hooks) {
      for (std::size_t at = line.find(hook); at != std::string::npos; at = line.find(hook, at)) {
        if (at > 0 && is_identifier_char(line[at - 1])) {
          at += hook.size();
          continue;
        }
        int depth = 1;
        std::size_t close = at + hook.size();
        for (; close < line.size() && depth > 0; ++close) {
          if (line[close] == '(') ++depth;
          if (line[close] == ')') --depth;
        }
        if (depth != 0) break;  // the hook's argument goes on past this line: leave it
        --close;                 // the matching ')'
        line = line.substr(0, at) + line.substr(at + hook.size(), close - at - hook.size()) +
               line.substr(close + 1);
        changed = true;
      }
    }
  }
  return line;
}

void erase_all(std::string& line, std::string_view token) {
  for (std::size_t at = line.find(token); at != std::string::npos; at = line.find(token, at))
    line.erase(at, token.size());
}

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::string strip_trace_hooks(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::string out;
  // A run of // lines; its paragraphs (split at bare "//" lines) that speak
  // of the hooks are dropped, the rest kept.
  std::vector<std::string> comment;
  const auto flush_comment = [&] {
    std::vector<std::vector<std::string>> paragraphs(1);
    for (const std::string& c : comment) {
      if (trimmed(c) == "//") paragraphs.emplace_back();
      paragraphs.back().push_back(c);
    }
    std::vector<std::string> kept;
    for (const auto& p : paragraphs) {
      bool about_hooks = false;
      for (const std::string& c : p) about_hooks = about_hooks || c.find("hook") != std::string::npos;
      if (!about_hooks) kept.insert(kept.end(), p.begin(), p.end());
    }
    while (!kept.empty() && trimmed(kept.back()) == "//") kept.pop_back();
    if (!kept.empty() && trimmed(kept.front()) == "//") kept.erase(kept.begin());
    for (const std::string& c : kept) out += c + "\n";
    comment.clear();
  };
  for (std::string line : lines) {
    const std::string t = trimmed(line);
    if (t.starts_with("//")) {
      comment.push_back(line);
      continue;
    }
    flush_comment();
    // The hooks' own lines: TM_BEGIN(); TM_END(); TM_ARRIVE(); TM_RELEASE();
    // TM_SHARED_ARRAY(tile); and the include that defines them.
    if (t.starts_with("TM_") && t.ends_with(");")) continue;
    if (t.starts_with("#include") && t.find("trace.cuh") != std::string::npos) continue;
    for (std::string_view token : {" TM_TRACE_PARAM", "TM_TRACE_PARAM", " TM_CONTEXT_PARAM",
                                   " TM_CONTEXT"})
      erase_all(line, token);
    out += unwrap_access_hooks(line) + "\n";
  }
  flush_comment();
  return out;
}

std::string learner_source(std::string_view file_name) {
  const std::string_view text = embedded_source(file_name);
  if (text.empty())
    throw InvalidRequest("there is no kernel source named " + std::string(file_name));
  return strip_trace_hooks(text);
}

}  // namespace threadmap
