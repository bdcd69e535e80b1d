#pragma once
// Host work that scales with the matrix (filling inputs, checking outputs)
// split over the machine's cores, so a slider move on a large matrix does not
// wait on one core. Small ranges run inline.
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace threadmap {

// Calls body(begin, end) over [0, count) in contiguous chunks, one per core.
template <class Body>
void parallel_for(std::uint64_t count, Body body, std::uint64_t min_chunk = std::uint64_t{1} << 20) {
  const std::uint64_t cores = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const std::uint64_t chunks = std::min(cores, std::max<std::uint64_t>(1, count / min_chunk));
  if (chunks <= 1) {
    body(std::uint64_t{0}, count);
    return;
  }
  std::vector<std::thread> workers;
  const std::uint64_t step = (count + chunks - 1) / chunks;
  for (std::uint64_t begin = step; begin < count; begin += step)
    workers.emplace_back([=] { body(begin, std::min(count, begin + step)); });
  body(0, std::min(count, step));
  for (std::thread& w : workers) w.join();
}

}  // namespace threadmap
