#pragma once
// Host work that scales with the matrix (filling inputs, checking outputs)
// split over the machine's cores, so a slider move on a large matrix does not
// wait on one core. Small ranges run inline.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace threadmap {

inline std::uint64_t parallel_cores() { return std::max(1u, std::min(16u, std::thread::hardware_concurrency())); }

// How many parts `count` items are split into: one per core, none smaller
// than `min_part` items (at least one part).
inline std::uint64_t parallel_parts(std::uint64_t count, std::uint64_t min_part = std::uint64_t{1} << 16) {
  return std::min(parallel_cores(), std::max<std::uint64_t>(1, count / min_part));
}

// Calls body(begin, end) over [0, count) in contiguous chunks, one per core.
template <class Body>
void parallel_for(std::uint64_t count, Body body, std::uint64_t min_chunk = std::uint64_t{1} << 18) {
  const std::uint64_t chunks = std::min(parallel_cores(), std::max<std::uint64_t>(1, count / min_chunk));
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

// Calls body(worker, i) for every i in [0, count), `workers` threads taking
// the next i as each finishes one: for items of uneven cost. `worker` is
// in [0, workers), so each thread can keep scratch of its own.
template <class Body>
void parallel_each(std::uint64_t count, std::uint64_t workers, Body body) {
  workers = std::max<std::uint64_t>(1, std::min(workers, count));
  std::atomic<std::uint64_t> next{0};
  auto work = [&](std::uint64_t worker) {
    for (std::uint64_t i = next++; i < count; i = next++) body(worker, i);
  };
  std::vector<std::thread> threads;
  for (std::uint64_t k = 1; k < workers; ++k) threads.emplace_back(work, k);
  work(0);
  for (std::thread& t : threads) t.join();
}

}  // namespace threadmap
