#pragma once
// What the assembler can prove about the alignment of the addresses a kernel
// computes: for each register of one function, the number of low bits known
// to be zero (a known-bits analysis restricted to trailing zeros).
//
// Why it matters: ptxas, not NVVM, merges neighbouring scalar accesses into
// one wide access when it can prove the wide access aligned. In
// transpose_coalesced<int, 64, 16, 0> the PTX has 16 st.shared.u32 at one
// line; the machine code has 4 STS.128, because the tile's row is 256 bytes
// and each thread's strip starts at 16 * threadIdx.x:
//   %r65 = tile + 256 * %r4     tile at 0 -> 8 zero bits, 256 * x -> 8
//   %r66 = %r1 << 4             4 zero bits
//   %r67 = %r65 + %r66          min(8, 4) = 4 -> 16-byte aligned
//   st.shared.u32 [%r67], [%r67+4], [%r67+8], [%r67+12]  -> one STS.128
// With pad 1 the row is 260 bytes (2 zero bits) and nothing merges; with
// pad 2, 264 bytes (3 zero bits): pairs, STS.64.
//
// The rules are the ones integer arithmetic guarantees (a sum keeps the
// lesser count, a product adds them, a left shift by k adds k); a register
// defined more than once (a loop's induction variable) keeps the least over
// its definitions, found by iterating to a fixed point.
#include <map>
#include <string>
#include <string_view>

#include "kernels/ptx/ptx_parse.h"

namespace threadmap::cuda::ptx {

class KnownAlignment {
 public:
  // Counts of known zero bits are capped here: 16-byte accesses need 4.
  static constexpr int kCap = 16;

  // symbols: the known zero bits of each variable's address (a shared tile
  // placed at offset 0 has kCap).
  KnownAlignment(const Module& module, const Function& function, std::map<std::string, int, std::less<>> symbols);

  // Known zero bits of a register, an immediate or a variable's address; 0
  // for anything else (special registers, parameters, loaded values).
  int zero_bits(std::string_view operand) const;

 private:
  int evaluate(std::string_view opcode, const std::vector<std::string_view>& sources) const;

  std::map<std::string, int, std::less<>> symbols_;
  std::map<std::string, int, std::less<>> registers_;
};

// Known zero bits of an integer (kCap for 0).
int zero_bits_of(long long value);

}  // namespace threadmap::cuda::ptx
