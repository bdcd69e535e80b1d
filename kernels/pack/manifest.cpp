#include "kernels/pack/manifest.h"

#include "kernels/core/input_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <tuple>
#include <sstream>

#include "kernels/core/error.h"
#include "kernels/families/families.h"
#include "kernels/core/goal_metrics.h"

namespace threadmap::pack {

bool VariantSpec::takes(std::string_view parameter) const {
  return std::any_of(parameters.begin(), parameters.end(), [&](const ParamSpec& p) { return p.name == parameter; });
}

bool VariantSpec::takes_all(const Expression& e) const {
  const std::vector<std::string> names = e.names();
  return std::all_of(names.begin(), names.end(), [&](const std::string& n) { return takes(n); });
}

std::vector<std::pair<std::string, std::string>> CheckPoint::for_parameters(
    const std::vector<ParamSpec>& params) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& assignment : assignments)
    if (std::any_of(params.begin(), params.end(), [&](const ParamSpec& p) { return p.name == assignment.first; }))
      out.push_back(assignment);
  return out;
}

const std::optional<LessonSpec>& FamilySpec::lesson_of(const VariantSpec& v) const {
  return v.lesson ? v.lesson : lesson;
}

std::string FamilySpec::section_of(const VariantSpec& v) const {
  const std::optional<LessonSpec>& l = lesson_of(v);
  return !v.section.empty() || !l ? v.section : l->section;
}

const VariantSpec* FamilySpec::reference() const {
  for (const VariantSpec& v : variants)
    if (v.reference) return &v;
  return nullptr;
}

namespace {

Place place_of(const toml::node& node) {
  const toml::source_region& s = node.source();
  return {static_cast<int>(s.begin.line), static_cast<int>(s.begin.column)};
}

// Reads one manifest; every mistake is thrown as the first PackError.
class Reader {
 public:
  Reader(std::string file_name, std::string folder, ReadKernelFile read_file, Origin origin)
      : file_(std::move(file_name)), folder_(std::move(folder)), read_file_(std::move(read_file)), origin_(origin) {}

  // One line whatever the message quotes (toml++ quotes the character it
  // stopped at, which may be a newline): control characters are escaped.
  [[noreturn]] void fail(Place at, const std::string& message) const {
    std::string line;
    for (const char c : message) {
      if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
        line += c;
      } else {
        static const char* const kHex = "0123456789abcdef";
        line += c == '\n' ? std::string("\\n") : std::string("\\x") + kHex[(c >> 4) & 0xf] + kHex[c & 0xf];
      }
    }
    throw PackError(file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + line);
  }
  [[noreturn]] void fail(const toml::node& at, const std::string& message) const { fail(place_of(at), message); }

  PackManifest read(std::string_view text);

 private:
  std::string file_;
  std::string folder_;
  ReadKernelFile read_file_;
  Origin origin_;
  mutable std::map<std::string, std::string> read_;  // the files read so far, by relative name
  mutable std::size_t bytes_read_ = 0;

  // A table's keys, each taken at most once; what is left over is unknown.
  class Fields {
   public:
    Fields(const Reader& reader, const toml::table& table, std::string what, std::vector<std::string> known)
        : r_(reader), table_(table), what_(std::move(what)), known_(std::move(known)) {
      for (const auto& [key, node] : table_) {
        const std::string name(key.str());
        if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
        const std::string near = closest_name(name, known_);
        std::string message = "unknown key '" + name + "' in " + what_;
        if (!near.empty()) message += "; did you mean '" + near + "'?";
        else {
          message += "; it takes ";
          for (std::size_t i = 0; i < known_.size(); ++i) message += (i ? ", " : "") + known_[i];
        }
        r_.fail(key.source().begin.line
                    ? Place{static_cast<int>(key.source().begin.line), static_cast<int>(key.source().begin.column)}
                    : place_of(node),
                message);
      }
    }

    const toml::node* find(std::string_view key) const { return table_.get(key); }
    Place place() const { return place_of(table_); }
    const std::string& what() const { return what_; }

    const toml::node& required(std::string_view key) const {
      const toml::node* n = find(key);
      if (!n) r_.fail(table_, what_ + " needs the key '" + std::string(key) + "'");
      return *n;
    }

    std::string string(std::string_view key, bool needed = true, std::string fallback = {}) const {
      const toml::node* n = needed ? &required(key) : find(key);
      if (!n) return fallback;
      if (!n->is_string()) r_.fail(*n, std::string(key) + " in " + what_ + " must be a string, not " + type_name(*n));
      return std::string(*n->as_string());
    }

    std::optional<std::int64_t> integer(std::string_view key, bool needed) const {
      const toml::node* n = needed ? &required(key) : find(key);
      if (!n) return std::nullopt;
      if (!n->is_integer())
        r_.fail(*n, std::string(key) + " in " + what_ + " must be an integer, not " + type_name(*n));
      return n->as_integer()->get();
    }

    std::optional<double> number(std::string_view key) const {
      const toml::node* n = find(key);
      if (!n) return std::nullopt;
      double v = 0;
      if (n->is_integer()) v = static_cast<double>(n->as_integer()->get());
      else if (n->is_floating_point()) v = n->as_floating_point()->get();
      else r_.fail(*n, std::string(key) + " in " + what_ + " must be a number, not " + type_name(*n));
      if (!std::isfinite(v)) r_.fail(*n, std::string(key) + " in " + what_ + " must be a finite number");
      return v;
    }

    std::optional<bool> boolean(std::string_view key) const {
      const toml::node* n = find(key);
      if (!n) return std::nullopt;
      if (!n->is_boolean())
        r_.fail(*n, std::string(key) + " in " + what_ + " must be true or false, not " + type_name(*n));
      return n->as_boolean()->get();
    }

    const toml::array* array(std::string_view key, bool needed) const {
      const toml::node* n = needed ? &required(key) : find(key);
      if (!n) return nullptr;
      if (!n->is_array()) r_.fail(*n, std::string(key) + " in " + what_ + " must be an array, not " + type_name(*n));
      return n->as_array();
    }

    const toml::table* table(std::string_view key) const {
      const toml::node* n = find(key);
      if (!n) return nullptr;
      if (!n->is_table()) r_.fail(*n, std::string(key) + " in " + what_ + " must be a table, not " + type_name(*n));
      return n->as_table();
    }

    // [[key]]: an array of tables; each element a table.
    std::vector<const toml::table*> tables(std::string_view key) const {
      std::vector<const toml::table*> out;
      const toml::array* a = array(key, false);
      if (!a) return out;
      for (const toml::node& e : *a) {
        if (!e.is_table())
          r_.fail(e, "each " + std::string(key) + " in " + what_ + " must be a table ([[" + std::string(key) +
                         "]]), not " + type_name(e));
        out.push_back(e.as_table());
      }
      return out;
    }

   private:
    const Reader& r_;
    const toml::table& table_;
    std::string what_;
    std::vector<std::string> known_;
  };

  static std::string type_name(const toml::node& n) {
    switch (n.type()) {
      case toml::node_type::string: return "a string";
      case toml::node_type::integer: return "an integer";
      case toml::node_type::floating_point: return "a floating-point number";
      case toml::node_type::boolean: return "a boolean";
      case toml::node_type::array: return "an array";
      case toml::node_type::table: return "a table";
      default: return "a date or time";
    }
  }

