// Packs (docs/packs.md): the expression language, the manifest's mistakes
// (each one pack.toml:LINE:COL message), and a pack's variants run verified
// on the OpenCL test device against their reference.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include <unistd.h>

#include "kernels/analysis/exercises.h"
#include "kernels/pack/catalog.h"
#include "kernels/core/error.h"
#include "kernels/pack/expression.h"
#include "kernels/pack/manifest.h"
#include "kernels/pack/pack_template.h"
#include "kernels/pack/pack_variants.h"
#include "kernels/engine/runner.h"
#include "tests/test_devices.h"

namespace {

using threadmap::pack::Expression;
using threadmap::pack::ExpressionError;
using threadmap::pack::ExpressionScope;

const ExpressionScope kScope{{"n", "wg", "width", "height", "type"}, {"type"}};
const threadmap::pack::ExpressionValues kValues{{"n", 1000}, {"wg", 64}, {"width", 7}, {"height", 3}, {"type", 2}};

struct Evaluates {
  const char* text;
  std::int64_t value;
};

TEST(PackExpression, Evaluates) {
  const Evaluates cases[] = {
      {"42", 42},
      {"n", 1000},
      {"n + wg * 2", 1128},
      {"(n + wg) * 2", 2128},
      {"n - wg - 1", 935},  // left to right
      {"n / wg", 15},
      {"n % wg", 40},
      {"-7 / 2", -3},  // truncates toward zero, as C
      {"-7 % 2", -1},
      {"ceil_div(n, wg)", 16},
      {"ceil_div(1024, wg)", 16},
      {"ceil_div(-7, 2)", -3},
      {"ceil_div(7, -2)", -3},
      {"min(n, wg, 5)", 5},
      {"max(width, height)", 7},
      {"sizeof(int)", 4},
      {"sizeof(float) * n", 4000},
      {"sizeof(double)", 8},
      {"sizeof(type)", 8},  // type = 2: double
      {"n % wg == 40", 1},
      {"n % wg != 40", 0},
      {"width < height || height <= 3", 1},
      {"width > 7 && 1 / 0", 0},  // && does not evaluate its right side when the left decides
      {"!0 + !5", 1},
      {"--3", 3},
      {"9223372036854775807", INT64_MAX},
      {"  n\t+ 1 ", 1001},
  };
  for (const Evaluates& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(Expression::parse(c.text, kScope).evaluate(kValues), c.value);
  }
}

struct Fails {
  const char* text;
  int column;
  const char* message;  // a part of it
};

TEST(PackExpression, MistakesNameTheColumn) {
  const Fails parse_errors[] = {
      {"", 1, "empty"},
      {"n +", 4, "ends where a value was expected"},
      {"n + * 2", 5, "unexpected '*'"},
      {"(n + 1", 7, "')'"},
      {"n wg", 3, "after a complete expression"},
      {"widht * 2", 1, "did you mean 'width'?"},
      {"2 * hieght", 5, "did you mean 'height'?"},
      {"zebra", 1, "known: n, wg, width, height, type"},
      {"ceil(n, 2)", 1, "did you mean 'ceil_div'?"},
      {"ceil_div(n)", 1, "ceil_div takes 2 arguments"},
      {"min(n)", 1, "min takes 2 or more"},
      {"sizeof(flaot)", 8, "did you mean 'float'?"},
      {"sizeof(wg)", 8, "unknown type 'wg'"},
      {"1.5 * n", 2, "whole numbers only"},
      {"10u", 3, "whole numbers only"},
      {"99999999999999999999", 1, "does not fit in 64 bits"},
      {"n $ 2", 3, "unexpected '$'"},
  };
  for (const Fails& c : parse_errors) {
    SCOPED_TRACE(c.text);
    try {
      Expression::parse(c.text, kScope);
      ADD_FAILURE() << "parsed";
    } catch (const ExpressionError& e) {
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  const Fails evaluation_errors[] = {
      {"n / (wg - 64)", 3, "/ by zero"},
      {"n % 0", 3, "% by zero"},
      {"ceil_div(n, 0)", 1, "ceil_div by zero"},
      {"9223372036854775807 + 1", 21, "overflows"},
      {"n * 9223372036854775807", 3, "overflows"},
      {"-9223372036854775807 - 2", 22, "overflows"},
      {"(-9223372036854775807 - 1) / -1", 28, "overflows"},
  };
  for (const Fails& c : evaluation_errors) {
    SCOPED_TRACE(c.text);
    const Expression e = Expression::parse(c.text, kScope);
    try {
      e.evaluate(kValues);
      ADD_FAILURE() << "evaluated";
    } catch (const ExpressionError& error) {
      EXPECT_EQ(error.column(), c.column) << error.what();
      EXPECT_NE(std::string(error.what()).find(c.message), std::string::npos) << error.what();
    }
  }
}

TEST(PackExpression, DeepNestingIsRefusedNotACrash) {
  const std::string deep = std::string(200, '(') + "1" + std::string(200, ')');
  EXPECT_THROW(Expression::parse(deep, kScope), ExpressionError);
  const std::string minus(200, '-');
  EXPECT_THROW(Expression::parse(minus + "1", kScope), ExpressionError);
  EXPECT_EQ(Expression::parse(std::string(30, '(') + "n" + std::string(30, ')'), kScope).evaluate(kValues), 1000);
}

TEST(PackExpression, NamesListsEachParameterOnce) {
  const Expression e = Expression::parse("ceil_div(n, wg) * wg + sizeof(type) + n", kScope);
  EXPECT_EQ(e.names(), (std::vector<std::string>{"n", "wg", "type"}));
}

// A small valid manifest; each mistake below changes one thing in it.
const std::string kManifest = R"toml([pack]
name = "demo"

[[family]]
id = "scale"
opencl = "scale.cl"
arguments = ["x", "y", "n"]
ideal_bytes = "2 * n * sizeof(float)"

  [[family.parameter]]
  name = "n"
  min = 1
  max = 4096
  default = 1000

  [[family.parameter]]
  name = "wg"
  values = [32, 64]
  default = 64

  [[family.buffer]]
  name = "x"
  type = "float"
  count = "n"

  [[family.buffer]]
  name = "y"
  type = "float"
  count = "n"
  role = "output"

  [[family.scalar]]
  name = "n"
  value = "n"

  [[family.launch]]
  grid = ["ceil_div(n, wg)"]
  block = ["wg"]

  [[family.variant]]
  id = "naive"
  kernel = "scale_naive"
  reference = true

  [[family.check]]
  name = "odd"
  set = { n = 33 }
)toml";

threadmap::pack::PackManifest parse(const std::string& text) {
  return threadmap::pack::parse_manifest(text, "pack.toml", "demo", [](const std::string& file) {
    return file == "scale.cl" ? std::optional<std::string>("__kernel void scale_naive() {}") : std::nullopt;
  });
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) ADD_FAILURE() << "the base manifest has no " << from;
  else text.replace(at, from.size(), to);
  return text;
}

TEST(PackManifest, TheBaseManifestLoads) {
  const auto m = parse(kManifest);
  ASSERT_EQ(m.families.size(), 1u);
  const auto& f = m.families[0];
  EXPECT_EQ(f.id, "scale");
  EXPECT_EQ(f.parameters.size(), 2u);
  EXPECT_EQ(f.parameters[1].allowed, (std::vector<std::int64_t>{32, 64}));
  EXPECT_EQ(f.arguments.size(), 3u);
  EXPECT_EQ(f.arguments[0].kind, threadmap::pack::ArgumentSpec::Kind::Buffer);
  EXPECT_EQ(f.arguments[2].kind, threadmap::pack::ArgumentSpec::Kind::Scalar);
  EXPECT_TRUE(f.buffers[1].output);
  ASSERT_NE(f.reference(), nullptr);
  EXPECT_EQ(f.reference()->id, "naive");
  EXPECT_EQ(f.checks.at(0).assignments.at(0), (std::pair<std::string, std::string>{"n", "33"}));
  EXPECT_EQ(f.kernels.at(threadmap::Dialect::OpenCL).text, "__kernel void scale_naive() {}");
}

struct Mistake {
  const char* what;
  std::string manifest;
  const char* message;  // the whole message starts with this
};

// Each mistake is refused by `parse` with one PackError of one line,
// "pack.toml:LINE:COL: ...", starting with the mistake's message.
template <typename Parse>
void expect_each_mistake(const std::vector<Mistake>& mistakes, Parse parse) {
  const std::regex one_place(R"(^pack\.toml:\d+:\d+: [^\n]+$)");
  for (const Mistake& mistake : mistakes) {
    SCOPED_TRACE(mistake.what);
    try {
      parse(mistake.manifest);
      ADD_FAILURE() << "loaded";
    } catch (const threadmap::pack::PackError& e) {
      const std::string message = e.what();
      EXPECT_TRUE(std::regex_match(message, one_place)) << message;
      EXPECT_EQ(message.rfind(mistake.message, 0), 0u) << message;
    }
  }
}

TEST(PackManifest, EachMistakeIsOneMessageWithLineAndColumn) {
  const std::string& m = kManifest;
  const std::vector<Mistake> mistakes = {
      {"not TOML", replaced(m, "name = \"demo\"", "name = \"demo"), "pack.toml:2:"},
      {"a toml++ error quoting a newline stays one line", replaced(m, "min = 1\n", "min = i\n"),
       "pack.toml:12:10: Error while parsing floating-point: expected 'inf', saw 'i\\n'"},
      {"wrong type", replaced(m, "min = 1\n", "min = \"1\"\n"),
       "pack.toml:12:9: min in parameter 1 must be an integer, not a string"},
      {"missing key", replaced(m, "  kernel = \"scale_naive\"\n", ""),
       "pack.toml:40:3: variant 1 of family 'scale' needs the key 'kernel'"},
      {"unknown key, did you mean", replaced(m, "  role = \"output\"", "  rol = \"output\""),
       "pack.toml:30:3: unknown key 'rol' in buffer 2 of family 'scale'; did you mean 'role'?"},
      {"unknown top-level key", "[packs]\nname = \"x\"\n" + m,
       "pack.toml:1:2: unknown key 'packs' in the manifest; did you mean 'pack'?"},
      {"bad expression", replaced(m, "count = \"n\"\n\n  [[family.buffer]]", "count = \"n +\"\n\n  [[family.buffer]]"),
       "pack.toml:24:15: buffer 'x' count: the expression ends where a value was expected"},
      {"unknown parameter in an expression", replaced(m, "ceil_div(n, wg)", "ceil_div(n, gw)"),
       "pack.toml:37:24: grid[0]: unknown name 'gw'; did you mean 'wg'?"},
      {"default outside the range", replaced(m, "default = 1000", "default = 5000"),
       "pack.toml:14:13: the default 5000 of 'n' is not 1 to 4096"},
      {"default not among the values", replaced(m, "default = 64", "default = 48"),
       "pack.toml:19:13: the default 48 of 'wg' is not one of 32 or 64"},
      {"min above max", replaced(m, "max = 4096", "max = 0"), "pack.toml:13:9: parameter 'n': max 0 is below min 1"},
      {"duplicate parameter", replaced(m, "name = \"wg\"", "name = \"n\""),
       "pack.toml:17:10: family 'scale': the parameter 'n' is declared twice"},
      {"duplicate variant id", m + "\n  [[family.variant]]\n  id = \"naive\"\n  kernel = \"k\"\n",
       "pack.toml:50:8: family 'scale': the variant id 'naive' is used twice"},
      {"duplicate family id", m + "\n[[family]]\nid = \"scale\"\n",
       "pack.toml:50:6: the family id 'scale' is used twice (first at line 4)"},
      {"missing kernel file", replaced(m, "opencl = \"scale.cl\"", "opencl = \"scal.cl\""),
       "pack.toml:6:10: cannot read the kernel file 'scal.cl' in demo"},
      {"kernel file outside the pack", replaced(m, "opencl = \"scale.cl\"", "opencl = \"../x.cl\""),
       "pack.toml:6:10: '../x.cl' must be a file inside the pack's folder"},
      {"unknown argument", replaced(m, "arguments = [\"x\", \"y\", \"n\"]", "arguments = [\"x\", \"why\", \"n\"]"),
       "pack.toml:7:19: the argument 'why' is no buffer, scalar or local of family 'scale'"},
      {"declared but not an argument", replaced(m, "arguments = [\"x\", \"y\", \"n\"]", "arguments = [\"x\", \"y\"]"),
       "pack.toml:32:3: family 'scale': 'n' is declared but not in arguments"},
      {"unknown buffer role", replaced(m, "role = \"output\"", "role = \"ouput\""),
       "pack.toml:30:10: buffer 'y': role 'ouput' is not input, output or both; did you mean 'output'?"},
      {"a role near both", replaced(m, "role = \"output\"", "role = \"bothe\""),
       "pack.toml:30:10: buffer 'y': role 'bothe' is not input, output or both; did you mean 'both'?"},
      {"unknown fill",
       replaced(m, "count = \"n\"\n\n  [[family.buffer]]", "count = \"n\"\n  fill = \"iotta\"\n\n  [[family.buffer]]"),
       "pack.toml:25:10: buffer 'x': fill 'iotta' is not zeros, iota, random or constant; did you mean 'iota'?"},
      {"fill on an output", replaced(m, "role = \"output\"", "role = \"output\"\n  fill = \"zeros\""),
       "pack.toml:31:10: buffer 'y' is an output"},
      {"unknown element type", replaced(m, "type = \"float\"", "type = \"half\""),
       "pack.toml:23:10: buffer 'x': type 'half' is not int, float, double or the parameter 'type'"},
      {"no reference variant", replaced(m, "reference = true", "reference = false"), "pack.toml:4:1: "},
      {"grid and block of different dimensions", replaced(m, "block = [\"wg\"]", "block = [\"wg\", 1]"),
       "pack.toml:36:3: grid has 1 dimensions but block has 2"},
      {"check sets an unknown parameter", replaced(m, "set = { n = 33 }", "set = { nn = 33 }"),
       "pack.toml:47:11: the check 'odd' sets 'nn', no parameter of family 'scale'; did you mean 'n'?"},
      {"check value out of range", replaced(m, "set = { n = 33 }", "set = { n = 0 }"),
       "pack.toml:47:15: scale: n=0 is out of range: n must be 1 to 4096"},
      {"range and values both", replaced(m, "values = [32, 64]", "values = [32, 64]\n  min = 32\n  max = 64"),
       "pack.toml:16:3: parameter 'wg' needs exactly one of"},
      {"bad pack name", replaced(m, "name = \"demo\"", "name = \"Demo Pack\""),
       "pack.toml:2:8: the pack name 'Demo Pack' must be 1 to 64 lowercase letters"},
      {"no kernel file at all", replaced(m, "opencl = \"scale.cl\"\n", ""),
       "pack.toml:4:1: family 'scale' names no kernel file"},
      {"reserved define", replaced(m, "  reference = true", "  reference = true\n  defines = { ELEM = 4 }"),
       "pack.toml:44:15: the define 'ELEM' must be a C identifier other than ELEM"},
      {"a type parameter that is a number", replaced(m, "name = \"wg\"", "name = \"type\""),
       "pack.toml:16:3: the parameter 'type' is the element type: give it choices"},
      {"a choice that is no element type",
       replaced(m, "name = \"wg\"\n  values = [32, 64]\n  default = 64",
                "name = \"type\"\n  choices = [\"float\", \"half\"]\n  default = \"float\""),
       "pack.toml:18:23: the type parameter's choices are element types: int, float or double, not 'half'"},
      {"a row that is no expression",
       replaced(m, "count = \"n\"\n\n  [[family.buffer]]", "count = \"n\"\n  row = \"wg +\"\n\n  [[family.buffer]]"),
       "pack.toml:25:14: buffer 'x' row: the expression ends where a value was expected"},
      {"a row naming no parameter",
       replaced(m, "count = \"n\"\n\n  [[family.buffer]]", "count = \"n\"\n  row = \"wdth\"\n\n  [[family.buffer]]"),
       "pack.toml:25:10: buffer 'x' row: unknown name 'wdth'"},
      {"a tile that is no table",
       replaced(m, "ideal_bytes = \"2 * n * sizeof(float)\"",
                "ideal_bytes = \"2 * n * sizeof(float)\"\ntile = \"32x33\""),
       "pack.toml:9:8: tile in family 1 must be a table, not a string"},
      {"a tile key misspelt",
       replaced(m, "  [[family.launch]]",
                "  [family.tile]\n  rows = \"wg\"\n  colums = \"wg + 1\"\n\n  [[family.launch]]"),
       "pack.toml:38:3: unknown key 'colums' in the tile of family 'scale'; did you mean 'cols'?"},
      {"a tile without cols",
       replaced(m, "  [[family.launch]]", "  [family.tile]\n  rows = \"wg\"\n\n  [[family.launch]]"),
       "pack.toml:36:3: the tile of family 'scale' needs the key 'cols'"},
      {"a tile's data_cols naming no parameter",
       replaced(m, "  reference = true", "  reference = true\n  tile = { rows = 8, cols = 9, data_cols = \"eight\" }"),
       "pack.toml:44:45: tile data_cols: unknown name 'eight'"},
      {"a variant without any launch",
       replaced(m, "  [[family.launch]]\n  grid = [\"ceil_div(n, wg)\"]\n  block = [\"wg\"]\n", ""),
       "pack.toml:37:3: variant 'naive' has no launch"},
  };
  ASSERT_GE(mistakes.size(), 20u);
  expect_each_mistake(mistakes, parse);
}

// A manifest whose family has a lesson, scale.md, with a Portuguese
// translation beside it and no Spanish one.
threadmap::pack::PackManifest parse_with_lesson(const std::string& text) {
  const std::map<std::string, std::string> files{
      {"scale.cl", "__kernel void scale_naive() {}"},
      {"scale.md", "# Scaling a vector\n\nOne thread per element.\n\nThe grid-stride loop\n---\n\nFewer threads.\n"},
      {"scale.pt_BR.md", "# Escalando um vetor\n\nUma thread por elemento.\n\n## O laço com passo de grade ##\n"},
      {"empty.md", ""}};
  return threadmap::pack::parse_manifest(text, "pack.toml", "demo", [&](const std::string& file) {
    const auto found = files.find(file);
    return found == files.end() ? std::nullopt : std::optional<std::string>(found->second);
  });
}

TEST(PackManifest, ALessonComesWithItsTranslationsAndSections) {
  const std::string m = replaced(kManifest, "opencl = \"scale.cl\"\n",
                                 "opencl = \"scale.cl\"\nlesson = \"scale.md\"\nsection = \"Scaling a vector\"\n");
  const auto with_lesson =
      replaced(m, "  reference = true", "  reference = true\n  section = \"The grid-stride loop\"");
  const auto manifest = parse_with_lesson(with_lesson);
  const auto& lesson = manifest.families.at(0).lesson;
  ASSERT_TRUE(lesson);
  EXPECT_EQ(lesson->file, "scale.md");
  EXPECT_EQ(lesson->language, "en");
  EXPECT_EQ(lesson->section, "Scaling a vector");
  EXPECT_EQ(lesson->texts.size(), 2u) << "the original and the Portuguese translation found beside it";
  EXPECT_EQ(lesson->texts.at("pt_BR").rfind("# Escalando um vetor", 0), 0u);
  EXPECT_EQ(manifest.families[0].variants.at(0).section, "The grid-stride loop") << "an underlined heading";

  const auto variants = threadmap::pack::pack_variants(manifest);
  ASSERT_EQ(variants.size(), 1u);
  EXPECT_EQ(variants[0].lesson.file, "scale.md");
  EXPECT_EQ(variants[0].lesson.section, "The grid-stride loop");
  ASSERT_TRUE(variants[0].lesson.texts);
  EXPECT_EQ(variants[0].lesson.texts->at("en"), lesson->texts.at("en"));

  // Written in Portuguese: the Portuguese file is the original, scale.md itself no translation of it.
  const auto pt = parse_with_lesson(replaced(kManifest, "opencl = \"scale.cl\"\n",
                                             "opencl = \"scale.cl\"\nlesson = \"scale.pt_BR.md\"\n"
                                             "lesson_language = \"pt_BR\"\nsection = \"O laço com passo de grade\"\n"));
  EXPECT_EQ(pt.families.at(0).lesson->texts.size(), 1u);
  EXPECT_EQ(pt.families.at(0).lesson->language, "pt_BR");
  EXPECT_EQ(pt.families[0].lesson->section, "O laço com passo de grade") << "an ATX heading's closing #s go";
}

TEST(PackManifest, EachLessonMistakeIsOneMessageWithLineAndColumn) {
  const std::string m =
      replaced(kManifest, "opencl = \"scale.cl\"\n", "opencl = \"scale.cl\"\nlesson = \"scale.md\"\n");
  const std::vector<Mistake> mistakes = {
      {"a lesson file that is not there", replaced(m, "lesson = \"scale.md\"", "lesson = \"scael.md\""),
       "pack.toml:7:10: cannot read the lesson 'scael.md' in demo"},
      {"an empty lesson", replaced(m, "lesson = \"scale.md\"", "lesson = \"empty.md\""),
       "pack.toml:7:10: the lesson 'empty.md' is empty or not text"},
      {"a lesson outside the pack", replaced(m, "lesson = \"scale.md\"", "lesson = \"../scale.md\""),
       "pack.toml:7:10: '../scale.md' must be a file inside the pack's folder"},
      {"a language the interface does not speak",
       replaced(m, "lesson = \"scale.md\"", "lesson = \"scale.md\"\nlesson_language = \"pt\""),
       "pack.toml:8:19: lesson_language 'pt' is not one of en, pt_BR, es"},
      {"a section that is no heading",
       replaced(m, "lesson = \"scale.md\"", "lesson = \"scale.md\"\nsection = \"Scaling\""),
       "pack.toml:8:11: section 'Scaling' is not a heading of scale.md; its headings: Scaling a vector; The "
       "grid-stride loop"},
      {"a variant's section that is no heading",
       replaced(m, "  reference = true", "  reference = true\n  section = \"One thread per element.\""),
       "pack.toml:45:13: section 'One thread per element.' is not a heading of scale.md"},
      {"a section without a lesson", replaced(kManifest, "  reference = true", "  reference = true\n  section = \"x\""),
       "pack.toml:44:13: section in variant 'naive' of family 'scale' needs the family's lesson"},
      {"a lesson language without a lesson",
       replaced(kManifest, "opencl = \"scale.cl\"\n", "opencl = \"scale.cl\"\nlesson_language = \"es\"\n"),
       "pack.toml:7:19: lesson_language in family 'scale' needs a lesson"},
  };
  expect_each_mistake(mistakes, parse_with_lesson);
}

// `pack new` starts a lecturer with a lesson too: each variant opens at its section.
TEST(PackManifest, TheNewPackTemplateBringsALesson) {
  const auto folder = std::filesystem::temp_directory_path() / ("threadmap_template_" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  threadmap::pack::write_pack_template(folder / "vectors", "");
  const auto variants = threadmap::pack::pack_variants(threadmap::pack::load_pack((folder / "vectors").string()));
  std::filesystem::remove_all(folder);
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].lesson.file, "scale.md");
  EXPECT_EQ(variants[0].lesson.section, "One element per thread");
  EXPECT_EQ(variants[1].lesson.section, "A grid-stride loop");
  ASSERT_TRUE(variants[1].lesson.texts);
  EXPECT_EQ(variants[1].lesson.texts->at("en").rfind("# Scaling a vector", 0), 0u);
}

