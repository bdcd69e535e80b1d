#include "kernels/analysis/document.h"

namespace threadmap::analysis {

std::shared_ptr<const TraceDocument> make_document(Session session, std::string origin) {
  if (!session.trace) return nullptr;
  auto doc = std::make_shared<TraceDocument>();
  doc->analysis = analyze(*session.trace, model_for(*session.trace));
  doc->session = std::move(session);
  doc->origin = std::move(origin);
  return doc;
}

}  // namespace threadmap::analysis