  static bool is_identifier(std::string_view s) {
    if (s.empty() || s.size() > 64 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  }
  static bool is_id(std::string_view s) {
    if (s.empty() || s.size() > 64) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
             c == '-';
    });
  }

  void check_id(const toml::node& at, const std::string& id, const std::string& what) const {
    if (!is_id(id)) fail(at, what + " '" + id + "' must be 1 to 64 lowercase letters, digits, '_' or '-'");
  }
  // A variant's id may keep its kernel's capitals (smem.setRowReadCol).
  void check_variant_id(const toml::node& at, const std::string& id) const {
    std::string lower = id;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!is_id(lower)) fail(at, "the variant id '" + id + "' must be 1 to 64 letters, digits, '_' or '-'");
  }
  // A key only the built-in lessons' manifest may use.
  void built_in_only(const toml::node* at, const std::string& key, const std::string& why) const {
    if (at && origin_ != Origin::BuiltIn) fail(*at, key + " is for the lessons built into ThreadMap: " + why);
  }

  PlacedExpression expression(const toml::node& node, const std::string& key, const ExpressionScope& scope) const {
    PlacedExpression e;
    e.place = place_of(node);
    e.key = key;
    std::string text;
    int offset = 0;  // from the value's place to the expression's first character
    if (node.is_integer()) {
      text = std::to_string(node.as_integer()->get());
    } else if (node.is_string()) {
      text = std::string(*node.as_string());
      offset = 1;  // the opening quote
    } else {
      fail(node, key + " must be an expression in a string (or an integer), not " + type_name(node));
    }
    try {
      e.expression = Expression::parse(text, scope);
    } catch (const ExpressionError& error) {
      fail(Place{e.place.line, e.place.column + offset + error.column() - 1}, key + ": " + error.what());
    }
    return e;
  }

  // A text file beside the manifest: a kernel ("kernel file") or a lesson.
  // A file of the pack's, or none where it is not there; a file that is no
  // regular file, or a link out of the pack's folder, fails at `at`.
  std::optional<std::string> read_or_fail(const toml::node& at, const std::string& relative) const {
    try {
      return read_file_(relative);
    } catch (const InvalidRequest& e) {
      fail(at, e.what());
    }
  }

  std::string read_text(const toml::node& at, const std::string& relative, const std::string& kind) const {
    if (relative.empty() || relative.front() == '/' || relative.find("..") != std::string::npos)
      fail(at, "'" + relative + "' must be a file inside the pack's folder (a relative path without '..')");
    // Each file is read once however often the manifest names it, and the
    // files together stay under kMaxPackBytes (a manifest naming one large
    // file a thousand times holds it once).
    if (const auto known = read_.find(relative); known != read_.end()) return known->second;
    std::optional<std::string> text = read_or_fail(at, relative);
    if (!text)
      fail(at, "cannot read the " + kind + " '" + relative + "' in " +
                   (folder_.empty() ? std::string("the pack's folder") : folder_));
    check_text(at, relative, *text, kind);
    bytes_read_ += text->size();
    if (bytes_read_ > kMaxPackBytes)
      fail(at, "the files this manifest names are larger than " + std::to_string(kMaxPackBytes) + " bytes together");
    return read_.emplace(relative, std::move(*text)).first->second;
  }
  void check_text(const toml::node& at, const std::string& relative, const std::string& text,
                  const std::string& kind) const {
    if (text.size() > kMaxKernelFileBytes)
      fail(at, "the " + kind + " '" + relative + "' is larger than " + std::to_string(kMaxKernelFileBytes) + " bytes");
    if (text.find('\0') != std::string::npos || text.empty())
      fail(at, "the " + kind + " '" + relative + "' is empty or not text");
  }
  std::string read_kernel(const toml::node& at, const std::string& relative) const {
    return read_text(at, relative, "kernel file");
  }

  ParamSpec parameter(const toml::table& t, std::size_t index) const;
  std::vector<std::pair<std::string, PlacedExpression>> defines(const Fields& f, const ExpressionScope& scope) const {
    std::vector<std::pair<std::string, PlacedExpression>> out;
    if (const toml::table* table = f.table("defines")) {
      for (const auto& [key, node] : *table) {
        const std::string name(key.str());
        const Place at{static_cast<int>(key.source().begin.line), static_cast<int>(key.source().begin.column)};
        if (!is_identifier(name) || name == "ELEM" || name.starts_with("THREADMAP_"))
          fail(at, "the define '" + name + "' must be a C identifier other than ELEM and THREADMAP_*");
        out.emplace_back(name, expression(node, "define " + name, scope));
      }
    }
    return out;
  }
  FamilySpec family(const toml::table& t, std::size_t index) const;
  using Declared = std::map<std::string, std::pair<ArgumentSpec, bool>>;  // name -> (argument, used)
  void kernel_files(const Fields& f, FamilySpec& fam, const std::string& what) const;
  std::optional<LessonSpec> lesson(const Fields& f, const std::string& what) const;
  void workload(const Fields& f, FamilySpec& fam, const std::string& what) const;
  void declared_work(const Fields& f, FamilySpec& fam, const ExpressionScope& scope, const std::string& what) const;
  std::string section(const Fields& f, const std::optional<LessonSpec>& lesson, const std::string& what) const;
  ExpressionScope family_parameters(const Fields& f, FamilySpec& fam, const std::string& what) const;
  void declare(Declared& declared, const toml::node& at, ArgumentSpec arg, const std::string& what) const;
  BufferSpec buffer(const Fields& b, const ExpressionScope& scope) const;
  void buffers(const Fields& f, FamilySpec& fam, Declared& declared, const ExpressionScope& scope,
               const std::string& what) const;
  void scalars_and_locals(const Fields& f, Declared& declared, const ExpressionScope& scope,
                          const std::string& what) const;
  void arguments(const Fields& f, FamilySpec& fam, Declared& declared, const std::string& what) const;
  void tolerances(const Fields& f, FamilySpec& fam, const ExpressionScope& scope) const;
  void requirements(const Fields& f, FamilySpec& fam, const ExpressionScope& scope, const std::string& what) const;
  void variants(const Fields& f, FamilySpec& fam, const ExpressionScope& scope, const std::string& what) const;
  VariantSpec variant(const Fields& v, const FamilySpec& fam, const ExpressionScope& scope,
                      const std::string& what) const;
  bool needs(const Fields& v) const;
  std::vector<Dialect> variant_dialects(const Fields& v, const FamilySpec& fam, const std::string& what) const;
  std::vector<ParamSpec> variant_parameters(const Fields& v, const FamilySpec& fam, const std::string& what) const;
  void defaults(const Fields& v, std::vector<ParamSpec>& params, const std::string& what) const;
  void check_names(const FamilySpec& fam, const VariantSpec& spec, const std::string& what) const;
  void checks(const Fields& f, FamilySpec& fam, const std::string& what) const;
  std::vector<std::pair<std::string, std::string>> parameter_values(
      const toml::table& set, const std::vector<ParamSpec>& params, const std::string& who, const std::string& not_one,
      const std::function<void(const ParamSpec&, const std::string&)>& check) const;
  std::vector<std::pair<std::string, std::string>> assignments(const toml::node& set_node, const FamilySpec& fam,
                                                               const std::string& what, const std::string& who) const;
  std::vector<std::pair<std::string, std::string>> variant_assignments(const toml::node& set_node, const FamilySpec& fam,
                                                                       const VariantSpec& variant,
                                                                       const std::string& who) const;
  void exercises(const Fields& f, FamilySpec& fam, const std::string& what) const;
  ExerciseSpec exercise(const Fields& e, const FamilySpec& fam, const std::string& what) const;
  std::map<Dialect, ExerciseSpec::File> exercise_files(const Fields& e, std::string_view key) const;
  ExerciseSpec::Term goal_term(const toml::table& t, const std::string& what) const;
  std::map<std::string, std::string> by_language(const toml::node& n, const std::string& what) const;
  std::vector<LaunchSpec> launches(const Fields& f, const ExpressionScope& scope) const;
  std::optional<TileSpec> tile(const Fields& f, const ExpressionScope& scope, const std::string& what) const;
};