// y = 2x, with a variant that takes no block size: the family's `wg`, its
// define and its rule do not bind it.
const std::string kScaleKernels = R"cl(
__kernel void scale_naive(__global const float* x, __global float* y, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = 2 * x[i];
}
__kernel void scale_fixed(__global const float* x, __global float* y, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) y[i] = 2 * x[i];
}
)cl";

std::string with_variant_parameters() {
  std::string m = replaced(kManifest, "ideal_bytes = \"2 * n * sizeof(float)\"",
                           "ideal_bytes = \"2 * n * sizeof(float)\"\ndefines = { WG = \"wg\" }");
  m = replaced(m, "  [[family.launch]]",
               "  [[family.require]]\n  holds = \"n >= wg\"\n  message = \"a block's worth at least\"\n\n"
               "  [[family.launch]]");
  m = replaced(m, "  [[family.check]]",
               "  [[family.variant]]\n  id = \"fixed\"\n  kernel = \"scale_fixed\"\n  parameters = [\"n\"]\n"
               "  defaults = { n = 77 }\n    [[family.variant.launch]]\n    grid = [3]\n    block = [32]\n\n"
               "  [[family.variant]]\n  id = \"wide\"\n  kernel = \"scale_naive\"\n  parameters = [\"wg\", \"n\"]\n"
               "    [[family.variant.parameter]]\n    name = \"wg\"\n    values = [32, 64, 128]\n    default = 128\n\n"
               "  [[family.check]]");
  return m;
}

