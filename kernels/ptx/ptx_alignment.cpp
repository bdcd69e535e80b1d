#include "kernels/ptx/ptx_alignment.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

namespace threadmap::cuda::ptx {

namespace {

struct Definition {
  std::string destination;
  std::string_view opcode;
  std::vector<std::string_view> sources;
};

bool has_word(const std::vector<std::string_view>& words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace

int zero_bits_of(long long value) {
  if (value == 0) return KnownAlignment::kCap;
  int bits = 0;
  while (bits < KnownAlignment::kCap && ((value >> bits) & 1) == 0) ++bits;
  return bits;
}

KnownAlignment::KnownAlignment(const Module& module, const Function& function,
                               std::map<std::string, int, std::less<>> symbols)
    : symbols_(std::move(symbols)) {
  std::vector<Definition> definitions;
  for (std::size_t i = function.open + 1; i < function.close; ++i) {
    const Statement& s = module.statements[i];
    if (s.kind != StatementKind::Instruction) continue;
    const Instruction in = parse_instruction(s.text);
    const std::vector<std::string_view> operands = split_operands(in.operands);
    if (operands.empty()) continue;
    const std::string_view first = operands.front();
    const std::string_view op = opcode_words(in.opcode).front();
    // Instructions whose first operand is not a destination.
    if (op == "st" || op == "red" || op == "bar" || op == "barrier" || op == "bra" || op == "call" || op == "ret" ||
        op == "exit" || first.starts_with('['))
      continue;
    if (first.starts_with('{')) {
      // A vector destination (ld.v4, mov.b64 {lo, hi}): nothing known.
      std::string_view list = first.substr(1, first.size() >= 2 ? first.size() - 2 : 0);
      for (std::string_view r : split_operands(list)) definitions.push_back({std::string(r), {}, {}});
      continue;
    }
    // setp's "%p1|%p2" and other predicate pairs carry no address.
    if (first.find('|') != std::string_view::npos) continue;
    definitions.push_back({std::string(first), in.opcode, {operands.begin() + 1, operands.end()}});
  }
  for (const Definition& d : definitions) registers_[d.destination] = kCap;
  // Each round can only lower counts, from at most kCap: it ends.
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::string, int, std::less<>> next;
    for (const Definition& d : definitions) {
      const int value = d.opcode.empty() ? 0 : evaluate(d.opcode, d.sources);
      auto [at, inserted] = next.emplace(d.destination, value);
      if (!inserted) at->second = std::min(at->second, value);
    }
    for (auto& [name, bits] : registers_) {
      const int value = next[name];
      if (value < bits) {
        bits = value;
        changed = true;
      }
    }
  }
}

int KnownAlignment::zero_bits(std::string_view operand) const {
  operand = trim(operand);
  if (const auto r = registers_.find(operand); r != registers_.end()) return r->second;
  if (const auto s = symbols_.find(operand); s != symbols_.end()) return s->second;
  if (const auto value = parse_immediate(operand)) return zero_bits_of(*value);
  return 0;
}

int KnownAlignment::evaluate(std::string_view opcode, const std::vector<std::string_view>& sources) const {
  const std::vector<std::string_view> words = opcode_words(opcode);
  const std::string_view op = words.front();
  auto source = [&](std::size_t i) { return i < sources.size() ? zero_bits(sources[i]) : 0; };
  auto capped = [](int bits) { return std::min(bits, kCap); };
  for (std::string_view floating : {"f16", "f32", "f64", "bf16", "f16x2", "rn", "rz", "rm", "rp"})
    if (has_word(words, floating)) return 0;
  if (op == "mov" || op == "cvta" || op == "cvt" || op == "neg" || op == "abs")
    return sources.empty() ? 0 : source(sources.size() - 1);
  if (op == "add" || op == "sub" || op == "or" || op == "xor") return std::min(source(0), source(1));
  if (op == "and") return std::max(source(0), source(1));
  if (op == "selp") return std::min(source(0), source(1));
  if (op == "mul" && (has_word(words, "lo") || has_word(words, "wide"))) return capped(source(0) + source(1));
  if (op == "mad" && (has_word(words, "lo") || has_word(words, "wide")))
    return std::min(capped(source(0) + source(1)), source(2));
  if (op == "shl" && sources.size() == 2) {
    const auto shift = parse_immediate(sources[1]);
    return shift && *shift >= 0 ? capped(source(0) + static_cast<int>(std::min(*shift, 64ll))) : source(0);
  }
  if (op == "shr" && sources.size() == 2) {
    const auto shift = parse_immediate(sources[1]);
    return shift && *shift >= 0 ? std::max(0, source(0) - static_cast<int>(std::min(*shift, 64ll))) : 0;
  }
  return 0;
}

}  // namespace threadmap::cuda::ptx