ParamSpec Reader::parameter(const toml::table& t, std::size_t index) const {
  Fields f(*this, t, "parameter " + std::to_string(index + 1),
           {"name", "meaning", "min", "max", "values", "choices", "default"});
  ParamSpec p;
  const toml::node& name = f.required("name");
  p.name = f.string("name");
  if (!is_identifier(p.name))
    fail(name, "the parameter name '" + p.name + "' must be letters, digits and '_', not starting with a digit");
  for (const char* reserved : {"sizeof", "min", "max", "ceil_div", "int", "float", "double"})
    if (p.name == reserved) fail(name, "'" + p.name + "' is a word of the expressions; name the parameter otherwise");
  p.meaning = f.string("meaning", false);
  const bool has_range = f.find("min") || f.find("max");
  const toml::array* values = f.array("values", false);
  const toml::array* choices = f.array("choices", false);
  if (int(has_range) + int(values != nullptr) + int(choices != nullptr) != 1)
    fail(f.place(),
         "parameter '" + p.name + "' needs exactly one of: min and max (a range), values (a list), choices (names)");
  const toml::node& def = f.required("default");
  if (p.name == "type" && !choices)
    fail(f.place(), "the parameter 'type' is the element type: give it choices from \"int\", \"float\", \"double\"");
  if (has_range) {
    p.min = *f.integer("min", true);
    p.max = *f.integer("max", true);
    if (p.min > p.max)
      fail(*f.find("max"),
           "parameter '" + p.name + "': max " + std::to_string(p.max) + " is below min " + std::to_string(p.min));
  } else if (values) {
    if (values->empty()) fail(*values, "parameter '" + p.name + "': values is empty");
    for (const toml::node& v : *values) {
      if (!v.is_integer()) fail(v, "parameter '" + p.name + "': values must be integers, not " + type_name(v));
      p.allowed.push_back(v.as_integer()->get());
    }
    std::sort(p.allowed.begin(), p.allowed.end());
    if (std::adjacent_find(p.allowed.begin(), p.allowed.end()) != p.allowed.end())
      fail(*values, "parameter '" + p.name + "': a value is listed twice");
    p.min = p.allowed.front();
    p.max = p.allowed.back();
  } else {
    if (choices->empty()) fail(*choices, "parameter '" + p.name + "': choices is empty");
    std::vector<std::string> names;
    for (const toml::node& c : *choices) {
      if (!c.is_string()) fail(c, "parameter '" + p.name + "': choices must be strings, not " + type_name(c));
      const std::string choice(*c.as_string());
      if (!is_identifier(choice)) fail(c, "the choice '" + choice + "' must be letters, digits and '_'");
      if (std::find(names.begin(), names.end(), choice) != names.end())
        fail(c, "parameter '" + p.name + "': the choice '" + choice + "' is listed twice");
      names.push_back(choice);
    }
    if (p.name == "type") {
      // The element type: its value is the ElementType (0 int, 1 float,
      // 2 double) whatever subset the pack offers.
      p.choices = {"int", "float", "double"};
      for (std::size_t i = 0; i < names.size(); ++i) {
        const auto type = parse_element_type(names[i]);
        if (!type)
          fail(*choices->get(i),
               "the type parameter's choices are element types: int, float or double, not '" + names[i] + "'");
        p.allowed.push_back(static_cast<std::int64_t>(*type));
      }
      std::sort(p.allowed.begin(), p.allowed.end());
      if (p.allowed.size() == p.choices.size()) p.allowed.clear();  // every type: no subset to keep to
    } else {
      p.choices = names;
    }
    p.min = 0;
    p.max = static_cast<std::int64_t>(p.choices.size()) - 1;
  }
  if (p.is_choice()) {
    if (!def.is_string()) fail(def, "the default of '" + p.name + "' must be one of its choices, a string");
    const std::string d(*def.as_string());
    const auto it = std::find(p.choices.begin(), p.choices.end(), d);
    const std::int64_t index = it - p.choices.begin();
    if (it == p.choices.end() ||
        (!p.allowed.empty() && std::find(p.allowed.begin(), p.allowed.end(), index) == p.allowed.end()))
      fail(def, "the default '" + d + "' of '" + p.name + "' is not one of its choices");
    p.default_value = index;
  } else {
    if (!def.is_integer()) fail(def, "the default of '" + p.name + "' must be an integer, not " + type_name(def));
    p.default_value = def.as_integer()->get();
    if (p.default_value < p.min || p.default_value > p.max ||
        (!p.allowed.empty() && std::find(p.allowed.begin(), p.allowed.end(), p.default_value) == p.allowed.end()))
      fail(def, "the default " + std::to_string(p.default_value) + " of '" + p.name + "' is not " + p.describe_range());
  }
  return p;
}

// [family.tile] or a variant's tile, of `what` ("family 'x'").
std::optional<TileSpec> Reader::tile(const Fields& f, const ExpressionScope& scope, const std::string& what) const {
  const toml::table* table = f.table("tile");
  if (!table) return std::nullopt;
  Fields t(*this, *table, "the tile of " + what, {"rows", "cols", "data_cols"});
  TileSpec spec;
  spec.place = t.place();
  spec.rows = expression(t.required("rows"), "tile rows", scope);
  spec.cols = expression(t.required("cols"), "tile cols", scope);
  if (const toml::node* n = t.find("data_cols")) spec.data_cols = expression(*n, "tile data_cols", scope);
  return spec;
}

std::vector<LaunchSpec> Reader::launches(const Fields& f, const ExpressionScope& scope) const {
  std::vector<LaunchSpec> out;
  const std::vector<const toml::table*> tables = f.tables("launch");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields l(*this, *tables[i], "launch " + std::to_string(i + 1) + " of " + f.what(), {"grid", "block"});
    LaunchSpec spec;
    spec.place = l.place();
    for (const char* key : {"grid", "block"}) {
      const toml::array* a = l.array(key, true);
      if (a->empty() || a->size() > 3)
        fail(*a,
             std::string(key) + " must list 1 to 3 dimensions (x, then y, then z), not " + std::to_string(a->size()));
      auto& into = std::string(key) == "grid" ? spec.grid : spec.block;
      for (std::size_t d = 0; d < a->size(); ++d) {
        into.push_back(expression(*a->get(d), std::string(key) + "[" + std::to_string(d) + "]", scope));
        // A size that names no parameter is known now: one no device takes
        // is refused here, at its line, not by a device at run time (2^32
        // blocks killed PoCL's CPU device with SIGFPE).
        if (!into.back().expression.names().empty()) continue;
        std::int64_t value = 0;
        try {
          value = into.back().expression.evaluate({});
        } catch (const ExpressionError& e) {
          fail(*a->get(d), std::string(key) + "[" + std::to_string(d) + "]: " + e.what());
        }
        const std::int64_t most = std::string(key) == "grid" ? kMaxConstantGrid : kMaxConstantBlock;
        if (value < 1 || value > most)
          fail(*a->get(d), std::string(key) + "[" + std::to_string(d) + "] is " + std::to_string(value) + ": " +
                               (std::string(key) == "grid" ? "blocks" : "threads") + " in a dimension are 1 to " +
                               std::to_string(most));
      }
    }
    if (spec.grid.size() != spec.block.size())
      fail(spec.place, "grid has " + std::to_string(spec.grid.size()) + " dimensions but block has " +
                           std::to_string(spec.block.size()));
    out.push_back(std::move(spec));
  }
  return out;
}

// A family's kernel files, read beside the manifest.
void Reader::kernel_files(const Fields& f, FamilySpec& fam, const std::string& what) const {
  for (Dialect dialect : kDialects) {
    const std::string key(dialect_key(dialect));
    const std::string file = f.string(key, false);
    if (file.empty()) continue;
    if (!file.ends_with(dialect_extension(dialect)))
      fail(*f.find(key), "the " + std::string(dialect_title(dialect)) + " kernel file must end in " +
                             std::string(dialect_extension(dialect)));
    fam.kernels[dialect] = {file, read_kernel(*f.find(key), file)};
  }
  if (fam.kernels.empty())
    fail(f.place(), what + " names no kernel file: give opencl = \"FILE.cl\", cuda = \"FILE.cu\" or both");
}