threadmap::pack::PackManifest parse_scale(const std::string& text) {
  return threadmap::pack::parse_manifest(text, "pack.toml", "demo", [](const std::string& file) {
    return file == "scale.cl" ? std::optional<std::string>(kScaleKernels) : std::nullopt;
  });
}

TEST(PackManifest, AVariantTakesItsOwnParameters) {
  const auto manifest = parse_scale(with_variant_parameters());
  const auto& variants = manifest.families.at(0).variants;
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].parameters.size(), 2u) << "the reference names none: all of the family's";
  ASSERT_EQ(variants[1].parameters.size(), 1u);
  EXPECT_EQ(variants[1].parameters[0].name, "n");
  EXPECT_EQ(variants[1].parameters[0].default_value, 77);
  ASSERT_EQ(variants[2].parameters.size(), 2u);
  EXPECT_EQ(variants[2].parameters[0].name, "wg") << "in the order it lists them";
  EXPECT_EQ(variants[2].parameters[0].allowed, (std::vector<std::int64_t>{32, 64, 128}));
  EXPECT_EQ(variants[2].parameters[0].default_value, 128);
  const auto built = threadmap::pack::pack_variants(manifest);
  EXPECT_EQ(built[1].params.size(), 1u);
  EXPECT_EQ(built[2].params[0].default_value, 128);
}

