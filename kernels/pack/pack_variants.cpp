#include "kernels/pack/pack_variants.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>

#include "kernels/core/error.h"
#include "kernels/families/common.h"
#include "kernels/families/families.h"
#include "kernels/core/parallel.h"
#include "kernels/core/sources.h"

namespace threadmap::pack {

namespace {

// Largest buffer a pack may ask for, in elements (the device's limits are
// checked later; this keeps the host's arithmetic far from overflow).
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

// The reference's outputs of the last inputs a family's workload was built
// for (parameters and seed decide them): a traced run of the same inputs,
// which runs no reference itself, is verified against what the reference
// wrote in the timed run before it, or in run_reference (runner.h).
struct ReferenceCache {
  std::mutex mutex;
  std::string key;
  std::shared_ptr<std::vector<HostBuffer>> outputs;
};

struct Context {
  std::shared_ptr<const PackManifest> manifest;
  std::shared_ptr<ReferenceCache> cache;
  const FamilySpec* family = nullptr;
  const VariantSpec* variant = nullptr;
};

std::string where(const Context& c, const PlacedExpression& e) {
  return c.manifest->manifest_path + ":" + std::to_string(e.place.line) + ":" + std::to_string(e.place.column);
}

std::int64_t evaluate(const Context& c, const Variant& v, const PlacedExpression& e, const Params& p) {
  try {
    return e.expression.evaluate(p.values());
  } catch (const ExpressionError& error) {
    std::string values;
    for (const std::string& name : e.expression.names())
      if (p.has(name)) values += (values.empty() ? "" : ", ") + name + "=" + std::to_string(p.get(name));
    throw InvalidRequest(v.id + ": " + e.key + " = " + e.expression.text() + ": " + error.what() +
                         (values.empty() ? "" : " (" + values + ")") + " [" + where(c, e) + "]");
  }
}

std::int64_t evaluate_in(const Context& c, const Variant& v, const PlacedExpression& e, const Params& p,
                         std::int64_t low, std::int64_t high) {
  const std::int64_t value = evaluate(c, v, e, p);
  if (value < low || value > high)
    throw InvalidRequest(v.id + ": " + e.key + " = " + e.expression.text() + " is " + std::to_string(value) +
                         ", outside " + std::to_string(low) + " to " + std::to_string(high) + " [" + where(c, e) + "]");
  return value;
}

void fill_buffer(HostBuffer& b, const BufferSpec& spec) {
  families::with_type(b.type, [&](auto tag) {
    using T = decltype(tag);
    std::span<T> out = families::view<T>(b);
    const bool integer = std::is_integral_v<T>;
    const double low = spec.range_given ? spec.low : integer ? -(1 << 20) : -1.0;
    const double high = spec.range_given ? spec.high : integer ? (1 << 20) : 1.0;
    const std::uint64_t seed = b.seed;
    parallel_for(out.size(), [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        switch (spec.fill) {
          case Fill::Zeros: out[i] = T{}; break;
          case Fill::Iota: out[i] = static_cast<T>(static_cast<std::int64_t>(i)); break;
          case Fill::Constant: out[i] = static_cast<T>(spec.value); break;
          case Fill::Random: {
            // splitmix64 of (seed, i): each element on its own, so the fill
            // splits over the cores and does not depend on their number.
            std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            if constexpr (std::is_integral_v<T>) {
              const std::int64_t lo = static_cast<std::int64_t>(std::ceil(low));
              const std::int64_t hi = static_cast<std::int64_t>(std::ceil(high));  // exclusive
              const std::uint64_t span = static_cast<std::uint64_t>(std::max<std::int64_t>(hi - lo, 1));
              out[i] = static_cast<T>(std::clamp<std::int64_t>(lo + static_cast<std::int64_t>(z % span),
                                                               std::numeric_limits<T>::min(),
                                                               std::numeric_limits<T>::max()));
            } else {
              const double unit = static_cast<double>(z >> 11) * 0x1.0p-53;
              out[i] = static_cast<T>(low + (high - low) * unit);
            }
            break;
          }
        }
      }
    });
  });
}

// The tile a variant declares, each side within the views' limits.
SharedTile tile_of(const Context& c, const Variant& v, const TileSpec& spec, const Params& p) {
  const auto side = [&](const PlacedExpression& e, std::int64_t most) {
    return static_cast<std::uint32_t>(evaluate_in(c, v, e, p, 1, most));
  };
  SharedTile tile;
  tile.rows = side(spec.rows, kMaxTileSide);
  tile.cols = side(spec.cols, kMaxTileSide);
  tile.data_cols = spec.data_cols ? side(*spec.data_cols, tile.cols) : tile.cols;
  if (std::uint64_t{tile.rows} * tile.cols > kMaxTileElements)
    throw InvalidRequest(v.id + ": the tile is " + std::to_string(tile.rows) + " x " + std::to_string(tile.cols) +
                         " elements, over the limit of " + std::to_string(kMaxTileElements) + " [" +
                         where(c, spec.rows) + "]");
  return tile;
}

LaunchCmd make_launch(const Context& c, const Variant& v, const VariantSpec& spec, const LaunchSpec& l, const Params& p,
                      const std::vector<KernelArg>& args) {
  LaunchCmd launch;
  launch.program.source = "pack:" + c.manifest->name + "/" + c.family->id;
  launch.program.type = p.type();
  for (const auto* defines : {&c.family->defines, &spec.defines})
    for (const auto& define : *defines) {
      if (!spec.takes_all(define.second.expression)) continue;  // a family's define of parameters it lacks
      const std::string& name = define.first;
      const std::int64_t value = evaluate(c, v, define.second, p);
      auto& all = launch.program.defines;
      const auto same = std::find_if(all.begin(), all.end(), [&](const auto& d) { return d.first == name; });
      if (same != all.end()) same->second = value;
      else all.emplace_back(name, value);
    }
  // OpenCL's text by default; use_pack_text gives the device's dialect.
  if (const auto opencl = v.texts.find(Dialect::OpenCL); opencl != v.texts.end()) {
    launch.program.text = opencl->second.text;
    launch.program.text_name = opencl->second.file;
  }
  launch.kernel = spec.kernel;
  for (std::size_t d = 0; d < l.grid.size(); ++d) {
    launch.groups[d] = static_cast<std::size_t>(evaluate_in(c, v, l.grid[d], p, 1, std::int64_t{1} << 32));
    launch.group_size[d] = static_cast<std::size_t>(evaluate_in(c, v, l.block[d], p, 1, 1 << 16));
  }
  launch.args = args;
  return launch;
}

std::vector<LaunchCmd> launches_of(const Context& c, const Variant& v, const VariantSpec& spec, const Params& p,
                                   const std::vector<KernelArg>& args) {
  std::vector<LaunchCmd> out;
  for (const LaunchSpec& l : spec.launches.empty() ? c.family->launches : spec.launches)
    out.push_back(make_launch(c, v, spec, l, p, args));
  return out;
}

template <class T>
void compare(const HostBuffer& actual, const HostBuffer& expected, double atol, double rtol, Verification& result) {
  std::span<const T> a = families::view<T>(actual);
  std::span<const T> e = families::view<T>(expected);
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool same;
    if constexpr (std::is_integral_v<T>) {
      same = a[i] == e[i];
    } else {
      const double x = static_cast<double>(a[i]), y = static_cast<double>(e[i]);
      same = (std::isnan(x) && std::isnan(y)) || std::fabs(x - y) <= atol + rtol * std::fabs(y);
    }
    ++result.checked;
    if (same) continue;
    ++result.mismatches;
    if (result.first.size() < kMaxReportedMismatches)
      result.first.push_back({"buffer '" + actual.name + "' element " + std::to_string(i),
                              families::format_value(static_cast<double>(e[i])),
                              families::format_value(static_cast<double>(a[i]))});
  }
}