// The headings of a markdown text ("# Title" lines and underlined ones), as
// the lesson pane finds a section.
std::vector<std::string> headings(std::string_view text) {
  std::vector<std::string> out;
  std::string previous;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line(text.substr(at, end - at));
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find_first_not_of(' ');
    // Spaces around the text, and an ATX heading's closing #s after a space.
    const auto trim = [](std::string t) {
      const auto strip = [&t] {
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(t.begin());
      };
      strip();
      const std::size_t hashes = t.find_last_not_of('#');
      if (hashes != std::string::npos && hashes + 1 < t.size() && t[hashes] == ' ') t.resize(hashes);
      else if (hashes == std::string::npos) t.clear();
      strip();
      return t;
    };
    if (first != std::string::npos && first < 4 && line[first] == '#') {
      const std::size_t hashes = line.find_first_not_of('#', first) - first;
      if (hashes <= 6 && (first + hashes == line.size() || line[first + hashes] == ' '))
        out.push_back(trim(line.substr(first + hashes)));
    } else if (!previous.empty() && first != std::string::npos &&
               line.find_first_not_of(line[first] == '=' ? "= " : "- ") == std::string::npos &&
               (line[first] == '=' || line[first] == '-')) {
      out.push_back(trim(previous));
    }
    previous = first == std::string::npos ? std::string() : line;
  }
  return out;
}

const std::vector<std::string> kLessonLanguages{"en", "pt_BR", "es"};

// A family's lesson (or, built in, a variant's), its translations found
// beside it by name. The built-in lessons are the program's resources: named
// here, read by the window.
std::optional<LessonSpec> Reader::lesson(const Fields& f, const std::string& what) const {
  const toml::node* file = f.find("lesson");
  if (!file) {
    if (const toml::node* n = f.find("lesson_language"))
      fail(*n, "lesson_language in " + what + " needs a lesson (lesson = \"FILE.md\")");
    return std::nullopt;
  }
  LessonSpec lesson;
  lesson.file = f.string("lesson");
  lesson.language = f.string("lesson_language", false, "en");
  if (std::find(kLessonLanguages.begin(), kLessonLanguages.end(), lesson.language) == kLessonLanguages.end())
    fail(*f.find("lesson_language"), "lesson_language '" + lesson.language + "' is not one of en, pt_BR, es");
  if (origin_ == Origin::BuiltIn) return lesson;
  lesson.texts[lesson.language] = read_text(*file, lesson.file, "lesson");
  const std::size_t dot = lesson.file.rfind('.');
  const std::size_t slash = lesson.file.rfind('/');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = has_extension ? lesson.file.substr(0, dot) : lesson.file;
  const std::string extension = has_extension ? lesson.file.substr(dot) : "";
  for (const std::string& code : kLessonLanguages) {
    if (code == lesson.language) continue;
    const std::string name = stem + "." + code + extension;
    if (std::optional<std::string> text = read_or_fail(*file, name)) {
      check_text(*file, name, *text, "lesson translation");
      bytes_read_ += text->size();
      if (bytes_read_ > kMaxPackBytes)
        fail(*file, "the files this manifest names are larger than " + std::to_string(kMaxPackBytes) +
                        " bytes together");
      lesson.texts[code] = std::move(*text);
    }
  }
  return lesson;
}

// A `section` key: a heading of the family's lesson as it was written.
std::string Reader::section(const Fields& f, const std::optional<LessonSpec>& lesson, const std::string& what) const {
  const toml::node* n = f.find("section");
  if (!n) return {};
  if (!lesson) fail(*n, "section in " + what + " needs the family's lesson (lesson = \"FILE.md\")");
  const std::string name = f.string("section");
  // The built-in lessons are not read here (the window reads them; their
  // sections are checked there: LanguageTest::everyBuiltInSectionIsInItsLesson).
  if (origin_ == Origin::BuiltIn) return name;
  const std::vector<std::string> all = headings(lesson->texts.at(lesson->language));
  if (std::find(all.begin(), all.end(), name) != all.end()) return name;
  std::string list;
  for (const std::string& h : all) list += (list.empty() ? "" : "; ") + h;
  fail(*n, "section '" + name + "' is not a heading of " + lesson->file +
               (list.empty() ? " (it has none)" : "; its headings: " + list));
}

// The family's parameters: its sliders, and the names its expressions take.
ExpressionScope Reader::family_parameters(const Fields& f, FamilySpec& fam, const std::string& what) const {
  ExpressionScope scope;
  const auto tables = f.tables("parameter");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ParamSpec p = parameter(*tables[i], i);
    if (std::find(scope.names.begin(), scope.names.end(), p.name) != scope.names.end())
      fail(*tables[i]->get("name"), what + ": the parameter '" + p.name + "' is declared twice");
    scope.names.push_back(p.name);
    if (p.name == "type") scope.type_names.push_back(p.name);
    fam.parameters.push_back(std::move(p));
  }
  return scope;
}

// Buffers, scalars and locals share one name space: the arguments list them.
void Reader::declare(Declared& declared, const toml::node& at, ArgumentSpec arg, const std::string& what) const {
  if (!is_identifier(arg.name)) fail(at, "the name '" + arg.name + "' must be letters, digits and '_'");
  if (declared.count(arg.name)) fail(at, what + ": '" + arg.name + "' is declared twice");
  std::string name = arg.name;
  declared.emplace(std::move(name), std::make_pair(std::move(arg), false));
}