TEST(PackVariants, AVariantWithoutAParameterRunsVerifiedAndItsRulesDoNotBindIt) {
  auto td = threadmap::testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  const auto variants = threadmap::pack::pack_variants(parse_scale(with_variant_parameters()));
  threadmap::RunOptions options;
  options.warmup = 0;
  options.repetitions = 1;
  options.end_to_end_repetitions = 1;
  // n = 10 is below the reference's block of 64: its rule refuses it there, not for `fixed`.
  const threadmap::Variant& fixed = variants[1];
  const threadmap::RunResult r =
      threadmap::run_variant(*td.device, fixed, threadmap::make_params(fixed.params, {{"n", "10"}}, fixed.id), options);
  ASSERT_EQ(r.status, threadmap::RunStatus::Ok) << r.error;
  EXPECT_TRUE(r.verification.verified) << r.verification.method;
  EXPECT_EQ(r.verification.checked, 10u);
  const threadmap::Variant& naive = variants[0];
  EXPECT_THROW(naive.build(naive, threadmap::make_params(naive.params, {{"n", "10"}}, naive.id), 1),
               threadmap::InvalidRequest);
  // `wide` at its own default block of 128, verified against the reference run at 128 too.
  const threadmap::Variant& wide = variants[2];
  const threadmap::RunResult w =
      threadmap::run_variant(*td.device, wide, threadmap::make_params(wide.params, {}, wide.id), options);
  ASSERT_EQ(w.status, threadmap::RunStatus::Ok) << w.error;
  EXPECT_TRUE(w.verification.verified) << w.verification.method;
  EXPECT_THROW(threadmap::make_params(fixed.params, {{"wg", "64"}}, fixed.id), threadmap::InvalidRequest);
}

