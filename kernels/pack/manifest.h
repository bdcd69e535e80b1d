#pragma once
// A pack: a folder with a pack.toml manifest and the kernel texts it names.
// load_manifest() reads the manifest (toml++) into the typed PackManifest
// below and checks it whole: every name an expression uses, every default
// against its range, every file named, every id unique. A mistake is one
// PackError whose message starts "pack.toml:LINE:COL: " (docs/packs.md has
// the schema and a tutorial).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/dialect.h"
#include "kernels/core/element_type.h"
#include "kernels/core/error.h"
#include "kernels/pack/expression.h"
#include "kernels/core/params.h"

namespace threadmap::pack {

// A manifest that cannot be used; what() is "pack.toml:LINE:COL: message"
// (the file as the caller named it).
class PackError : public InvalidRequest {
 public:
  using InvalidRequest::InvalidRequest;
};

// Where in pack.toml a value was written (1-based).
struct Place {
  int line = 0;
  int column = 0;
};

// An expression with the place of its text, so a failure while evaluating it
// at run time names the line too.
struct PlacedExpression {
  Expression expression;
  Place place;
  std::string key;  // "buffer 'x' count": what it computes, for messages
};

enum class Fill { Zeros, Iota, Random, Constant };

struct BufferSpec {
  std::string name;
  bool output = false;              // poisoned before the run, read back, verified
  bool both = false;                // role = "both": an output that starts from its fill (a histogram's bins)
  std::optional<ElementType> type;  // fixed; else the `type` parameter's
  PlacedExpression count;           // elements
  Fill fill = Fill::Random;         // inputs only
  bool range_given = false;         // else [-1, 1) for reals, [-2^20, 2^20) for integers
  double low = -1, high = 1;        // Random: [low, high) (integers: low..high-1)
  double value = 0;                 // Constant
  // For the views: elements per row of the matrix it holds ("width"); absent:
  // no matrix (drawn wrapped at 32 elements).
  std::optional<PlacedExpression> row;
};

// For the views: the 2-D shared array the kernels declare, tile[rows][cols],
// the first data_cols columns data and the rest padding ([family.tile]).
struct TileSpec {
  PlacedExpression rows;
  PlacedExpression cols;                      // padding included
  std::optional<PlacedExpression> data_cols;  // absent: cols (no padding)
  Place place;
};

// One kernel argument in signature order.
struct ArgumentSpec {
  enum class Kind { Buffer, Scalar, Local } kind = Kind::Buffer;
  std::string name;
  int buffer = -1;         // Buffer: index into FamilySpec::buffers
  PlacedExpression value;  // Scalar: its value (an int); Local: bytes
  Place place;
};

struct LaunchSpec {
  std::vector<PlacedExpression> grid;   // blocks per dimension, 1 to 3
  std::vector<PlacedExpression> block;  // threads per block, as many as grid
  Place place;
};

struct RequireSpec {
  PlacedExpression holds;  // nonzero: the parameters are fine
  std::string message;
};

// A family's lesson: a markdown file beside the manifest in the language it
// was written in, and its translations beside it (STEM.pt_BR.md, ...).
struct LessonSpec {
  std::string file;                          // relative to the pack's folder
  std::string language;                      // "en", "pt_BR" or "es": the file's
  std::map<std::string, std::string> texts;  // language code -> text, the original's included
  std::string section;                       // the heading its variants open at, unless they name their own
};

struct VariantSpec {
  std::string id;  // within the family: "naive" (the catalog's is family.naive)
  std::string title;
  std::string summary;
  std::string kernel;                                             // function name, the same in every dialect
  std::vector<std::pair<std::string, PlacedExpression>> defines;  // compile-time constants
  std::vector<LaunchSpec> launches;                               // empty: the family's
  bool reference = false;        // the family's reference: what the others are compared with
  bool known_wrong = false;      // pack check requires it to fail verification
  bool original = false;         // the lesson's own kernel, flaws included (not a corrected one)
  bool needs_subgroup_shuffle = false;  // needs = ["subgroup-shuffle"]: unavailable on devices without them
  // dialects = ["openmp"]: the family's files that hold its kernel; empty:
  // every file the family names.
  std::vector<Dialect> dialects;
  std::optional<TileSpec> tile;  // [family.variant.tile]: replaces the family's
  std::string section;           // the lesson's heading it opens at; empty: the family's
  // The built-in lessons only: the lesson it opens, when not the family's.
  std::optional<LessonSpec> lesson;
  // Its parameters, in order: the family's it names (all by default), with
  // its own definitions and defaults where it gives them.
  std::vector<ParamSpec> parameters;
  Place place;

  bool takes(std::string_view parameter) const;
  // A family's define or rule applies to the variant when it takes every
  // parameter the expression names.
  bool takes_all(const Expression& e) const;
};

struct CheckPoint {
  std::string name;
  std::vector<std::pair<std::string, std::string>> assignments;  // NAME=VALUE, as --set
  Place place;