// One [[family.buffer]]: its type, count, layout, role and initial contents.
BufferSpec Reader::buffer(const Fields& b, const ExpressionScope& scope) const {
  BufferSpec spec;
  spec.name = b.string("name");
  const std::string type = b.string("type");
  if (auto fixed = parse_element_type(type)) spec.type = fixed;
  else if (type != "type" || scope.type_names.empty())
    fail(b.required("type"), "buffer '" + spec.name + "': type '" + type +
                                 "' is not int, float, double or the parameter 'type'" +
                                 (scope.type_names.empty() ? " (this family declares none)" : ""));
  spec.count = expression(b.required("count"), "buffer '" + spec.name + "' count", scope);
  if (const toml::node* row = b.find("row")) spec.row = expression(*row, "buffer '" + spec.name + "' row", scope);
  const std::string role = b.string("role", false, "input");
  static const std::vector<std::string> kRoles{"input", "output", "both"};
  if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end())
    fail(b.required("role"),
         "buffer '" + spec.name + "': role '" + role + "' is not input, output or both" +
             (closest_name(role, kRoles).empty() ? std::string()
                                                 : "; did you mean '" + closest_name(role, kRoles) + "'?"));
  spec.output = role != "input";
  spec.both = role == "both";
  const std::string fill = b.string("fill", false, spec.output && !spec.both ? "" : "random");
  if (spec.output && !spec.both && (b.find("fill") || b.find("range") || b.find("value")))
    fail(
        *(b.find("fill")    ? b.find("fill")
          : b.find("range") ? b.find("range")
                            : b.find("value")),
        "buffer '" + spec.name + "' is an output: it is poisoned before each run, so it takes no fill, range or value");
  if (!spec.output || spec.both) {
    static const std::vector<std::string> kFills{"zeros", "iota", "random", "constant"};
    if (fill == "zeros") spec.fill = Fill::Zeros;
    else if (fill == "iota") spec.fill = Fill::Iota;
    else if (fill == "random") spec.fill = Fill::Random;
    else if (fill == "constant") spec.fill = Fill::Constant;
    else {
      const std::string near = closest_name(fill, kFills);
      fail(b.required("fill"), "buffer '" + spec.name + "': fill '" + fill +
                                   "' is not zeros, iota, random or constant" +
                                   (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    if (const toml::array* range = b.array("range", false)) {
      if (spec.fill != Fill::Random) fail(*range, "range is for fill = \"random\"");
      if (range->size() != 2 || !(range->get(0)->is_number()) || !(range->get(1)->is_number()))
        fail(*range, "range is two numbers [low, high]");
      auto number = [](const toml::node& n) {
        return n.is_integer() ? static_cast<double>(n.as_integer()->get()) : n.as_floating_point()->get();
      };
      spec.low = number(*range->get(0));
      spec.high = number(*range->get(1));
      spec.range_given = true;
      if (!std::isfinite(spec.low) || !std::isfinite(spec.high) || !(spec.low < spec.high) ||
          std::fabs(spec.low) > 1e15 || std::fabs(spec.high) > 1e15)
        fail(*range, "range [low, high] needs finite low < high, each within 1e15");
    }
    if (b.find("value")) {
      if (spec.fill != Fill::Constant) fail(*b.find("value"), "value is for fill = \"constant\"");
      spec.value = *b.number("value");
    } else if (spec.fill == Fill::Constant) {
      fail(b.place(), "buffer '" + spec.name + "' with fill = \"constant\" needs the key 'value'");
    }
  }
  return spec;
}

void Reader::buffers(const Fields& f, FamilySpec& fam, Declared& declared, const ExpressionScope& scope,
                     const std::string& what) const {
  const auto tables = f.tables("buffer");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields b(*this, *tables[i], "buffer " + std::to_string(i + 1) + " of " + what,
             {"name", "type", "count", "role", "fill", "range", "value", "row"});
    BufferSpec spec = buffer(b, scope);
    ArgumentSpec arg;
    arg.kind = ArgumentSpec::Kind::Buffer;
    arg.name = spec.name;
    arg.buffer = static_cast<int>(fam.buffers.size());
    arg.place = b.place();
    declare(declared, b.required("name"), std::move(arg), what);
    fam.buffers.push_back(std::move(spec));
  }
}

void Reader::scalars_and_locals(const Fields& f, Declared& declared, const ExpressionScope& scope,
                                const std::string& what) const {
  for (const char* kind : {"scalar", "local"}) {
    const bool scalar = std::string(kind) == "scalar";
    const auto tables = f.tables(kind);
    for (std::size_t i = 0; i < tables.size(); ++i) {
      const char* value_key = scalar ? "value" : "bytes";
      Fields s(*this, *tables[i], std::string(kind) + " " + std::to_string(i + 1) + " of " + what, {"name", value_key});
      ArgumentSpec arg;
      arg.kind = scalar ? ArgumentSpec::Kind::Scalar : ArgumentSpec::Kind::Local;
      arg.name = s.string("name");
      arg.value = expression(s.required(value_key), std::string(kind) + " '" + arg.name + "' " + value_key, scope);
      arg.place = s.place();
      declare(declared, s.required("name"), std::move(arg), what);
    }
  }
}

// The kernel's arguments in its signature's order, each declared once and
// every declared name used.
void Reader::arguments(const Fields& f, FamilySpec& fam, Declared& declared, const std::string& what) const {
  const toml::array* args = f.array("arguments", true);
  for (const toml::node& a : *args) {
    if (!a.is_string()) fail(a, "arguments lists names of buffers, scalars and locals, as strings");
    const std::string name(*a.as_string());
    const auto it = declared.find(name);
    if (it == declared.end()) {
      std::vector<std::string> known;
      for (const auto& [k, v] : declared) known.push_back(k);
      const std::string near = closest_name(name, known);
      fail(a, "the argument '" + name + "' is no buffer, scalar or local of " + what +
                  (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    if (it->second.second) fail(a, "the argument '" + name + "' is listed twice");
    it->second.second = true;
    ArgumentSpec arg = it->second.first;
    arg.place = place_of(a);
    fam.arguments.push_back(std::move(arg));
  }
  if (fam.arguments.size() > 64) fail(*args, "a kernel takes at most 64 arguments here");
  for (const auto& [name, entry] : declared)
    if (!entry.second) fail(entry.first.place, what + ": '" + name + "' is declared but not in arguments");
}

// Verification: absolute and relative tolerances, and what scales them.
void Reader::tolerances(const Fields& f, FamilySpec& fam, const ExpressionScope& scope) const {
  fam.atol = f.number("atol").value_or(0);
  fam.rtol = f.number("rtol").value_or(0);
  if (fam.atol < 0) fail(*f.find("atol"), "atol must not be negative");
  if (fam.rtol < 0) fail(*f.find("rtol"), "rtol must not be negative");
  if (const toml::node* n = f.find("tolerance_scale")) fam.tolerance_scale = expression(*n, "tolerance_scale", scope);
}

void Reader::requirements(const Fields& f, FamilySpec& fam, const ExpressionScope& scope,
                          const std::string& what) const {
  const auto tables = f.tables("require");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields r(*this, *tables[i], "require " + std::to_string(i + 1) + " of " + what, {"holds", "message"});
    RequireSpec spec;
    spec.holds = expression(r.required("holds"), "require", scope);
    spec.message = r.string("message");
    if (spec.message.empty()) fail(r.required("message"), "a require rule's message says what to change; it is empty");
    fam.requires_.push_back(std::move(spec));
  }
}

void Reader::variants(const Fields& f, FamilySpec& fam, const ExpressionScope& scope, const std::string& what) const {
  const auto tables = f.tables("variant");
  if (tables.empty()) fail(f.place(), what + " has no [[family.variant]]");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields v(*this, *tables[i], "variant " + std::to_string(i + 1) + " of " + what,
             {"id", "title", "summary", "kernel", "defines", "launch", "reference", "known_wrong", "tile", "section",
              "parameters", "parameter", "defaults", "original", "needs", "lesson", "lesson_language",
              "dialects"});
    VariantSpec spec = variant(v, fam, scope, what);
    if (spec.reference && fam.reference())
      fail(*v.find("reference"), what + " already has a reference variant, '" + fam.reference()->id + "'");
    fam.variants.push_back(std::move(spec));
  }
  if (!fam.reference() && fam.workload.empty())
    fail(f.place(), what + " has no variant with reference = true: the others are verified against it");
}

VariantSpec Reader::variant(const Fields& v, const FamilySpec& fam, const ExpressionScope& scope,
                            const std::string& what) const {
  VariantSpec spec;
  spec.place = v.place();
  spec.id = v.string("id");
  check_variant_id(v.required("id"), spec.id);
  for (const VariantSpec& other : fam.variants)
    if (other.id == spec.id) fail(v.required("id"), what + ": the variant id '" + spec.id + "' is used twice");
  const std::string self = "variant '" + spec.id + "' of " + what;
  spec.title = v.string("title", false, spec.id);
  spec.summary = v.string("summary", false);
  spec.kernel = v.string("kernel");
  if (!is_identifier(spec.kernel))
    fail(v.required("kernel"), "the kernel name '" + spec.kernel + "' is not a C identifier");
  if (!fam.workload.empty())
    for (const char* key : {"defines", "launch", "reference", "known_wrong", "tile"})
      if (const toml::node* n = v.find(key))
        fail(*n, self + " is made by the workload '" + fam.workload + "', which declares its own " + key);
  spec.defines = defines(v, scope);
  spec.launches = launches(v, scope);
  spec.tile = tile(v, scope, self);
  for (const char* key : {"lesson", "lesson_language"})
    built_in_only(v.find(key), std::string("a variant's ") + key,
                  "a pack's family has one lesson; give the variant a section");
  spec.lesson = lesson(v, self);
  spec.section = section(v, fam.lesson_of(spec), self);
  spec.parameters = variant_parameters(v, fam, self);
  check_names(fam, spec, "variant '" + spec.id + "'");
  spec.reference = v.boolean("reference").value_or(false);
  spec.known_wrong = v.boolean("known_wrong").value_or(false);
  spec.original = v.boolean("original").value_or(false);
  spec.needs_subgroup_shuffle = needs(v);
  spec.dialects = variant_dialects(v, fam, self);
  if (spec.reference && spec.known_wrong)
    fail(*v.find("known_wrong"), "the reference variant cannot be known_wrong: the others are compared with it");
  if (spec.launches.empty() && fam.launches.empty() && fam.workload.empty())
    fail(v.place(), "variant '" + spec.id + "' has no launch, and " + what + " gives none ([[family.launch]])");
  return spec;
}

// `dialects = ["openmp"]`: the family's kernel files that hold the variant's
// kernel, each named once.
std::vector<Dialect> Reader::variant_dialects(const Fields& v, const FamilySpec& fam, const std::string& what) const {
  const toml::array* list = v.array("dialects", false);
  if (!list) return {};
  std::vector<Dialect> out;
  for (const toml::node& n : *list) {
    if (!n.is_string()) fail(n, "dialects lists dialect names (" + dialect_keys_text() + "), not " + type_name(n));
    const std::string key(*n.as_string());
    const std::optional<Dialect> dialect = dialect_from_key(key);
    if (!dialect) fail(n, "dialects lists kernel dialects (" + dialect_keys_text() + "); '" + key + "' is none");
    if (!fam.kernels.count(*dialect))
      fail(n, what + " is written in " + key + ", but the family names no " + std::string(dialect_title(*dialect)) +
                  " file (" + key + " = \"FILE" + std::string(dialect_extension(*dialect)) + "\")");
    if (std::find(out.begin(), out.end(), *dialect) != out.end()) fail(n, "dialects names " + key + " twice");
    out.push_back(*dialect);
  }
  if (out.empty()) fail(*v.find("dialects"), "dialects is empty: name the dialects the kernel is written in, or leave it out");
  return out;
}

// `needs = ["subgroup-shuffle"]`: what a device must offer to run the variant.
bool Reader::needs(const Fields& v) const {
  const toml::array* list = v.array("needs", false);
  if (!list) return false;
  static const std::vector<std::string> kFeatures{"subgroup-shuffle"};
  for (const toml::node& n : *list) {
    const std::string feature = n.is_string() ? std::string(*n.as_string()) : std::string();
    if (feature != kFeatures.front()) {
      const std::string near = closest_name(feature, kFeatures);
      fail(n, "needs lists device features; the one there is: subgroup-shuffle" +
                  (near.empty() || feature.empty() ? std::string() : "; did you mean '" + near + "'?"));
    }
  }
  return !list->empty();
}

// A variant's parameters: the family's it names in `parameters` (all, in
// the family's order, when it names none), each replaced by its own
// [[family.variant.parameter]] of that name, then its `defaults`.
std::vector<ParamSpec> Reader::variant_parameters(const Fields& v, const FamilySpec& fam,
                                                  const std::string& what) const {
  std::vector<std::string> family_names;
  for (const ParamSpec& p : fam.parameters) family_names.push_back(p.name);
  const auto of_family = [&](const std::string& name) {
    return std::find_if(fam.parameters.begin(), fam.parameters.end(),
                        [&](const ParamSpec& p) { return p.name == name; });
  };
  std::vector<ParamSpec> out;
  if (const toml::array* names = v.array("parameters", false)) {
    for (const toml::node& n : *names) {
      if (!n.is_string()) fail(n, "parameters in " + what + " lists parameter names, not " + type_name(n));
      const std::string name(*n.as_string());
      const auto found = of_family(name);
      if (found == fam.parameters.end()) {
        const std::string near = closest_name(name, family_names);
        fail(n, what + " takes '" + name + "', no parameter of the family" +
                    (near.empty() ? "" : "; did you mean '" + near + "'?"));
      }
      if (std::any_of(out.begin(), out.end(), [&](const ParamSpec& p) { return p.name == name; }))
        fail(n, what + " lists the parameter '" + name + "' twice");
      out.push_back(*found);
    }
  } else {
    out = fam.parameters;
  }
  const auto tables = v.tables("parameter");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ParamSpec own = parameter(*tables[i], i);
    const auto taken = std::find_if(out.begin(), out.end(), [&](const ParamSpec& p) { return p.name == own.name; });
    if (taken == out.end())
      fail(*tables[i], what + " redefines '" + own.name +
                           "', which it does not take: a variant's parameter replaces one of the family's it takes");
    if ((taken->name == "type") != (own.name == "type") || taken->is_choice() != own.is_choice())
      fail(*tables[i], what + " redefines '" + own.name + "' as another kind of parameter");
    *taken = std::move(own);
  }
  defaults(v, out, what);
  return out;
}

// `defaults = { NAME = VALUE }`: the variant's own starting values.
void Reader::defaults(const Fields& v, std::vector<ParamSpec>& params, const std::string& what) const {
  const toml::table* table = v.table("defaults");
  if (!table) return;
  for (const auto& [key, node] : *table) {
    const std::string name(key.str());
    const Place at{static_cast<int>(key.source().begin.line), static_cast<int>(key.source().begin.column)};
    const auto p = std::find_if(params.begin(), params.end(), [&](const ParamSpec& s) { return s.name == name; });
    if (p == params.end()) fail(at, what + " gives a default for '" + name + "', which it does not take");
    std::string value;
    if (node.is_integer()) value = std::to_string(node.as_integer()->get());
    else if (node.is_string()) value = std::string(*node.as_string());
    else fail(node, "a default is an integer or a choice's name, not " + type_name(node));
    try {
      p->default_value = parse_param_value(*p, value, what);
    } catch (const InvalidRequest& e) {
      fail(node, e.what());
    }
  }
}

// Every expression the variant evaluates names only parameters it takes (a
// family's define or rule that names others does not apply to it).
void Reader::check_names(const FamilySpec& fam, const VariantSpec& spec, const std::string& what) const {
  const auto check = [&](const PlacedExpression& e) {
    for (const std::string& name : e.expression.names())
      if (!spec.takes(name))
        fail(e.place, what + " does not take the parameter '" + name + "', which " + e.key + " = " +
                          e.expression.text() + " needs");
  };
  for (const BufferSpec& b : fam.buffers) {
    check(b.count);
    if (b.row) check(*b.row);
  }
  for (const ArgumentSpec& a : fam.arguments)
    if (a.kind != ArgumentSpec::Kind::Buffer) check(a.value);
  for (const LaunchSpec& l : spec.launches.empty() ? fam.launches : spec.launches)
    for (const auto* side : {&l.grid, &l.block})
      for (const PlacedExpression& e : *side) check(e);
  for (const auto& define : spec.defines) check(define.second);
  for (const auto* e :
       {fam.ideal_bytes ? &*fam.ideal_bytes : nullptr, fam.tolerance_scale ? &*fam.tolerance_scale : nullptr})
    if (e) check(*e);
  if (const TileSpec* t = spec.tile ? &*spec.tile : fam.tile ? &*fam.tile : nullptr) {
    check(t->rows);
    check(t->cols);
    if (t->data_cols) check(*t->data_cols);
  }
}

// `{ NAME = VALUE }`: each NAME one of `params` (else "WHO sets 'NAME'" and
// `not_one`), each VALUE as --set takes it, checked by `check` (which throws
// InvalidRequest).
std::vector<std::pair<std::string, std::string>> Reader::parameter_values(
    const toml::table& set, const std::vector<ParamSpec>& params, const std::string& who, const std::string& not_one,
    const std::function<void(const ParamSpec&, const std::string&)>& check) const {
  std::vector<std::string> names;
  for (const ParamSpec& p : params) names.push_back(p.name);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, node] : set) {
    const std::string name(key.str());
    const Place at{static_cast<int>(key.source().begin.line), static_cast<int>(key.source().begin.column)};
    const auto spec =
        std::find_if(params.begin(), params.end(), [&](const ParamSpec& p) { return p.name == name; });
    if (spec == params.end()) {
      const std::string near = closest_name(name, names);
      fail(at, who + " sets '" + name + "'" + not_one + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    std::string value;
    if (node.is_integer()) value = std::to_string(node.as_integer()->get());
    else if (node.is_string()) value = std::string(*node.as_string());
    else fail(node, "a parameter's value is an integer or a choice's name, not " + type_name(node));
    try {
      check(*spec, value);
    } catch (const InvalidRequest& e) {
      fail(node, e.what());
    }
    out.emplace_back(name, value);
  }
  return out;
}

// `set = { NAME = VALUE }`: parameter values of the family, each checked
// against the family's definition and every variant's own.
std::vector<std::pair<std::string, std::string>> Reader::assignments(const toml::node& set_node, const FamilySpec& fam,
                                                                     const std::string& what,
                                                                     const std::string& who) const {
  if (!set_node.is_table()) fail(set_node, "set is a table of parameter values, e.g. { n = 1000 }");
  return parameter_values(*set_node.as_table(), fam.parameters, who, ", no parameter of " + what,
                          [&](const ParamSpec& spec, const std::string& value) {
                            parse_param_value(spec, value, fam.id);
                            for (const VariantSpec& variant : fam.variants)  // a variant's own, where it has one
                              for (const ParamSpec& own : variant.parameters)
                                if (own.name == spec.name) parse_param_value(own, value, fam.id + "." + variant.id);
                          });
}

// `{ NAME = VALUE }` for one variant: each a parameter it takes, checked
// against its own definition (an exercise runs that variant alone).
std::vector<std::pair<std::string, std::string>> Reader::variant_assignments(const toml::node& set_node,
                                                                             const FamilySpec& fam,
                                                                             const VariantSpec& variant,
                                                                             const std::string& who) const {
  if (!set_node.is_table()) fail(set_node, who + " is a table of parameter values, e.g. { n = 1000 }");
  return parameter_values(*set_node.as_table(), variant.parameters, who,
                          ", which the variant '" + variant.id + "' does not take",
                          [&](const ParamSpec& spec, const std::string& value) {
                            parse_param_value(spec, value, fam.id + "." + variant.id);
                          });
}

// Named parameter sets that `pack check` runs.
void Reader::checks(const Fields& f, FamilySpec& fam, const std::string& what) const {
  const auto tables = f.tables("check");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields c(*this, *tables[i], "check " + std::to_string(i + 1) + " of " + what, {"name", "set"});
    CheckPoint point;
    point.place = c.place();
    point.name = c.string("name");
    for (const CheckPoint& other : fam.checks)
      if (other.name == point.name) fail(c.required("name"), what + ": the check '" + point.name + "' is named twice");
    point.assignments = assignments(c.required("set"), fam, what, "the check '" + point.name + "'");
    fam.checks.push_back(std::move(point));
  }
}