// The reference runs with the variant's values of the parameters both take,
// and its own defaults for the others.
Params reference_params(const VariantSpec& reference, const Params& p) {
  Params out;
  for (const ParamSpec& spec : reference.parameters)
    out.set(spec.name, p.has(spec.name) ? p.get(spec.name) : spec.default_value);
  return out;
}

Workload build(const Context& c, const Variant& v, const Params& p, std::uint64_t seed) {
  const FamilySpec& fam = *c.family;
  for (const RequireSpec& r : fam.requires_)
    if (c.variant->takes_all(r.holds.expression) && evaluate(c, v, r.holds, p) == 0) {
      std::string values;
      for (const std::string& name : r.holds.expression.names())
        values += (values.empty() ? "" : ", ") + name + "=" + std::to_string(p.get(name));
      throw InvalidRequest(v.id + ": " + r.message + " (" + r.holds.expression.text() +
                           (values.empty() ? "" : " with " + values) + ")");
    }

  Workload w;
  for (std::size_t i = 0; i < fam.buffers.size(); ++i) {
    const BufferSpec& spec = fam.buffers[i];
    HostBuffer b;
    b.name = spec.name;
    b.role = spec.output ? BufferRole::Output : BufferRole::Input;
    b.type = spec.type.value_or(p.type());
    b.elements = static_cast<std::uint64_t>(evaluate_in(c, v, spec.count, p, 1, kMaxElements));
    if (spec.row) b.row_elements = static_cast<std::uint64_t>(evaluate_in(c, v, *spec.row, p, 1, kMaxElements));
    b.seed = seed ^ (0x5DEECE66Dull * (i + 1));
    if (!spec.output || spec.both) b.fill = [spec](HostBuffer& buffer) { fill_buffer(buffer, spec); };
    w.working_set_bytes += b.bytes();
    w.buffers.push_back(std::move(b));
  }
  std::vector<KernelArg> args;
  for (const ArgumentSpec& a : fam.arguments) {
    switch (a.kind) {
      case ArgumentSpec::Kind::Buffer: args.push_back(BufferArg{a.buffer}); break;
      case ArgumentSpec::Kind::Scalar:
        args.push_back(static_cast<std::int32_t>(evaluate_in(c, v, a.value, p, std::numeric_limits<std::int32_t>::min(),
                                                             std::numeric_limits<std::int32_t>::max())));
        break;
      case ArgumentSpec::Kind::Local: {
        const auto bytes = static_cast<std::size_t>(evaluate_in(c, v, a.value, p, 1, std::int64_t{1} << 30));
        args.push_back(LocalArrayArg{bytes});
        w.dynamic_local_bytes += bytes;
        break;
      }
    }
  }
  w.launches = launches_of(c, v, *c.variant, p, args);
  if (const TileSpec* tile = c.variant->tile ? &*c.variant->tile : fam.tile ? &*fam.tile : nullptr)
    w.tile = tile_of(c, v, *tile, p);
  // The reference is compared with a second run of itself: a race or a
  // read of what it never wrote shows as a difference.
  w.reference.launches = launches_of(c, v, *fam.reference(), reference_params(*fam.reference(), p), args);
  {
    std::string key = std::to_string(seed);
    for (const auto& [name, value] : p.values()) key += "|" + name + "=" + std::to_string(value);
    std::lock_guard lock(c.cache->mutex);
    if (c.cache->key != key || !c.cache->outputs) {
      c.cache->key = key;
      c.cache->outputs = std::make_shared<std::vector<HostBuffer>>();
    }
    w.reference.outputs = c.cache->outputs;
  }
  w.ideal_bytes = fam.ideal_bytes ? static_cast<std::uint64_t>(evaluate_in(c, v, *fam.ideal_bytes, p, 0,
                                                                           std::numeric_limits<std::int64_t>::max()))
                                  : w.working_set_bytes;
  const double scale = fam.tolerance_scale ? static_cast<double>(evaluate(c, v, *fam.tolerance_scale, p)) : 1.0;
  const double atol = fam.atol * scale, rtol = fam.rtol * scale;
  const std::string reference_id = fam.id + "." + fam.reference()->id;
  const bool is_reference = c.variant->reference;
  w.verify = [outputs = w.reference.outputs, atol, rtol, reference_id,
              is_reference](const std::vector<HostBuffer>& buffers) {
    Verification result;
    std::ostringstream method;
    method << (is_reference ? "the reference compared with a second run of itself"
                            : "compared with the reference " + reference_id + " on the same device");
    method << ": integers exact, reals within " << atol << " + " << rtol << " x |expected|";
    result.method = method.str();
    if (outputs->size() != buffers.size()) {
      result.method = "not verified: the reference " + reference_id + " did not run on these inputs (run_reference)";
      return result;
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      if (buffers[i].role != BufferRole::Output) continue;
      families::with_type(buffers[i].type,
                          [&](auto tag) { compare<decltype(tag)>(buffers[i], (*outputs)[i], atol, rtol, result); });
    }
    result.verified = result.mismatches == 0 && result.checked > 0;
    return result;
  };
  return w;
}

}  // namespace