TEST(PackManifest, EachVariantParameterMistakeIsOneMessageWithLineAndColumn) {
  const std::string m = with_variant_parameters();
  const std::vector<Mistake> mistakes = {
      {"a parameter the family lacks", replaced(m, "parameters = [\"n\"]", "parameters = [\"nn\"]"),
       "pack.toml:53:17: variant 'fixed' of family 'scale' takes 'nn', no parameter of the family; did you mean 'n'?"},
      {"a parameter listed twice", replaced(m, "parameters = [\"n\"]", "parameters = [\"n\", \"n\"]"),
       "pack.toml:53:22: variant 'fixed' of family 'scale' lists the parameter 'n' twice"},
      {"a default for a parameter not taken", replaced(m, "defaults = { n = 77 }", "defaults = { wg = 32 }"),
       "pack.toml:54:16: variant 'fixed' of family 'scale' gives a default for 'wg', which it does not take"},
      {"a default outside the range", replaced(m, "defaults = { n = 77 }", "defaults = { n = 0 }"),
       "pack.toml:54:20: variant 'fixed' of family 'scale': n=0 is out of range"},
      {"a redefinition of a parameter not taken", replaced(m, "parameters = [\"wg\", \"n\"]", "parameters = [\"n\"]"),
       "pack.toml:63:5: variant 'wide' of family 'scale' redefines 'wg', which it does not take"},
      {"an expression needing a parameter the variant lacks", replaced(m, "grid = [3]", "grid = [\"wg\"]"),
       "pack.toml:56:13: variant 'fixed' does not take the parameter 'wg', which grid[0] = wg needs"},
      {"a family launch needing a parameter the variant lacks",
       replaced(m, "    [[family.variant.launch]]\n    grid = [3]\n    block = [32]\n", ""),
       "pack.toml:42:11: variant 'fixed' does not take the parameter 'wg', which grid[0] = ceil_div(n, wg) needs"},
  };
  expect_each_mistake(mistakes, parse_scale);
}

// An exercise in a pack ([[family.exercise]]): on one of the family's
// variants, with a start and a solution in each dialect it gives, a goal in
// counts, further sizes and its text by language.
const std::string kExercise = R"toml(
  [[family.exercise]]
  id = "scale-grid"
  variant = "naive"
  set = { n = 512 }
  start = { opencl = "start.cl" }
  solution = { opencl = "solution.cl" }
  verify_at = [{ n = 33 }, { n = 4000, wg = 32 }]

    [[family.exercise.goal]]
    metric = "verified"

    [[family.exercise.goal]]
    metric = "global_ld_requests"
    at_most = 1
    per = "global_st_requests"
      [family.exercise.goal.reason]
      en = "one load a store"
      es = "una lectura por escritura"

    [family.exercise.text.en]
    title = "Scale"
    task = "Scale it."
    hints = ["one", "two"]
)toml";

threadmap::pack::PackManifest parse_exercise(const std::string& text) {
  return threadmap::pack::parse_manifest(text, "pack.toml", "demo", [](const std::string& file) {
    if (file == "scale.cl") return std::optional<std::string>(kScaleKernels);
    if (file == "start.cl" || file == "solution.cl") return std::optional<std::string>("__kernel void scale_naive() {}");
    return std::optional<std::string>();
  });
}

TEST(PackManifest, AnExerciseBecomesAnExerciseOnItsVariant) {
  const auto manifest = parse_exercise(kManifest + kExercise);
  const auto& x = manifest.families.at(0).exercises;
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0].variant, "naive");
  const std::vector<threadmap::Exercise> list = threadmap::pack_exercises(manifest);
  ASSERT_EQ(list.size(), 1u);
  const threadmap::Exercise& e = list[0];
  EXPECT_EQ(e.id, "scale-grid");
  EXPECT_EQ(e.kernel_id, "scale.naive");
  EXPECT_EQ(e.sets.at("n"), "512");
  ASSERT_EQ(e.verify_at.size(), 2u);
  EXPECT_EQ(e.verify_at[1].at("wg"), "32");
  EXPECT_EQ(e.starts.at(threadmap::Dialect::OpenCL).name, "start.cl");
  EXPECT_EQ(e.solutions.at(threadmap::Dialect::OpenCL).text, "__kernel void scale_naive() {}");
  EXPECT_FALSE(e.starts.count(threadmap::Dialect::Cuda));
  ASSERT_EQ(e.goal.size(), 2u);
  EXPECT_EQ(threadmap::describe_goal(e), "verified, and global_ld_requests <= 1 x global_st_requests");
  EXPECT_EQ(e.goal[1].reason_in("es"), "una lectura por escritura");
  EXPECT_EQ(e.goal[1].reason_in("pt_BR"), "one load a store") << "English where there is no translation";
  EXPECT_EQ(e.in("es").title, "Scale") << "English where there is no translation";
  EXPECT_EQ(e.in("en").hints.size(), 2u);

  // Registered beside the built-in ones; read again, it replaces itself.
  const std::size_t before = threadmap::exercises().size();
  threadmap::add_exercises("demo", list);
  threadmap::add_exercises("demo", list);
  EXPECT_EQ(threadmap::exercises().size(), before + 1);
  ASSERT_NE(threadmap::find_exercise("scale-grid"), nullptr);
  threadmap::Exercise clash = e;
  clash.id = "transpose-pad";
  EXPECT_THROW(threadmap::add_exercises("demo", {clash}), threadmap::InvalidRequest) << "a built-in exercise's id";
  threadmap::Exercise stranger = e;
  stranger.pack = "another";
  EXPECT_THROW(threadmap::add_exercises("another", {stranger}), threadmap::InvalidRequest)
      << "another pack's exercise's id";
  EXPECT_EQ(threadmap::find_exercise("scale-grid")->pack, "demo") << "all or nothing: the first one stays";

  // Read again without it, it is no longer listed nor found; a pointer to it
  // (the window's) still reads it; another pack may then take its id.
  const threadmap::Exercise* held = threadmap::find_exercise("scale-grid");
  threadmap::add_exercises("demo", {});
  EXPECT_EQ(threadmap::exercises().size(), before);
  EXPECT_EQ(threadmap::find_exercise("scale-grid"), nullptr);
  EXPECT_EQ(held->id, "scale-grid");
  threadmap::add_exercises("another", {stranger});
  EXPECT_EQ(threadmap::find_exercise("scale-grid")->pack, "another");
  EXPECT_THROW(threadmap::add_exercises("demo", list), threadmap::InvalidRequest) << "now another pack's id";
  threadmap::add_exercises("another", {});
  threadmap::add_exercises("demo", list);
  EXPECT_EQ(threadmap::find_exercise("scale-grid"), held) << "read again with it: back in its place";
  EXPECT_EQ(threadmap::exercises().size(), before + 1);
}