// A value by language ({ en = "...", pt_BR = "...", es = "..." }), English
// required.
std::map<std::string, std::string> Reader::by_language(const toml::node& n, const std::string& what) const {
  if (!n.is_table()) fail(n, what + " is a table by language, e.g. { en = \"...\", pt_BR = \"...\", es = \"...\" }");
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : *n.as_table()) {
    const std::string code(key.str());
    if (std::find(kLessonLanguages.begin(), kLessonLanguages.end(), code) == kLessonLanguages.end())
      fail(value, what + ": '" + code + "' is not one of en, pt_BR, es");
    if (!value.is_string()) fail(value, what + " in " + code + " must be a string, not " + type_name(value));
    out[code] = std::string(*value.as_string());
  }
  if (!out.count("en")) fail(n, what + " has no English (en)");
  return out;
}

// One condition of an exercise's goal: { metric = "...", at_most = N } or
// at_least, optionally per another counter, with its reason.
ExerciseSpec::Term Reader::goal_term(const toml::table& t, const std::string& what) const {
  Fields g(*this, t, what, {"metric", "at_most", "at_least", "per", "reason"});
  ExerciseSpec::Term term;
  term.metric = g.string("metric");
  const auto known = [&](const std::string& name, std::string_view key) {
    if (is_goal_metric(name)) return;
    std::vector<std::string> all(kGoalMetrics.begin(), kGoalMetrics.end());
    const std::string near = closest_name(name, all);
    fail(g.required(key), "'" + name + "' is not a counter a goal can name" +
                              (near.empty() ? "" : "; did you mean '" + near + "'?"));
  };
  known(term.metric, "metric");
  term.per = g.string("per", false);
  if (!term.per.empty()) {
    known(term.per, "per");
    if (term.per == "verified") fail(g.required("per"), "a bound cannot be per 'verified'");
  }
  term.at_least = g.number("at_least");
  if (const std::optional<double> most = g.number("at_most")) {
    if (term.at_least) fail(*g.find("at_most"), what + " gives both at_most and at_least");
    term.at_most = *most;
  }
  if (term.metric != "verified" && !term.at_least && !g.find("at_most"))
    fail(g.place(), what + " needs at_most or at_least");
  if (const toml::node* reason = g.find("reason")) term.reason = by_language(*reason, "the reason of " + what);
  return term;
}