namespace {

// The lesson a variant opens. Only a pack's family's lesson brings texts
// (read with the pack); a built-in one is the program's resource.
LessonRef lesson_of(const FamilySpec& fam, const VariantSpec& spec,
                    const std::shared_ptr<const std::map<std::string, std::string>>& family_texts) {
  const std::optional<LessonSpec>& lesson = fam.lesson_of(spec);
  if (!lesson) return {};
  return {lesson->file, fam.section_of(spec), lesson->language, lesson->texts.empty() ? nullptr : family_texts};
}

}  // namespace

std::vector<Variant> pack_variants(const PackManifest& manifest) {
  auto shared = std::make_shared<const PackManifest>(manifest);
  std::vector<Variant> out;
  const std::filesystem::path folder(shared->folder);
  for (const FamilySpec& fam : shared->families) {
    auto cache = std::make_shared<ReferenceCache>();
    const auto lesson_texts =
        fam.lesson ? std::make_shared<const std::map<std::string, std::string>>(fam.lesson->texts) : nullptr;
    for (const VariantSpec& spec : fam.variants) {
      Variant v;
      v.id = fam.id + "." + spec.id;
      v.family = fam.name;
      v.title = spec.title;
      v.summary = spec.summary;
      v.kernel = spec.kernel;
      v.params = spec.parameters;
      v.lesson_original = spec.original;
      v.availability = spec.needs_subgroup_shuffle ? Availability::NeedsSubgroupShuffle : Availability::Always;
      v.lesson = lesson_of(fam, spec, lesson_texts);
      if (spec.dialects.empty())
        for (const auto& [dialect, kernel] : fam.kernels) v.dialects.push_back(dialect);
      else
        v.dialects = spec.dialects;
      if (!fam.workload.empty()) {  // built in: the embedded kernel files the workload runs, WORKLOAD.cl/.cu
        v.source = fam.workload;
        v.build = families::workload(fam.workload);
        out.push_back(std::move(v));
        continue;
      }
      v.source = "pack:" + shared->name + "/" + fam.id;
      v.pack = shared->name;
      for (const auto& [dialect, kernel] : fam.kernels) v.texts[dialect] = {(folder / kernel.file).string(), kernel.text};
      Context c{shared, cache, &fam, &spec};
      v.build = [c](const Variant& variant, const Params& p, std::uint64_t seed) { return build(c, variant, p, seed); };
      out.push_back(std::move(v));
    }
  }
  return out;
}

