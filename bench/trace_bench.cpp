// Traces: how fast the analysis eats access records (target: at least 50
// million per second per core), and what recording a few blocks of a
// 4096 x 4096 transpose costs end to end on the device (target on the H100:
// under 50 ms). The analysed traces are real: recorded on the first device
// THREADMAP_BENCH_DEVICE names (default "auto": CUDA if present, else OpenCL).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "kernels/pack/catalog.h"
#include "kernels/engine/devices.h"
#include "kernels/engine/record.h"
#include "kernels/analysis/analysis.h"

namespace {

using namespace threadmap;

std::string device_spec() {
  const char* spec = std::getenv("THREADMAP_BENCH_DEVICE");
  return spec ? spec : "auto";
}

Device& device() {
  static std::unique_ptr<Device> d = open_device(device_spec());
  return *d;
}

Params params_for(const Variant& v, std::vector<std::pair<std::string, std::string>> sets) {
  return make_params(v.params, sets, v.id);
}

// Whole-grid traces of 1024 x 1024 int transposes, recorded once.
const Trace& whole_grid(const std::string& id) {
  static std::map<std::string, Trace> traces;
  auto it = traces.find(id);
  if (it == traces.end()) {
    const Variant& v = *find_variant(id);
    TraceOptions o;
    o.all_blocks = true;
    Recording r = record_trace(device(), v, params_for(v, {{"width", "1024"}, {"height", "1024"}, {"tile", "32"}}), o);
    if (r.status != RunStatus::Ok) throw std::runtime_error(r.error);
    it = traces.emplace(id, std::move(r.trace)).first;
  }
  return it->second;
}

void analyse(benchmark::State& state, const std::string& id) {
  const Trace& t = whole_grid(id);
  const analysis::DeviceModel model = analysis::model_for(t);
  for (auto _ : state) {
    analysis::Analysis a = analysis::analyze(t, model);
    benchmark::DoNotOptimize(a.totals.accesses);
  }
  state.counters["records_per_second"] =
      benchmark::Counter(static_cast<double>(t.accesses.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records"] = static_cast<double>(t.accesses.size());
}
BENCHMARK_CAPTURE(analyse, naive, std::string("transpose.naive"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyse, shared, std::string("transpose.shared"))->Unit(benchmark::kMillisecond);

// End to end: buffers, the counting run, the traced run, read back, decode,
// verification, for the default blocks of a 4096 x 4096 int transpose.
void record_few_blocks(benchmark::State& state) {
  const Variant& v = *find_variant("transpose.shared");
  const Params p = params_for(v, {{"width", "4096"}, {"height", "4096"}, {"tile", "16"}});
  record_trace(device(), v, p, {});  // warm: programs built, context up
  std::map<std::string, double> phases;
  for (auto _ : state) {
    Recording r = record_trace(device(), v, p, {});
    if (r.status != RunStatus::Ok) state.SkipWithError(r.error.c_str());
    state.SetIterationTime(r.record_ms / 1000.0);
    for (const auto& [name, ms] : r.phases_ms) phases[name] += ms;
  }
  for (const auto& [name, ms] : phases)  // mean ms of each phase
    state.counters[name] = ms / static_cast<double>(state.iterations());
  state.SetLabel(device().info().name);
}
BENCHMARK(record_few_blocks)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);

}  // namespace

BENCHMARK_MAIN();