// start = { cuda = "FILE.cu", opencl = "FILE.cl" }: each file in its dialect.
std::map<Dialect, ExerciseSpec::File> Reader::exercise_files(const Fields& e, std::string_view key) const {
  const toml::node& n = e.required(key);
  if (!n.is_table()) fail(n, std::string(key) + " is a table by dialect, e.g. { cuda = \"start.cu\", opencl = \"start.cl\" }");
  std::map<Dialect, ExerciseSpec::File> out;
  for (const auto& [k, value] : *n.as_table()) {
    const std::string name(k.str());
    const std::optional<Dialect> dialect = dialect_from_key(name);
    if (!dialect) fail(value, "'" + name + "' is not a dialect: " + dialect_keys_text());
    if (!value.is_string()) fail(value, std::string(key) + "." + name + " must be a file name, not " + type_name(value));
    const std::string file(*value.as_string());
    const std::string extension(dialect_extension(*dialect));
    if (!file.ends_with(extension)) fail(value, "the " + name + " file '" + file + "' must end in " + extension);
    out[*dialect] = {file, read_text(value, file, "exercise file")};
  }
  if (out.empty()) fail(n, std::string(key) + " names no file");
  return out;
}

ExerciseSpec Reader::exercise(const Fields& e, const FamilySpec& fam, const std::string& what) const {
  ExerciseSpec x;
  x.place = e.place();
  x.id = e.string("id");
  check_id(e.required("id"), x.id, "the exercise id");
  x.variant = e.string("variant");
  if (std::none_of(fam.variants.begin(), fam.variants.end(), [&](const VariantSpec& v) { return v.id == x.variant; }))
    fail(e.required("variant"), what + ": the family has no variant '" + x.variant + "'");
  const VariantSpec& variant = *std::find_if(fam.variants.begin(), fam.variants.end(),
                                             [&](const VariantSpec& v) { return v.id == x.variant; });
  if (e.find("section")) x.section = section(e, fam.lesson_of(variant), what);
  if (const toml::node* set = e.find("set")) x.sets = variant_assignments(*set, fam, variant, "the set of " + what);
  x.starts = exercise_files(e, "start");
  x.solutions = exercise_files(e, "solution");
  for (const auto& [dialect, file] : x.starts)
    if (!x.solutions.count(dialect))
      fail(e.required("solution"), what + ": a " + std::string(dialect_key(dialect)) + " start with no solution");
  if (x.starts.size() != x.solutions.size()) fail(e.required("start"), what + ": a solution with no start in its dialect");
  const auto terms = e.tables("goal");
  if (terms.empty()) fail(e.place(), what + " needs a goal ([[family.exercise.goal]])");
  for (std::size_t i = 0; i < terms.size(); ++i)
    x.goal.push_back(goal_term(*terms[i], "goal " + std::to_string(i + 1) + " of " + what));
  if (const toml::array* sizes = e.array("verify_at", false))
    for (const toml::node& size : *sizes)
      x.verify_at.push_back(variant_assignments(size, fam, variant, "a verify_at size of " + what));
  const toml::table* texts = e.table("text");
  if (!texts) fail(e.place(), what + " needs its text ([" "family.exercise.text.en] with title and task)");
  for (const auto& [key, node] : *texts) {
    const std::string code(key.str());
    if (std::find(kLessonLanguages.begin(), kLessonLanguages.end(), code) == kLessonLanguages.end())
      fail(node, what + ": text '" + code + "' is not one of en, pt_BR, es");
    if (!node.is_table()) fail(node, what + ": text." + code + " must be a table with title, task and hints");
    Fields t(*this, *node.as_table(), "the " + code + " text of " + what, {"title", "task", "hints"});
    ExerciseSpec::Text text{t.string("title"), t.string("task"), {}};
    if (const toml::array* hints = t.array("hints", false))
      for (const toml::node& h : *hints) {
        if (!h.is_string()) fail(h, "each hint is a string, not " + type_name(h));
        text.hints.emplace_back(*h.as_string());
      }
    x.text[code] = std::move(text);
  }
  if (!x.text.count("en")) fail(*texts, what + " has no English text ([family.exercise.text.en])");
  return x;
}