const PackManifest& built_in_manifest() {
  static const PackManifest manifest = parse_manifest(
      embedded_source("catalog.toml"), "catalog.toml", "",
      [](const std::string& file) -> std::optional<std::string> {
        const std::string_view text = embedded_source(file);
        if (text.empty()) return std::nullopt;
        return std::string(text);
      },
      Origin::BuiltIn);
  return manifest;
}

std::string bundled_packs_folder() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path installed = exe.parent_path().parent_path() / "share" / "threadmap" / "packs";
  if (fs::is_directory(installed, ec)) return installed.string();
  // A program of the build tree reads the source tree's; an installed one
  // never does (the machine it was built on may not be this one).
  const fs::path build_tree = fs::weakly_canonical(THREADMAP_BUILD_TREE, ec);
  const bool in_build_tree =
      !ec && std::mismatch(build_tree.begin(), build_tree.end(), exe.begin(), exe.end()).first == build_tree.end();
  if (in_build_tree && fs::is_directory(THREADMAP_SOURCE_PACKS, ec)) return THREADMAP_SOURCE_PACKS;
  return {};
}

std::string pack_folder(const std::string& folder_or_name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(folder_or_name, ec) || folder_or_name.find('/') != std::string::npos) return folder_or_name;
  const std::string bundled = bundled_packs_folder();
  const std::string looking = folder_or_name + ": no such folder here, nor a pack of that name among ThreadMap's own (";
  if (bundled.empty()) throw PackError(looking + "share/threadmap/packs is missing)");
  const fs::path named = fs::path(bundled) / folder_or_name;
  if (fs::is_regular_file(named / "pack.toml", ec)) return named.string();
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(bundled, ec))
    if (fs::is_regular_file(entry.path() / "pack.toml", ec)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string list;
  for (const std::string& n : names) list += n + ", ";
  throw PackError(looking + list + "in " + bundled + ")");
}

std::vector<PackManifest> add_packs(const std::vector<std::string>& folders) {
  std::vector<PackManifest> manifests;
  for (const std::string& folder : folders) {
    PackManifest m = load_pack(pack_folder(folder));
    for (const PackManifest& other : manifests)
      if (std::error_code ec; other.name == m.name && !std::filesystem::equivalent(other.folder, m.folder, ec))
        throw PackError(folder + ": a pack named '" + m.name + "' is given already, from " + other.folder +
                        "; give one of them another name in its pack.toml");
    add_variants(pack_variants(m));  // the same folder twice: its variants are in the catalog already
    manifests.push_back(std::move(m));
  }
  return manifests;
}

}  // namespace threadmap::pack