TEST(PackManifest, EachExerciseMistakeIsOneMessageWithLineAndColumn) {
  const std::string m = kManifest + kExercise;
  const std::vector<Mistake> mistakes = {
      {"a variant the family lacks", replaced(m, "variant = \"naive\"", "variant = \"naiv\""),
       "pack.toml:51:13: exercise 1 of family 'scale': the family has no variant 'naiv'"},
      {"a counter no goal can name", replaced(m, "metric = \"global_ld_requests\"", "metric = \"global_ld_request\""),
       "pack.toml:61:14: 'global_ld_request' is not a counter a goal can name; did you mean 'global_ld_requests'?"},
      {"no bound", replaced(m, "    at_most = 1\n", ""), "pack.toml:60:5: goal 2 of exercise 1 of family 'scale' needs at_most or at_least"},
      {"a file of the other dialect", replaced(m, "start = { opencl = \"start.cl\" }", "start = { opencl = \"start.cu\" }"),
       "pack.toml:53:22: the opencl file 'start.cu' must end in .cl"},
      {"a start without a solution", replaced(m, "solution = { opencl = \"solution.cl\" }", "solution = { cuda = \"solution.cu\" }"),
       "pack.toml:54:23: cannot read the exercise file 'solution.cu' in demo"},
      {"a size with a parameter the family lacks", replaced(m, "[{ n = 33 }", "[{ nn = 33 }"),
       "pack.toml:55:18: a verify_at size of exercise 1 of family 'scale' sets 'nn', which the variant 'naive' does not take; did you mean 'n'?"},
      {"a size out of the variant's range", replaced(m, "set = { n = 512 }", "set = { n = 0 }"),
       "pack.toml:52:15: scale.naive: n=0 is out of range"},
      {"a reason without English", replaced(m, "      en = \"one load a store\"\n", ""),
       "pack.toml:64:7: the reason of goal 2 of exercise 1 of family 'scale' has no English (en)"},
      {"no English text", replaced(m, "[family.exercise.text.en]", "[family.exercise.text.es]"),
       "pack.toml:68:5: exercise 1 of family 'scale' has no English text"},
      {"an unknown key", replaced(m, "set = { n = 512 }", "sets = { n = 512 }"),
       "pack.toml:52:3: unknown key 'sets' in exercise 1 of family 'scale'; did you mean 'set'?"},
  };
  expect_each_mistake(mistakes, parse_exercise);
}

// The built-in lessons' manifest: a family made by a C++ workload.
const std::string kBuiltIn = R"toml([pack]
name = "lessons"

[[family]]
id = "smem"
name = "smem-layout"
workload = "smem"
opencl = "smem.cl"
lesson = "004.txt"
lesson_language = "es"

  [[family.parameter]]
  name = "blocks"
  min = 1
  max = 64
  default = 8

  [[family.variant]]
  id = "setRowReadCol"
  kernel = "setRowReadCol"
  original = true
  section = "Memoria Compartida Cuadrada"

  [[family.parameter]]
  name = "block_x"
  values = [8, 16, 32]
  default = 16

  [[family.parameter]]
  name = "block_y"
  values = [8, 16, 32]
  default = 16

  [[family.parameter]]
  name = "type"
  choices = ["int", "float", "double"]
  default = "float"
)toml";

threadmap::pack::PackManifest parse_built_in(const std::string& text) {
  return threadmap::pack::parse_manifest(
      text, "pack.toml", "", [](const std::string& file) {
        return file.ends_with(".cl") ? std::optional<std::string>("__kernel void setRowReadCol() {}") : std::nullopt;
      },
      threadmap::pack::Origin::BuiltIn);
}

TEST(PackManifest, TheBuiltInLessonsNameTheirWorkloadAndLessons) {
  const auto m = parse_built_in(kBuiltIn);
  ASSERT_EQ(m.families.size(), 1u);
  const auto& f = m.families[0];
  EXPECT_EQ(f.id, "smem");
  EXPECT_EQ(f.name, "smem-layout");
  EXPECT_EQ(f.workload, "smem");
  EXPECT_EQ(f.reference(), nullptr);
  ASSERT_TRUE(f.lesson.has_value());
  EXPECT_TRUE(f.lesson->texts.empty());  // the program's resource, not read here
  const auto variants = threadmap::pack::pack_variants(m);
  ASSERT_EQ(variants.size(), 1u);
  const threadmap::Variant& v = variants[0];
  EXPECT_EQ(v.id, "smem.setRowReadCol");
  EXPECT_EQ(v.family, "smem-layout");
  EXPECT_EQ(v.source, "smem");
  EXPECT_TRUE(v.pack.empty());
  EXPECT_TRUE(v.lesson_original);
  EXPECT_EQ(v.lesson.file, "004.txt");
  EXPECT_EQ(v.lesson.language, "es");
  EXPECT_EQ(v.lesson.section, "Memoria Compartida Cuadrada");
  EXPECT_EQ(v.lesson.texts, nullptr);
  ASSERT_TRUE(v.build);
  const threadmap::Workload w = v.build(v, threadmap::make_params(v.params, {}, v.id), 1);
  EXPECT_EQ(w.launches.at(0).kernel, "setRowReadCol");
  EXPECT_EQ(w.launches.at(0).groups[0], 8u);
  EXPECT_EQ(w.launches.at(0).group_size[0], 16u);
  EXPECT_EQ(w.buffers.at(0).type, threadmap::ElementType::Float);
}

TEST(PackManifest, EachBuiltInMistakeIsOneMessageWithLineAndColumn) {
  const std::string& b = kBuiltIn;
  expect_each_mistake(
      {
          {"an unknown workload, did you mean", replaced(b, "workload = \"smem\"", "workload = \"smen\""),
           "pack.toml:7:12: there is no built-in workload 'smen'; did you mean 'smem'?"},
          {"a workload family declares no buffers",
           replaced(b, "  [[family.variant]]",
                    "  [[family.buffer]]\n  name = \"x\"\n  type = \"int\"\n  count = 4\n\n  [[family.variant]]"),
           "pack.toml:18:3: family 'smem' is made by the workload 'smem', which declares its own buffer"},
          {"nor a reference variant", replaced(b, "  original = true", "  reference = true"),
           "pack.toml:21:15: variant 'setRowReadCol' of family 'smem' is made by the workload 'smem', which "
           "declares its own reference"},
          {"an unknown device feature", replaced(b, "  original = true", "  needs = [\"shuffles\"]"),
           "pack.toml:21:12: needs lists device features; the one there is: subgroup-shuffle"},
          {"a family name that is not an id", replaced(b, "name = \"smem-layout\"", "name = \"Smem Layout\""),
           "pack.toml:6:8: the family name 'Smem Layout' must be 1 to 64 lowercase letters"},
          {"a workload runs its own kernel file", replaced(b, "opencl = \"smem.cl\"", "opencl = \"tiles.cl\""),
           "pack.toml:8:10: family 'smem': the workload 'smem' runs smem.cl, not tiles.cl"},
          {"two families of one name", b + "\n[[family]]\nid = \"smem2\"\nname = \"smem-layout\"\nworkload = "
                                           "\"smem\"\nopencl = \"smem.cl\"\n\n  [[family.variant]]\n  id = \"a\"\n  "
                                           "kernel = \"setRowReadRow\"\n",
           "pack.toml:39:1: the family name 'smem-layout' is used twice (first at line 4)"},
      },
      parse_built_in);
  // A pack's folder names no workload and no lesson of a variant's own.
  expect_each_mistake(
      {
          {"a workload in a pack", replaced(kManifest, "arguments = [", "workload = \"smem\"\narguments = ["),
           "pack.toml:7:12: workload is for the lessons built into ThreadMap: a pack declares its buffers"},
          {"a variant's lesson in a pack",
           replaced(kManifest, "  reference = true", "  reference = true\n  lesson = \"other.md\""),
           "pack.toml:44:12: a variant's lesson is for the lessons built into ThreadMap"},
          {"a variant's lesson language in a pack",
           replaced(kManifest, "  reference = true", "  reference = true\n  lesson_language = \"es\""),
           "pack.toml:44:21: a variant's lesson_language is for the lessons built into ThreadMap"},
          {"a family's section without a lesson", replaced(kManifest, "arguments = [", "section = \"x\"\narguments = ["),
           "pack.toml:7:11: section in family 'scale' needs the family's lesson"},
      },
      parse);
}

