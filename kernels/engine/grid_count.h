#pragma once
// The counters of a whole grid in bounded memory: the grid traced batch of
// blocks by batch (kernels/engine/record.h, record_trace_in_batches), each batch
// analysed while its records are held, the analyses merged (merge.h).
// What `threadmap-cli counters` prints.
#include <cstdint>

#include "kernels/engine/record.h"
#include "kernels/analysis/analysis.h"

namespace threadmap::analysis {

struct GridCount {
  BatchedRecording recording;  // status, verification, batches, where the time went
  // The launch as the batches describe it, with no records: every traced
  // block, the sites, and the first batch's schedule and clocks.
  Trace launch;
  Analysis analysis;           // the batches' merged: no requests or barrier passes kept
  std::uint64_t accesses = 0;  // access records, over every batch
  std::uint64_t barrier_arrivals = 0;
};

// `batch_records`: as record_trace_in_batches takes it (0: sized to memory).
GridCount count_in_batches(Device& device, const Variant& variant, const Params& params, const TraceOptions& options,
                           std::uint64_t batch_records = 0);

}  // namespace threadmap::analysis