  // The assignments of the parameters `params` has (a variant without a
  // parameter runs the point without it).
  std::vector<std::pair<std::string, std::string>> for_parameters(const std::vector<ParamSpec>& params) const;
};

// An exercise on one of the family's variants ([[family.exercise]]): the
// learner's kernel replaces the variant (its kernel name and signature), is
// graded against a goal in counts (the built-in exercises' form,
// kernels/analysis/exercises.h) and verified again at further sizes.
struct ExerciseSpec {
  struct File {
    std::string name;  // relative to the pack's folder
    std::string text;
  };
  struct Term {
    std::string metric;  // goal_metrics.h
    double at_most = 0;
    std::optional<double> at_least;
    std::string per;
    std::map<std::string, std::string> reason;  // by language; English required when any
  };
  struct Text {
    std::string title, task;
    std::vector<std::string> hints;
  };
  std::string id;       // unique among every exercise
  std::string variant;  // the family's variant id
  std::string section;  // the lesson's heading; empty: the variant's
  std::vector<std::pair<std::string, std::string>> sets;
  std::map<Dialect, File> starts, solutions;  // by dialect
  std::vector<Term> goal;
  std::vector<std::vector<std::pair<std::string, std::string>>> verify_at;
  std::map<std::string, Text> text;  // by language: en (required), pt_BR, es
  Place place;
};

struct FamilySpec {
  std::string id;    // the variants' ids start with it: "matadd.rows"
  std::string name;  // the family in the catalog, its charts and lists ("coalescing"); default: id
  std::string title;
  // The built-in lessons only: the workload compiled into ThreadMap that
  // makes this family's buffers, launches and CPU reference
  // (kernels/families); empty for a pack's family, which declares its own.
  std::string workload;
  std::optional<LessonSpec> lesson;
  struct KernelFile {
    std::string file;  // path relative to the pack folder
    std::string text;  // its contents, read when the manifest is loaded
  };
  std::map<Dialect, KernelFile> kernels;  // by dialect: the files it names
  std::vector<ParamSpec> parameters;
  // Compile-time constants of every variant (one file is one program: its
  // every kernel sees them); a variant's own come after and win.
  std::vector<std::pair<std::string, PlacedExpression>> defines;
  std::vector<BufferSpec> buffers;
  std::vector<ArgumentSpec> arguments;
  std::vector<LaunchSpec> launches;
  std::optional<PlacedExpression> ideal_bytes;  // absent: every buffer once
  std::vector<RequireSpec> requires_;
  double atol = 0, rtol = 0;                        // float buffers: |actual - expected| <= atol + rtol * |expected|
  std::optional<PlacedExpression> tolerance_scale;  // multiplies atol and rtol
  std::optional<TileSpec> tile;                     // [family.tile]: every variant's unless it gives its own
  std::vector<VariantSpec> variants;
  std::vector<CheckPoint> checks;
  std::vector<ExerciseSpec> exercises;
  Place place;

  const VariantSpec* reference() const;
  // The lesson a variant opens (its own, built in, else the family's) and
  // the section there (its own, else the lesson's; empty: the top).
  const std::optional<LessonSpec>& lesson_of(const VariantSpec& v) const;
  std::string section_of(const VariantSpec& v) const;
};

struct PackManifest {
  std::string name;
  std::string title;
  std::string folder;         // as given to load_pack
  std::string manifest_path;  // folder/pack.toml
  bool built_in = false;      // the built-in lessons' manifest (Origin::BuiltIn)
  std::vector<FamilySpec> families;
};

// Reads a kernel file named in the manifest (a path relative to the pack's
// folder); nullopt when there is none or it cannot be read.
using ReadKernelFile = std::function<std::optional<std::string>(const std::string& relative)>;

// Where a manifest comes from. A pack's folder (the default) declares every
// family's buffers, arguments and launches and brings its lessons. The
// built-in lessons' manifest (kernels/lessons/catalog.toml, compiled in)
// may instead name a C++ `workload` per family, and its lessons are the
// program's resources (resources/lessons), named but not read here.
enum class Origin { PackFolder, BuiltIn };

// Reads `text` as the manifest of the pack in `folder`, its kernel files
// through read_file. `file_name` is what messages call the manifest.
PackManifest parse_manifest(std::string_view text, const std::string& file_name, const std::string& folder,
                            const ReadKernelFile& read_file, Origin origin = Origin::PackFolder);
// Reads FOLDER/pack.toml. Throws PackError.
PackManifest load_pack(const std::string& folder);

// What a pack's folder held when it was read: the manifest's text and each
// kernel file it names, by the name it gives (what a worker on another
// machine is sent: parse_manifest of these makes the same pack).
struct PackFiles {
  std::string manifest;
  std::map<std::string, std::string> kernels;
};
// load_pack, keeping the texts it read in `files`.
PackManifest load_pack(const std::string& folder, PackFiles& files);

// Kernel files larger than this are refused (a teaching kernel is a page).
inline constexpr std::size_t kMaxKernelFileBytes = 1 << 20;
inline constexpr std::size_t kMaxManifestBytes = 1 << 20;
// All the files one manifest names (kernels, lessons, exercises), together.
inline constexpr std::size_t kMaxPackBytes = 16 << 20;
// A launch's grid and block sizes that name no parameter are checked as the
// manifest is read: blocks in a grid dimension (the largest any device
// ThreadMap runs on takes), threads in a block dimension.
inline constexpr std::int64_t kMaxConstantGrid = (std::int64_t{1} << 31) - 1;
inline constexpr std::int64_t kMaxConstantBlock = 4096;
// Exercises in one family.
inline constexpr std::size_t kMaxExercises = 64;

// A file's contents (input_file.h: never blocking, a regular file inside
// `within`), or nullopt when there is none. Throws InvalidRequest, naming
// the file, for one over `limit` bytes, a FIFO, a folder, a link out of
// `within`, a file that cannot be read.
std::optional<std::string> read_small_file(const std::string& path, std::size_t limit, const std::string& within);

}  // namespace threadmap::pack
