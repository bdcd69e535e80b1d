// Host work on the path from a slider move to a verified result: filling the
// seeded inputs and checking the output against the CPU reference.
#include <benchmark/benchmark.h>

#include "kernels/pack/catalog.h"

namespace {

threadmap::Workload workload(const char* id, std::int64_t n) {
  const threadmap::Variant* v = threadmap::find_variant(id);
  const std::string size = std::to_string(n);
  const threadmap::Params p = threadmap::make_params(v->params, {{"width", size}, {"height", size}}, v->id);
  return v->build(*v, p, 1);
}

void fill_inputs(benchmark::State& state) {
  threadmap::Workload w = workload("transpose.naive", state.range(0));
  for (auto _ : state) {
    threadmap::materialize(w.buffers[0]);
    benchmark::DoNotOptimize(w.buffers[0].data.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(w.buffers[0].bytes()));
}
BENCHMARK(fill_inputs)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

void verify_transpose(benchmark::State& state) {
  threadmap::Workload w = workload("transpose.naive", state.range(0));
  for (auto& b : w.buffers) threadmap::materialize(b);
  // A correct output, as a verified run has: the transpose of the input.
  const std::int64_t n = state.range(0);
  const auto* in = reinterpret_cast<const std::int32_t*>(w.buffers[0].data.data());
  auto* out = reinterpret_cast<std::int32_t*>(w.buffers[1].data.data());
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t c = 0; c < n; ++c) out[c * n + r] = in[r * n + c];
  for (auto _ : state) benchmark::DoNotOptimize(w.verify(w.buffers).mismatches);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(w.ideal_bytes));
}
BENCHMARK(verify_transpose)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
