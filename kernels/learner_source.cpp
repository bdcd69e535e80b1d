#include "kernels/learner_source.h"

#include "kernels/error.h"
#include "kernels/sources.h"

namespace threadmap {

std::string learner_source(std::string_view file_name) {
  const std::string_view text = embedded_source(file_name);
  if (text.empty() || !(file_name.ends_with(".cl") || file_name.ends_with(".cu")))
    throw InvalidRequest("there is no kernel source named " + std::string(file_name));
  return std::string(text);
}

}  // namespace threadmap
