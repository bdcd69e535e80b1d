#pragma once
// A recorded run as the views see it: the session (device, parameters,
// timings, trace) and the analysis recomputed from its trace. Plain data; the
// GUI holds one per open recording and every view draws from it.
#include <memory>
#include <string>

#include "kernels/core/session.h"
#include "kernels/analysis/analysis.h"

namespace threadmap::analysis {

struct TraceDocument {
  Session session;
  Analysis analysis;   // from session.trace, with model_for(trace)
  std::string origin;  // the file it came from, or "live run on <device>"

  const Trace& trace() const { return *session.trace; }
};

// Analyses the session's trace; nullptr when the session holds no trace.
std::shared_ptr<const TraceDocument> make_document(Session session, std::string origin);

}  // namespace threadmap::analysis