// [[family.exercise]]: exercises on the family's variants.
void Reader::exercises(const Fields& f, FamilySpec& fam, const std::string& what) const {
  const auto tables = f.tables("exercise");
  if (tables.size() > kMaxExercises)
    fail(*tables[kMaxExercises], what + " has more than " + std::to_string(kMaxExercises) + " exercises");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Fields e(*this, *tables[i], "exercise " + std::to_string(i + 1) + " of " + what,
             {"id", "variant", "section", "set", "start", "solution", "goal", "verify_at", "text"});
    ExerciseSpec x = exercise(e, fam, "exercise " + std::to_string(i + 1) + " of " + what);
    for (const ExerciseSpec& other : fam.exercises)
      if (other.id == x.id) fail(e.required("id"), what + ": the exercise id '" + x.id + "' is used twice");
    fam.exercises.push_back(std::move(x));
  }
}

// A pack's family's own description of its work: buffers, scalars and
// locals in argument order, launches, defines, tile, ideal bytes,
// tolerances and rules.
void Reader::declared_work(const Fields& f, FamilySpec& fam, const ExpressionScope& scope,
                           const std::string& what) const {
  Declared declared;  // name -> (argument, used)
  buffers(f, fam, declared, scope, what);
  scalars_and_locals(f, declared, scope, what);
  arguments(f, fam, declared, what);
  fam.launches = launches(f, scope);
  fam.defines = defines(f, scope);
  fam.tile = tile(f, scope, what);
  if (const toml::node* n = f.find("ideal_bytes")) fam.ideal_bytes = expression(*n, "ideal_bytes", scope);
  tolerances(f, fam, scope);
  requirements(f, fam, scope, what);
}

// `workload = "NAME"` (built in only): a C++ workload makes the family's
// buffers, launches and CPU reference, so the manifest declares none.
void Reader::workload(const Fields& f, FamilySpec& fam, const std::string& what) const {
  const toml::node& at = f.required("workload");
  built_in_only(&at, "workload", "a pack declares its buffers, arguments and launches");
  fam.workload = f.string("workload");
  const std::vector<std::string> known = families::workload_names();
  if (std::find(known.begin(), known.end(), fam.workload) == known.end()) {
    const std::string near = closest_name(fam.workload, known);
    fail(at, "there is no built-in workload '" + fam.workload + "'" +
                 (near.empty() ? "" : "; did you mean '" + near + "'?"));
  }
  // The workload runs its own kernel files: WORKLOAD.cl and WORKLOAD.cu.
  for (const auto& [dialect, kernel] : fam.kernels)
    if (kernel.file != dialect_file(fam.workload, dialect))
      fail(*f.find(std::string(dialect_key(dialect))), what + ": the workload '" + fam.workload + "' runs " +
                                                           dialect_file(fam.workload, dialect) + ", not " + kernel.file);
  for (const char* key : {"defines", "buffer", "scalar", "local", "arguments", "launch", "ideal_bytes", "require",
                          "atol", "rtol", "tolerance_scale", "tile"})
    if (const toml::node* n = f.find(key))
      fail(*n, what + " is made by the workload '" + fam.workload + "', which declares its own " + key);
}

FamilySpec Reader::family(const toml::table& t, std::size_t index) const {
  Fields f(*this, t, "family " + std::to_string(index + 1),
           {"id",    "name",      "title",  "opencl",      "cuda",     "openmp",       "defines",   "parameter", "buffer",
            "scalar", "local",    "arguments", "launch", "ideal_bytes", "require",   "atol",      "rtol",
            "tolerance_scale", "tile", "variant", "check", "lesson", "lesson_language", "section", "exercise",
            "workload"});
  FamilySpec fam;
  fam.place = f.place();
  fam.id = f.string("id");
  check_id(f.required("id"), fam.id, "the family id");
  fam.name = f.string("name", false, fam.id);
  check_id(f.find("name") ? *f.find("name") : f.required("id"), fam.name, "the family name");
  fam.title = f.string("title", false, fam.id);
  const std::string what = "family '" + fam.id + "'";
  kernel_files(f, fam, what);
  fam.lesson = lesson(f, what);
  const std::string family_section = section(f, fam.lesson, what);  // refused without a lesson
  if (fam.lesson) fam.lesson->section = family_section;
  const ExpressionScope scope = family_parameters(f, fam, what);
  if (f.find("workload")) workload(f, fam, what);
  else declared_work(f, fam, scope, what);
  variants(f, fam, scope, what);
  checks(f, fam, what);
  exercises(f, fam, what);
  return fam;
}

PackManifest Reader::read(std::string_view text) {
  if (text.size() > kMaxManifestBytes)
    fail(Place{1, 1}, "the manifest is larger than " + std::to_string(kMaxManifestBytes) + " bytes");
  toml::table root;
  try {
    root = toml::parse(text, file_);
  } catch (const toml::parse_error& e) {
    fail(Place{static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column)},
         std::string(e.description()));
  }
  Fields top(*this, root, "the manifest", {"pack", "family"});
  PackManifest m;
  const toml::table* pack = top.table("pack");
  if (!pack) fail(Place{1, 1}, "the manifest needs a [pack] table with the pack's name");
  Fields p(*this, *pack, "[pack]", {"name", "title"});
  m.name = p.string("name");
  check_id(p.required("name"), m.name, "the pack name");
  m.title = p.string("title", false, m.name);
  const auto families = top.tables("family");
  if (families.empty()) fail(Place{1, 1}, "the manifest declares no [[family]]");
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (const toml::node* id = families[i]->get("id"); id && id->is_string())
      for (const FamilySpec& other : m.families)
        if (other.id == *id->as_string())
          fail(*id, "the family id '" + other.id + "' is used twice (first at line " +
                        std::to_string(other.place.line) + ")");
    m.families.push_back(family(*families[i], i));
    const FamilySpec& added = m.families.back();
    for (std::size_t f = 0; f + 1 < m.families.size(); ++f)
      if (m.families[f].name == added.name)
        fail(added.place, "the family name '" + added.name + "' is used twice (first at line " +
                              std::to_string(m.families[f].place.line) + "): each family is one in the catalog");
    // An exercise's id is unique in the pack (and, when it is added, among
    // every exercise the program has).
    for (const ExerciseSpec& x : m.families.back().exercises)
      for (std::size_t f = 0; f + 1 < m.families.size(); ++f)
        for (const ExerciseSpec& other : m.families[f].exercises)
          if (other.id == x.id)
            fail(x.place, "the exercise id '" + x.id + "' is used twice (first at line " +
                              std::to_string(other.place.line) + ")");
  }
  return m;
}

}  // namespace

PackManifest parse_manifest(std::string_view text, const std::string& file_name, const std::string& folder,
                            const ReadKernelFile& read_file, Origin origin) {
  PackManifest m = Reader(file_name, folder, read_file, origin).read(text);
  m.built_in = origin == Origin::BuiltIn;
  m.folder = folder;
  m.manifest_path = file_name;
  return m;
}

std::optional<std::string> read_small_file(const std::string& path, std::size_t limit, const std::string& within) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  return read_input_file(path, limit, within);
}

PackManifest load_pack(const std::string& folder) {
  PackFiles files;
  return load_pack(folder, files);
}

PackManifest load_pack(const std::string& folder, PackFiles& files) {
  const std::string manifest = (std::filesystem::path(folder) / "pack.toml").string();
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw PackError(folder + ": not a folder (a pack is a folder with a pack.toml)");
  std::optional<std::string> text;
  try {
    text = read_small_file(manifest, kMaxManifestBytes, folder);
  } catch (const InvalidRequest& e) {
    throw PackError(manifest + ": " + e.what());
  }
  if (!text) throw PackError(manifest + ": cannot read the pack's manifest");
  files = {*text, {}};
  return parse_manifest(*text, manifest, folder, [&](const std::string& relative) {
    std::optional<std::string> kernel =
        read_small_file((std::filesystem::path(folder) / relative).string(), kMaxKernelFileBytes, folder);
    if (kernel) files.kernels[relative] = *kernel;
    return kernel;
  });
}

}  // namespace threadmap::pack