TEST(PackManifest, TheCatalogIsTheBuiltInLessonsManifest) {
  const auto& m = threadmap::pack::built_in_manifest();
  EXPECT_EQ(m.name, "lessons");
  EXPECT_TRUE(m.built_in);
  std::vector<std::string> ids, families;
  std::size_t originals = 0;
  for (const auto& f : m.families)
    for (const auto& v : f.variants) {
      ids.push_back(f.id + "." + v.id);
      families.push_back(f.name);
      originals += v.original ? 1 : 0;
    }
  ASSERT_EQ(ids.size(), 24u);
  EXPECT_EQ(originals, 16u);  // the lessons' own kernels; the eight others are corrected ones (two in OpenMP alone)
  const auto catalog = threadmap::catalog();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SCOPED_TRACE(ids[i]);
    EXPECT_EQ(catalog[i].id, ids[i]);
    EXPECT_EQ(catalog[i].family, families[i]);
    EXPECT_TRUE(catalog[i].pack.empty());
    EXPECT_FALSE(catalog[i].lesson.file.empty());
    EXPECT_EQ(catalog[i].lesson.texts, nullptr);
  }
  EXPECT_EQ(threadmap::family_names().front(), "transpose");
  EXPECT_EQ(threadmap::find_variant("reduce.warp_shuffle")->availability,
            threadmap::Availability::NeedsSubgroupShuffle);
  EXPECT_EQ(threadmap::find_variant("reduce.sequential")->availability, threadmap::Availability::Always);
  EXPECT_EQ(threadmap::find_variant("transpose.coalesced")->param("pad")->default_value, 1);
  EXPECT_EQ(threadmap::find_variant("transpose.shared")->param("pad")->default_value, 0);
  EXPECT_EQ(threadmap::find_variant("transpose.copy")->param("tile")->max, 64);
  EXPECT_EQ(threadmap::find_variant("transpose.naive")->param("tile")->max, 32);
  EXPECT_EQ(threadmap::find_variant("smem.setRowReadColRectPad")->param("block_y")->default_value, 16);
  EXPECT_EQ(threadmap::find_variant("smem.setRowReadColRectPad")->param("pad")->default_value, 2);
  EXPECT_TRUE(threadmap::find_variant("smem.setRowReadColPad")->param("type")->allowed.empty());
}

TEST(PackManifest, AnUnreadableFolderIsAnError) {
  EXPECT_THROW(threadmap::pack::load_pack("/nonexistent/pack"), threadmap::pack::PackError);
}

// The pack in tests/data/packs/rowsum: a kernel name and signature the
// catalog does not have, a __local argument, a known-wrong variant.
const threadmap::Variant& rowsum(const std::string& id) {
  static const std::vector<threadmap::Variant> variants =
      threadmap::pack::pack_variants(threadmap::pack::load_pack(THREADMAP_TEST_DATA "/packs/rowsum"));
  for (const threadmap::Variant& v : variants)
    if (v.id == id) return v;
  throw std::runtime_error("no variant " + id);
}

TEST(PackVariants, BuildFromTheManifest) {
  const threadmap::Variant& tree = rowsum("rowsum.tree");
  EXPECT_EQ(tree.pack, "rowsum");
  EXPECT_EQ(tree.kernel, "row_sum_tree");
  EXPECT_NE(tree.texts.at(threadmap::Dialect::OpenCL).text.find("row_sum_tree"), std::string::npos);
  const threadmap::Params p =
      threadmap::make_params(tree.params, {{"width", "100"}, {"height", "9"}, {"wg", "32"}}, tree.id);
  const threadmap::Workload w = tree.build(tree, p, 7);
  ASSERT_EQ(w.buffers.size(), 2u);
  EXPECT_EQ(w.buffers[0].elements, 900u);
  EXPECT_EQ(w.buffers[0].row_elements, 100u);  // row = "width": the views draw m 100 wide
  EXPECT_EQ(w.buffers[1].row_elements, 0u);    // sums declares none: a 1-D buffer
  EXPECT_FALSE(w.tile);
  EXPECT_EQ(w.buffers[1].role, threadmap::BufferRole::Output);
  EXPECT_EQ(w.ideal_bytes, (900u + 9u) * 4u);
  ASSERT_EQ(w.launches.size(), 1u);
  EXPECT_EQ(w.launches[0].groups[0], 9u);  // a block per row
  EXPECT_EQ(w.launches[0].group_size[0], 32u);
  ASSERT_EQ(w.launches[0].args.size(), 5u);
  EXPECT_EQ(std::get<threadmap::LocalArrayArg>(w.launches[0].args[2]).bytes, 32u * 4u);
  EXPECT_EQ(std::get<std::int32_t>(w.launches[0].args[3]), 100);
  EXPECT_EQ(w.launches[0].program.defines, (std::vector<std::pair<std::string, std::int64_t>>{{"WG", 32}}));
  ASSERT_EQ(w.reference.launches.size(), 1u);  // the serial reference: a thread per row
  EXPECT_EQ(w.reference.launches[0].kernel, "row_sum_serial");
  EXPECT_EQ(w.reference.launches[0].groups[0], 1u);

  const threadmap::Params too_big =
      threadmap::make_params(tree.params, {{"width", "65536"}, {"height", "65536"}}, tree.id);
  try {
    tree.build(tree, too_big, 7);
    ADD_FAILURE() << "built";
  } catch (const threadmap::InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("the matrix holds at most 2^26 elements"), std::string::npos) << e.what();
  }
}

