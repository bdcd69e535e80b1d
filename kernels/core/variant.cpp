#include "kernels/core/variant.h"

#include <algorithm>

namespace threadmap {

const ParamSpec* Variant::param(std::string_view name) const {
  for (const ParamSpec& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

bool Variant::written_in(Dialect dialect) const {
  return dialects.empty() || std::find(dialects.begin(), dialects.end(), dialect) != dialects.end();
}

const Variant::KernelText* pack_text(const Variant& v, Dialect dialect) {
  if (v.pack.empty()) return nullptr;
  const auto t = v.texts.find(dialect);
  return t == v.texts.end() || t->second.text.empty() ? nullptr : &t->second;
}

}  // namespace threadmap
