// Without libFuzzer (g++ builds, CI): runs the fuzz target on each file given
// and on seeded mutations of it (bit flips, cuts, inserted bytes), so every
// test run exercises the target's parser on hostile input.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional, as with libFuzzer: the set-up a target needs before its first input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  std::mt19937_64 rng(20261122);
  std::size_t runs = 0;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    const std::vector<std::uint8_t> seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (seed.empty()) {
      std::cerr << "replay: cannot read " << argv[i] << '\n';
      return 1;
    }
    LLVMFuzzerTestOneInput(seed.data(), seed.size());
    for (int round = 0; round < 300; ++round) {
      std::vector<std::uint8_t> m = seed;
      switch (round % 3) {
        case 0:
          for (int k = 0; k < 1 + round % 8; ++k) m[rng() % m.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
          break;
        case 1: m.resize(rng() % m.size()); break;
        default: m.insert(m.begin() + static_cast<std::ptrdiff_t>(rng() % m.size()), static_cast<std::uint8_t>(rng()));
      }
      LLVMFuzzerTestOneInput(m.data(), m.size());
      ++runs;
    }
  }
  std::cout << "replay: " << runs << " mutated inputs, no crash\n";
  return 0;
}
