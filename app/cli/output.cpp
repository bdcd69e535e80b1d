#include "app/cli/output.h"

namespace threadmap::cli {

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace threadmap::cli