// A tile declared by the family, replaced by a variant's own, and its limits
// checked with the parameters' values when the workload is built.
TEST(PackVariants, TheTileIsTheVariantsOrElseTheFamilys) {
  std::string text =
      replaced(kManifest, "  [[family.launch]]",
               "  [family.tile]\n  rows = \"wg\"\n  cols = \"wg + 1\"\n  data_cols = \"wg\"\n\n  [[family.launch]]");
  text +=
      "\n  [[family.variant]]\n  id = \"square\"\n  kernel = \"scale_naive\"\n"
      "  tile = { rows = \"n / 8\", cols = \"n / 8\" }\n";
  const auto variants = threadmap::pack::pack_variants(parse(text));
  ASSERT_EQ(variants.size(), 2u);
  const auto build = [&](const threadmap::Variant& v, const std::string& n) {
    return v.build(v, threadmap::make_params(v.params, {{"n", n}, {"wg", "32"}}, v.id), 1);
  };
  EXPECT_EQ(build(variants[0], "1000").tile, (threadmap::SharedTile{32, 33, 32}));
  EXPECT_EQ(build(variants[1], "1000").tile, (threadmap::SharedTile{125, 125, 125}));  // no data_cols: all data
  EXPECT_EQ(build(variants[0], "1000").buffers[0].row_elements, 0u);
  try {
    build(variants[1], "7");  // a side of 0
    ADD_FAILURE() << "built";
  } catch (const threadmap::InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("tile rows = n / 8 is 0, outside 1 to 65536 [pack.toml:"), std::string::npos)
        << e.what();
  }
  const auto wide =
      threadmap::pack::pack_variants(parse(replaced(text, "data_cols = \"wg\"", "data_cols = \"wg + 2\"")));
  try {
    build(wide[0], "1000");
    ADD_FAILURE() << "built";
  } catch (const threadmap::InvalidRequest& e) {
    EXPECT_NE(std::string(e.what()).find("tile data_cols = wg + 2 is 34, outside 1 to 33"), std::string::npos)
        << e.what();
  }
}

// A pack read again may not move its family onto another (a built-in one):
// that is a change of family, which a restart reads.
TEST(PackVariants, AReloadKeepsEachVariantsFamily) {
  threadmap::Variant v = rowsum("rowsum.tree");
  v.id = "reloadcheck.one";
  v.family = "reloadcheck";
  v.pack = "reloadcheck";
  threadmap::add_variants({v});
  v.family = "coalescing";
  EXPECT_THROW(threadmap::update_pack_variants({v}), threadmap::InvalidRequest);
  EXPECT_EQ(threadmap::find_variant("reloadcheck.one")->family, "reloadcheck");
  v.family = "reloadcheck";
  v.title = "read again";
  threadmap::update_pack_variants({v});
  EXPECT_EQ(threadmap::find_variant("reloadcheck.one")->title, "read again");
}

// A pack read again with a variant added and another renamed: the catalog
// lists the new ones where the pack's were, finds the old name no more, and
// a pointer taken before stays valid (the same id replaced in place, the
// renamed one kept as it was last read).
TEST(PackVariants, AReloadAddsAndRenamesVariants) {
  threadmap::Variant one = rowsum("rowsum.tree");
  one.id = "reloadadd.one";
  one.family = "reloadadd";
  one.pack = "reloadadd";
  threadmap::Variant two = one;
  two.id = "reloadadd.two";
  threadmap::add_variants({one, two});
  const threadmap::Variant* kept = threadmap::find_variant("reloadadd.one");
  const threadmap::Variant* renamed = threadmap::find_variant("reloadadd.two");
  ASSERT_TRUE(kept && renamed);
  const std::size_t before = threadmap::catalog().size();

  threadmap::Variant again = one;
  again.title = "read again";
  threadmap::Variant second = one;
  second.id = "reloadadd.second";  // two, renamed
  threadmap::Variant added = one;
  added.id = "reloadadd.three";
  threadmap::update_pack_variants({again, second, added});

  EXPECT_EQ(threadmap::catalog().size(), before + 1);
  EXPECT_EQ(threadmap::find_variant("reloadadd.one"), kept);
  EXPECT_EQ(kept->title, "read again");
  EXPECT_EQ(threadmap::find_variant("reloadadd.two"), nullptr);
  EXPECT_EQ(renamed->id, "reloadadd.two");  // still readable where a window holds it
  ASSERT_TRUE(threadmap::find_variant("reloadadd.second"));
  ASSERT_TRUE(threadmap::find_variant("reloadadd.three"));
  std::vector<std::string> ids;
  for (const threadmap::Variant& v : threadmap::catalog())
    if (v.pack == "reloadadd") ids.push_back(v.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"reloadadd.one", "reloadadd.second", "reloadadd.three"}));
  // Built, a renamed variant runs its new name's build.
  const threadmap::Variant& three = *threadmap::find_variant("reloadadd.three");
  EXPECT_FALSE(three.build(three, threadmap::make_params(three.params, {}, three.id), 1).launches.empty());
  // A clash with another pack's or the built-in catalog's id changes nothing.
  threadmap::Variant clash = one;
  clash.id = "transpose.naive";
  EXPECT_THROW(threadmap::update_pack_variants({again, clash}), threadmap::InvalidRequest);
  EXPECT_TRUE(threadmap::find_variant("reloadadd.three"));
}

TEST(PackVariants, TheCatalogRefusesATakenId) {
  threadmap::Variant clash = rowsum("rowsum.tree");
  clash.id = "transpose.naive";
  const std::size_t before = threadmap::catalog().size();
  EXPECT_THROW(threadmap::add_variants({clash}), threadmap::InvalidRequest);
  clash.id = "rowsum.fresh";
  clash.family = "transpose";
  EXPECT_THROW(threadmap::add_variants({clash}), threadmap::InvalidRequest);
  EXPECT_EQ(threadmap::catalog().size(), before);
}

TEST(PackVariants, RunVerifiedAgainstTheReferenceOnTheDevice) {
  auto td = threadmap::testing::first_device("opencl");
  if (!td.device) GTEST_SKIP() << td.skip_reason;
  threadmap::RunOptions options;
  options.warmup = 0;
  options.repetitions = 1;
  options.end_to_end_repetitions = 1;
  for (const char* type : {"int", "float"}) {
    SCOPED_TRACE(type);
    const std::vector<std::pair<std::string, std::string>> sets{
        {"width", "333"}, {"height", "17"}, {"wg", "64"}, {"type", type}};
    const threadmap::Variant& tree = rowsum("rowsum.tree");
    const threadmap::RunResult good =
        threadmap::run_variant(*td.device, tree, threadmap::make_params(tree.params, sets, tree.id), options);
    ASSERT_EQ(good.status, threadmap::RunStatus::Ok) << good.error;
    EXPECT_TRUE(good.verification.verified) << good.verification.method;
    EXPECT_EQ(good.verification.checked, 17u);
    EXPECT_NE(good.verification.method.find("rowsum.serial"), std::string::npos);

    const threadmap::Variant& wrong = rowsum("rowsum.off_by_one");
    const threadmap::RunResult bad =
        threadmap::run_variant(*td.device, wrong, threadmap::make_params(wrong.params, sets, wrong.id), options);
    ASSERT_EQ(bad.status, threadmap::RunStatus::Ok) << bad.error;
    EXPECT_FALSE(bad.verification.verified);
    EXPECT_GT(bad.verification.mismatches, 0u);
    ASSERT_FALSE(bad.verification.first.empty());
    EXPECT_EQ(bad.verification.first[0].where.rfind("buffer 'sums' element ", 0), 0u);
  }
}

}  // namespace
