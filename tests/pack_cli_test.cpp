// Packs through the real binary (docs/packs.md): --pack on the device
// commands, pack check, pack new.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <iterator>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kernels/engine/devices.h"
#include "tests/cli_runner.h"

namespace {

using threadmap::testing::cli;
using threadmap::testing::Outcome;

const std::string kRowsum = std::string(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum";
const std::string kHistogram = std::string(THREADMAP_SOURCE_DIR) + "/resources/packs/histogram";
const std::string kMatmul = std::string(THREADMAP_SOURCE_DIR) + "/resources/packs/matmul";

std::filesystem::path fresh_folder(const std::string& name) {
  const auto folder =
      std::filesystem::path(::testing::TempDir()) / ("threadmap_pack_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

TEST(PackCli, ListShowsAPacksVariants) {
  const Outcome o = cli("list --pack " + kRowsum);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("rowsum.tree  A block per row, tree in local memory  [pack rowsum]"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("transpose.naive"), std::string::npos) << "the built-in catalog stays";
  const Outcome json = cli("list --format json --pack " + kRowsum);
  EXPECT_NE(json.out.find("\"rowsum.off_by_one\""), std::string::npos);
}

TEST(PackCli, SourcePrintsThePacksFile) {
  const Outcome o = cli("source rowsum.tree --pack " + kRowsum + " --dialect opencl");
  ASSERT_EQ(o.code, 0) << o.err;
  std::stringstream file;
  file << std::ifstream(kRowsum + "/rowsum.cl").rdbuf();
  EXPECT_EQ(o.out, file.str());
  const Outcome cuda = cli("source rowsum.tree --pack " + kRowsum + " --dialect cuda");
  EXPECT_EQ(cuda.code, 2);
  EXPECT_NE(cuda.err.find("pack 'rowsum' has no CUDA (.cu) kernel file"), std::string::npos) << cuda.err;
}

TEST(PackCli, RunsVerifiedOnPoclAndTheKnownWrongKernelFails) {
  REQUIRE_OPENCL();
  const Outcome ok = cli("run rowsum.tree --pack " + kRowsum +
                         " --device opencl:0:0 --set width=777 --set height=33 --reps 2 --format json");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("\"verified\": true"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("compared with the reference rowsum.serial on the same device"), std::string::npos);
  EXPECT_NE(ok.out.find("\"ideal_bytes\": " + std::to_string((777 * 33 + 33) * 4)), std::string::npos) << ok.out;

  const Outcome wrong = cli("run rowsum.off_by_one --pack " + kRowsum +
                            " --device opencl:0:0 --set width=777 --set height=33 --set type=int --reps 1");
  EXPECT_EQ(wrong.code, 1) << wrong.out << wrong.err;

  const Outcome sweep =
      cli("sweep rowsum.tree --pack " + kRowsum +
          " --device opencl:0:0 --vary wg=32,64 --set width=100 --set height=7 --reps 1 --format csv");
  EXPECT_EQ(sweep.code, 0) << sweep.err;
  EXPECT_EQ(std::count(sweep.out.begin(), sweep.out.end(), '\n'), 3) << sweep.out;
}

TEST(PackCli, ARequireRuleAndAnUnknownIdAreUsageErrors) {
  const Outcome rule =
      cli("run rowsum.tree --pack " + kRowsum + " --set width=65536 --set height=65536 --device opencl:0:0");
  EXPECT_EQ(rule.code, 2);
  EXPECT_NE(rule.err.find(
                "the matrix holds at most 2^26 elements (width * height <= 67108864 with width=65536, height=65536)"),
            std::string::npos)
      << rule.err;
  const Outcome without = cli("run rowsum.tree");
  EXPECT_EQ(without.code, 2) << "without --pack the catalog has no such kernel";
  const Outcome twice = cli("list --pack " + kRowsum + " --pack " + kRowsum);
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("rowsum.serial (pack 'rowsum') is already in the catalog, from pack 'rowsum'"),
            std::string::npos)
      << twice.err;
}

TEST(PackCli, RecordTracesAPacksKernel) {
  REQUIRE_OPENCL();
  const auto folder = fresh_folder("record");
  const std::string session = (folder / "tree.threadmap").string();
  const Outcome rec = cli("record rowsum.tree --pack " + kRowsum +
                          " --device opencl:0:0 --set width=300 --set height=6 --set wg=32 --reps 1 -o " + session);
  ASSERT_EQ(rec.code, 0) << rec.out << rec.err;
  EXPECT_NE(rec.out.find("verified; traced run verified"), std::string::npos) << rec.out;
  const Outcome show = cli("show " + session);
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("row_sum_tree"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("rowsum.cl"), std::string::npos) << "the trace names the pack's file";
  EXPECT_NE(show.out.find("scratch[t] += scratch[t + active]"), std::string::npos) << "and its lines";

  // A traced size other than the timed one runs its own reference first.
  const Outcome smaller = cli("record rowsum.off_by_one --pack " + kRowsum +
                              " --device opencl:0:0 --set width=300 --set height=6 --trace-set width=40 --reps 1 -o " +
                              (folder / "wrong.threadmap").string());
  EXPECT_EQ(smaller.code, 1) << smaller.out << smaller.err;
  EXPECT_NE(smaller.out.find("NOT VERIFIED; traced run NOT VERIFIED"), std::string::npos) << smaller.out;

  const Outcome counters = cli("counters rowsum.tree --pack " + kRowsum +
                               " --device opencl:0:0 --set width=64 --set height=4 --set wg=32 --format json");
  EXPECT_EQ(counters.code, 0) << counters.err;
  EXPECT_NE(counters.out.find("\"verified\": true"), std::string::npos) << counters.out;
  std::filesystem::remove_all(folder);
}

TEST(PackCli, PackCheckPassesOnTheTestPack) {
  REQUIRE_OPENCL();
  const Outcome o = cli("pack check " + kRowsum);
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("ok    rowsum.off_by_one: known_wrong, and it fails verification, as it must"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("pack check: passed, 9 runs"), std::string::npos) << o.out;
}

// The built-in lessons are a manifest read by the packs' loader: pack check
// runs their 22 variants at their defaults and check points, verified
// against the C++ workloads' references; a variant needing sub-group
// shuffles is passed over on a device without them.
TEST(PackCli, PackCheckPassesOnTheBuiltInLessons) {
  REQUIRE_OPENCL();
  const Outcome o = cli("pack check lessons");
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("pack lessons: 4 families, 24 variants"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("-     matadd.cols_simd: not written in OpenCL C"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("ok    transpose.coalesced  odd height=70 tile=8 width=37: verified (2590 elements)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("ok    smem.setRowReadColRectDynPad  small blocks"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("ok    reduce.sequential  odd n=100003 type=int wg=64: verified"), std::string::npos) << o.out;
  // Its exercises too: each solution meets its goal, each start does not.
  for (const char* id : {"transpose-coalesced-read", "transpose-pad", "matadd-coalesced", "reduce-tree",
                         "smem-conflict-free"}) {
    EXPECT_NE(o.out.find(std::string("ok    exercise ") + id + "  " + id + ".solution.cl: goal met"),
              std::string::npos)
        << id << "\n"
        << o.out;
    EXPECT_NE(o.out.find(std::string("ok    exercise ") + id + "  " + id + ".start.cl: "), std::string::npos)
        << id << "\n"
        << o.out;
  }
  EXPECT_EQ(o.out.find("FAIL"), std::string::npos) << o.out;
}

// A histogram's atomics are in its trace: each warp's shared count is one
// shared atomic request, each block's merge into the global bins one global
// reduction (its old value unused) per warp, and counting into bins never
// cleared reads shared memory no thread wrote. Its bins (role "both") start
// from zeros in every run.
TEST(PackCli, AHistogramsAtomicsAreTracedAndCounted) {
  REQUIRE_OPENCL();
  const std::string sizes = " --device opencl:0:0 --set n=4096 --set wg=256 --set bins=256";
  const Outcome check = cli("pack check " + kHistogram);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  const Outcome shared =
      cli("counters histogram.shared --pack " + kHistogram + sizes + " --set blocks=4 --format json");
  ASSERT_EQ(shared.code, 0) << shared.out << shared.err;
  const auto totals = nlohmann::json::parse(shared.out).at("totals");
  EXPECT_EQ(totals.at("smsp__inst_executed_op_shared_atom.sum"), 4096 / 32) << "4 values a thread, 32 lanes a warp";
  EXPECT_EQ(totals.at("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"), 4 * 256 / 32) << "each block's bins";
  EXPECT_EQ(totals.at("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"), 4 * 256 * 4 / 32) << "a word per lane";
  EXPECT_EQ(totals.at("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 0);
  EXPECT_EQ(totals.at("smsp__inst_executed_op_shared_st.sum"), 4 * 256 / 32) << "the bins cleared, plain stores";
  const Outcome text = cli("counters histogram.shared --pack " + kHistogram + sizes + " --set blocks=4");
  EXPECT_NE(text.out.find("shared atomic       128"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Problems found in the trace: none"), std::string::npos) << text.out;

  const Outcome global = cli("counters histogram.global --pack " + kHistogram + sizes + " --set hot=1 --format json");
  ASSERT_EQ(global.code, 0) << global.out << global.err;
  const auto hot = nlohmann::json::parse(global.out).at("totals");
  EXPECT_EQ(hot.at("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"), 4096 / 32);
  EXPECT_GT(hot.at("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum").get<int>(), 4096 / 32 * 16)
      << "seven lanes in eight on bin 0: each warp's pass over it is its lanes there";

  const Outcome no_zero = cli("counters histogram.no_zero --pack " + kHistogram + sizes + " --set blocks=4");
  EXPECT_EQ(no_zero.code, 1) << no_zero.out << no_zero.err;
  EXPECT_NE(no_zero.out.find("uninitialised read of shared offset"), std::string::npos) << no_zero.out;
  EXPECT_NE(no_zero.out.find("updates it at line 36 before any thread of the block wrote it"), std::string::npos)
      << no_zero.out;
}

// The matrix-multiply pack verifies at odd and rectangular sizes, and its
// tiles do what its lesson says: TILE times fewer global loads, and four
// outputs a thread need 1.25 shared loads per output instead of 2.
TEST(PackCli, AMatmulPacksTilesCutItsGlobalLoads) {
  REQUIRE_OPENCL();
  const Outcome check = cli("pack check " + kMatmul);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  auto totals = [](const std::string& variant) {
    const Outcome o = cli("counters matmul." + variant + " --pack " + kMatmul +
                          " --device opencl:0:0 --set m=128 --set n=128 --set k=128 --set tile=16 --format json");
    EXPECT_EQ(o.code, 0) << o.err;
    return nlohmann::json::parse(o.out).at("totals");
  };
  const auto naive = totals("naive"), tiled = totals("tiled"), four = totals("tiled_4");
  const char* loads = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  const char* shared_loads = "smsp__inst_executed_op_shared_ld.sum";
  EXPECT_EQ(naive.at(loads), 2 * 128 * 128 * 128 / 32) << "a load of A and one of B per product";
  EXPECT_EQ(tiled.at(loads), naive.at(loads).get<int>() / 16);
  EXPECT_EQ(tiled.at(shared_loads), 2 * 128 * 128 * 128 / 32);
  EXPECT_EQ(four.at(shared_loads), 5 * 128 * 128 * 128 / 4 / 32);
}

// A pack's exercises join the list and are graded as the built-in ones:
// `pack check` requires each solution to meet its goal and each start not
// to; `check --pack` grades a learner's file; `exercises --pack` lists them
// with a start in each dialect.
TEST(PackCli, APacksExercisesAreListedAndGraded) {
  REQUIRE_OPENCL();
  const Outcome listed = cli("exercises --pack " + kMatmul + " --pack " + kHistogram + " --format json");
  ASSERT_EQ(listed.code, 0) << listed.err;
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& e : nlohmann::json::parse(listed.out)) by_id[e.at("id")] = e;
  ASSERT_TRUE(by_id.count("matmul-tile") && by_id.count("histogram-privatise")) << listed.out;
  for (const char* id : {"matmul-tile", "histogram-privatise"})
    for (const char* dialect : {"cuda", "opencl"})
      EXPECT_TRUE(by_id[id].at("starts").contains(dialect)) << id << " " << dialect;
  EXPECT_EQ(by_id["matmul-tile"].at("kernel"), "matmul.naive");
  EXPECT_TRUE(by_id.count("transpose-pad")) << "the built-in ones still there";

  const Outcome check = cli("pack check " + kHistogram);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("ok    exercise histogram-privatise  exercises/privatise.solution.cl: goal met"),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("ok    exercise histogram-privatise  exercises/privatise.start.cl: goal not met"),
            std::string::npos)
      << check.out;

  // A learner's file that counts in shared memory but still adds every
  // value to the global bins: verified, and not the goal.
  const auto folder = fresh_folder("cheat");
  std::ifstream in(kHistogram + "/exercises/privatise.solution.cl");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string merge = "for (int b = get_local_id(0); b < BINS; b += WG) atomic_add(&bins[b], counts[b]);";
  ASSERT_NE(text.find(merge), std::string::npos);
  text.replace(text.find(merge), merge.size(),
               "for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&bins[BIN(values[i])]);");
  std::ofstream(folder / "both.cl") << text;
  const Outcome graded = cli("check histogram-privatise " + (folder / "both.cl").string() + " --pack " + kHistogram);
  EXPECT_EQ(graded.code, 1) << graded.out << graded.err;
  EXPECT_NE(graded.out.find("goal not met: global_atomic_requests <= 0.1 x global_ld_requests"), std::string::npos)
      << graded.out;

  // A start that does not compile fails pack check: a learner could not begin from it.
  std::filesystem::copy(kHistogram, folder / "histogram", std::filesystem::copy_options::recursive);
  std::ofstream(folder / "histogram/exercises/privatise.start.cl") << "__kernel void hist_shared( {\n";
  const Outcome broken = cli("pack check " + (folder / "histogram").string());
  EXPECT_EQ(broken.code, 1) << broken.out << broken.err;
  EXPECT_NE(broken.out.find("FAIL  exercise histogram-privatise  exercises/privatise.start.cl: not compiled"),
            std::string::npos)
      << broken.out;
}

// A copy of the test pack with one line of its manifest replaced.
std::filesystem::path rowsum_with(const std::string& name, const std::string& from, const std::string& to) {
  const auto folder = fresh_folder(name);
  std::filesystem::copy(kRowsum, folder / "rowsum", std::filesystem::copy_options::recursive);
  const auto manifest = folder / "rowsum" / "pack.toml";
  std::stringstream text;
  text << std::ifstream(manifest).rdbuf();
  std::string edited = text.str();
  const std::size_t at = edited.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) edited.replace(at, from.size(), to);
  std::ofstream(manifest) << edited;
  return folder / "rowsum";
}

// Broken packs that every variant of passed before. With the buffers out of
// the kernels' order a kernel reads past the small one: on PoCL that crashes
// the process running it (pack check said nothing then), elsewhere no kernel
// writes `sums` and every variant matched the reference's untouched poison;
// either way the cause is named. A reference grid that covers half the
// rows leaves half of `sums` unwritten; with the __local buffer two elements
// short every variant verified on the CPU while writing past its end.
TEST(PackCli, PackCheckFailsABrokenPackNamingTheCause) {
  REQUIRE_OPENCL();
  const auto swapped = rowsum_with("swapped", "arguments = [\"m\", \"sums\",", "arguments = [\"sums\", \"m\",");
  const Outcome o = cli("pack check " + swapped.string());
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("are the family's arguments in the kernel's order"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("FAIL  the reference variant rowsum.serial at defaults"), std::string::npos) << o.out;

  const auto half = rowsum_with("half", "grid = [\"ceil_div(height, wg)\"]", "grid = [\"ceil_div(height, 2 * wg)\"]");
  const Outcome h = cli("pack check " + half.string());
  EXPECT_EQ(h.code, 1) << h.out << h.err;
  EXPECT_NE(h.out.find("FAIL  rowsum.serial  defaults: the reference variant's output 'sums' element 256 of 512 keeps "
                       "what the buffer held before the run: the kernel never writes it (are the family's arguments in "
                       "the kernel's order, and does the grid cover every element?)"),
            std::string::npos)
      << h.out;

  const auto short_local = rowsum_with("short", "bytes = \"wg * sizeof(type)\"", "bytes = \"(wg - 2) * sizeof(type)\"");
  const Outcome s = cli("pack check " + short_local.string());
  EXPECT_EQ(s.code, 1) << s.out << s.err;
  EXPECT_NE(s.out.find("FAIL  rowsum.tree  defaults: its trace shows a problem: out of bounds:"), std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("in no shared array of the block"), std::string::npos) << s.out;
}

// A pack's kernel file that is a link to a file outside the pack's folder is
// refused at its manifest line: its text would reach the compiler's messages
// and, through a worker, another machine. A FIFO there is refused at once.
TEST(PackCli, APacksFileLinkingOutOfItsFolderOrAFifoIsRefused) {
  const auto folder = fresh_folder("escape");
  std::filesystem::copy(kRowsum, folder / "rowsum", std::filesystem::copy_options::recursive);
  const auto kernel = folder / "rowsum" / "rowsum.cl";
  std::filesystem::rename(kernel, folder / "elsewhere.cl");
  std::filesystem::create_symlink(folder / "elsewhere.cl", kernel);
  const Outcome o = cli("list --pack " + (folder / "rowsum").string());
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("pack.toml:"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("outside the folder"), std::string::npos) << o.err;
  std::filesystem::remove(kernel);
  ASSERT_EQ(mkfifo(kernel.c_str(), 0600), 0);
  const Outcome fifo = cli("list --pack " + (folder / "rowsum").string());
  EXPECT_EQ(fifo.code, 2) << fifo.out << fifo.err;
  EXPECT_NE(fifo.err.find("is a FIFO (named pipe)"), std::string::npos) << fifo.err;
  std::filesystem::remove_all(folder);
}

// A grid of 2^32 blocks killed run and pack check (SIGFPE inside PoCL): a
// constant size no device takes is refused as the manifest is read, at its line.
TEST(PackCli, AGridNoDeviceTakesIsRefusedAtItsLine) {
  const auto pack = rowsum_with("huge_grid", "grid = [\"ceil_div(height, wg)\"]", "grid = [\"4294967296\"]");
  const Outcome o = cli("pack check " + pack.string());
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("pack.toml:90:13: grid[0] is 4294967296: blocks in a dimension are 1 to 2147483647"),
            std::string::npos)
      << o.err;
}

// A pack's title and summary are a stranger's text: list shows a terminal
// escape as \x1b and a bidi control (Trojan Source) as \u202e, never obeys them.
TEST(PackCli, ListShowsAPacksEscapesAndBidiControlsInsteadOfObeyingThem) {
  const auto pack = rowsum_with("escapes", "title = \"A block per row, tree in local memory\"",
                                "title = \"A block \\u001b[2J per \\u202erow\"");
  const Outcome o = cli("list --pack " + pack.string());
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("A block \\x1b[2J per \\u202erow"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(o.out.find("\xe2\x80\xae"), std::string::npos);
}

TEST(PackCli, PackCheckFailsWhenAKnownWrongKernelVerifiesOrAGoodOneDoesNot) {
  REQUIRE_OPENCL();
  const auto folder = fresh_folder("broken");
  std::filesystem::copy(kRowsum, folder / "rowsum", std::filesystem::copy_options::recursive);
  const auto manifest = folder / "rowsum" / "pack.toml";
  std::stringstream text;
  text << std::ifstream(manifest).rdbuf();
  std::string edited = text.str();
  // The good tree marked known_wrong: it verifies everywhere, which fails the check.
  edited.replace(edited.find("  kernel = \"row_sum_tree\"\n"), 26,
                 "  kernel = \"row_sum_tree\"\n  known_wrong = true\n");
  std::ofstream(manifest) << edited;
  const Outcome o = cli("pack check " + (folder / "rowsum").string());
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("FAIL  rowsum.tree: marked known_wrong, but it verified at every check point"),
            std::string::npos)
      << o.out;

  // A good kernel broken: the tree skips every other stride of the row.
  std::filesystem::remove_all(folder / "rowsum");
  std::filesystem::copy(kRowsum, folder / "rowsum", std::filesystem::copy_options::recursive);
  const auto kernel = folder / "rowsum" / "rowsum.cl";
  std::stringstream source;
  source << std::ifstream(kernel).rdbuf();
  std::string broken = source.str();
  const std::string good_loop = "for (int x = t; x < width; x += WG) s += m[r * width + x];";
  broken.replace(broken.find(good_loop), good_loop.size(),
                 "for (int x = t; x < width; x += 2 * WG) s += m[r * width + x];");
  std::ofstream(kernel) << broken;
  const Outcome bad = cli("pack check " + (folder / "rowsum").string());
  EXPECT_EQ(bad.code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("FAIL  rowsum.tree  defaults: NOT verified"), std::string::npos) << bad.out;
  std::filesystem::remove_all(folder);
}

TEST(PackCli, AManifestMistakeIsExit2WithItsPlace) {
  const auto folder = fresh_folder("mistake");
  std::ofstream(folder / "pack.toml") << "[pack]\nname = \"x\"\n\n[[family]]\nid = \"f\"\nopencl = \"f.cl\"\n";
  const Outcome o = cli("pack check " + folder.string());
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.err, "threadmap-cli: error: " + (folder / "pack.toml").string() +
                       ":6:10: cannot read the kernel file 'f.cl' in " + folder.string() + "\n");
  const Outcome run = cli("run f.v --pack " + folder.string());
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("pack.toml:6:10: cannot read the kernel file"), std::string::npos) << run.err;
  std::filesystem::remove_all(folder);
}

// Two packs of one name (other families) are refused: the name keys a
// pack's variants and exercises, so the second would take the first's.
TEST(PackCli, TwoPacksOfOneNameAreRefused) {
  const auto twin = fresh_folder("twin");
  std::filesystem::copy(kRowsum, twin, std::filesystem::copy_options::recursive);
  std::ifstream in(twin / "pack.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::string family = "id = \"rowsum\"";
  ASSERT_NE(text.find(family), std::string::npos);
  text.replace(text.find(family), family.size(), "id = \"rowsum2\"");
  std::ofstream(twin / "pack.toml") << text;
  EXPECT_EQ(cli("list --pack " + twin.string()).code, 0);
  const Outcome both = cli("list --pack " + kRowsum + " --pack " + twin.string());
  EXPECT_EQ(both.code, 2) << both.out;
  EXPECT_NE(both.err.find(twin.string() + ": a pack named 'rowsum' is given already, from " + kRowsum),
            std::string::npos)
      << both.err;
  std::filesystem::remove_all(twin);
}

TEST(PackCli, PackNewWritesAPackThatChecksAndRuns) {
  REQUIRE_OPENCL();
  const auto folder = fresh_folder("new");
  const std::string pack = (folder / "vectors").string();
  const Outcome made = cli("pack new " + pack);
  ASSERT_EQ(made.code, 0) << made.err;
  EXPECT_TRUE(std::filesystem::is_regular_file(folder / "vectors" / "pack.toml"));
  EXPECT_TRUE(std::filesystem::is_regular_file(folder / "vectors" / "scale.cl"));
  EXPECT_TRUE(std::filesystem::is_regular_file(folder / "vectors" / "scale.cu"));
  const Outcome check = cli("pack check " + pack);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("pack check: passed, 6 runs"), std::string::npos) << check.out;
  const Outcome run = cli("run scale.grid_stride --pack " + pack + " --device opencl:0:0 --set n=100000 --reps 2");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("verified: 100000 values"), std::string::npos) << run.out;
  const Outcome again = cli("pack new " + pack);
  EXPECT_EQ(again.code, 2) << "never over an existing folder";
  const Outcome bad_name = cli("pack new " + (folder / "Bad Name").string());
  EXPECT_EQ(bad_name.code, 2);
  std::filesystem::remove_all(folder);
}

}  // namespace

namespace {

// The rowsum pack with its CUDA kernels too (tests/data/packs/rowsum_cuda).
std::filesystem::path rowsum_with_cuda(const std::string& name) {
  const auto folder = fresh_folder(name);
  std::filesystem::copy_file(kRowsum + "/rowsum.cl", folder / "rowsum.cl");
  std::filesystem::copy_file(kRowsum + "_cuda/rowsum.cu", folder / "rowsum.cu");
  std::stringstream manifest;
  manifest << std::ifstream(kRowsum + "/pack.toml").rdbuf();
  std::string text = manifest.str();
  text.insert(text.find("opencl = \"rowsum.cl\"\n") + 21, "cuda = \"rowsum.cu\"\n");
  std::ofstream(folder / "pack.toml") << text;
  return folder;
}

// A bundled pack by name: the build tree's program reads the source tree's;
// a copy outside the build tree with no share/threadmap/packs beside it (an
// installation missing its packs) reads none, and says so, rather than a
// source tree that only the build machine has.
TEST(PackCli, ABundledPackComesFromTheInstallationOrTheBuildTree) {
  EXPECT_EQ(cli("list --pack histogram").code, 0);
  const auto prefix = fresh_folder("installed");
  std::filesystem::create_directories(prefix / "bin");
  const auto copy = prefix / "bin" / "threadmap-cli";
  std::filesystem::copy_file(THREADMAP_CLI, copy);
  const Outcome lost = threadmap::testing::run_program(copy.string(), "list --pack histogram");
  EXPECT_EQ(lost.code, 2) << lost.out;
  EXPECT_NE(lost.err.find("histogram: no such folder here, nor a pack of that name among ThreadMap's own "
                          "(share/threadmap/packs is missing)"),
            std::string::npos)
      << lost.err;
  const Outcome misspelt = cli("list --pack histogrm");
  EXPECT_EQ(misspelt.code, 2);
  EXPECT_NE(misspelt.err.find("histogrm: no such folder here, nor a pack of that name among ThreadMap's own "
                             "(histogram, matmul, in "),
            std::string::npos)
      << misspelt.err;
  std::filesystem::create_directories(prefix / "share" / "threadmap" / "packs");
  std::filesystem::copy(kHistogram, prefix / "share" / "threadmap" / "packs" / "histogram",
                        std::filesystem::copy_options::recursive);
  const Outcome found = threadmap::testing::run_program(copy.string(), "list --pack histogram");
  EXPECT_EQ(found.code, 0) << found.err;
  EXPECT_NE(found.out.find("histogram.shared"), std::string::npos) << found.out;
  std::filesystem::remove_all(prefix);
}

// The test pack's CUDA kernels compiled for two architectures, timed, traced
// and clock pass, with no GPU; a broken copy fails naming its line.
TEST(PackCli, PackCheckArchCompilesTheCudaKernelsWithoutAGpu) {
  const auto pack = rowsum_with_cuda("arch");
  const Outcome o = cli("pack check " + pack.string() + " --arch sm_75,sm_90");
  if (o.out.find("compiling its CUDA kernels") == std::string::npos && o.err.find("CUDA") != std::string::npos &&
      o.err.find("pack.toml") == std::string::npos)
    GTEST_SKIP() << "no CUDA compiler: " << o.err;
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("ok    rowsum.tree: compiled"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("pack check --arch: passed"), std::string::npos) << o.out;

  std::filesystem::remove_all(pack);
  const auto folder = rowsum_with_cuda("broken_cuda");
  std::ifstream in(folder / "rowsum.cu");
  std::stringstream text;
  text << in.rdbuf();
  std::string broken = text.str();
  const std::size_t at = broken.find("scratch[t] = s;");
  ASSERT_NE(at, std::string::npos);
  broken.replace(at, 15, "scratch[t] = s +;");
  std::ofstream(folder / "rowsum.cu") << broken;
  const Outcome bad = cli("pack check " + folder.string() + " --arch sm_90");
  EXPECT_EQ(bad.code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("FAIL  rowsum.tree: does not compile for sm_90"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("rowsum.cu(22): error"), std::string::npos) << bad.out;
  std::filesystem::remove_all(folder);

  // The built-in lessons by name: every catalog kernel, at every check point.
  const Outcome lessons = cli("pack check lessons --arch sm_90");
  EXPECT_EQ(lessons.code, 0) << lessons.out << lessons.err;
  EXPECT_NE(lessons.out.find("ok    smem.setRowReadColRectDynPad: compiled"), std::string::npos) << lessons.out;
  EXPECT_NE(lessons.out.find("ok    reduce.warp_shuffle: compiled"), std::string::npos) << lessons.out;

  // A bundled pack by its name, its exercise's CUDA files compiled too.
  const Outcome bundled = cli("pack check histogram --arch sm_90");
  EXPECT_EQ(bundled.code, 0) << bundled.out << bundled.err;
  EXPECT_NE(bundled.out.find("ok    exercise histogram-privatise  exercises/privatise.start.cu: compiled"),
            std::string::npos)
      << bundled.out;
  EXPECT_NE(bundled.out.find("ok    exercise histogram-privatise  exercises/privatise.solution.cu: compiled"),
            std::string::npos)
      << bundled.out;
}

// On a CUDA device the pack's .cu kernels run verified, the known-wrong one
// fails, and a traced recording names the .cu file's lines.
TEST(PackCli, PackRunsOnCuda) {
  if (!threadmap::testing::has_cuda_device())
    GTEST_SKIP() << "no CUDA device found (the pack's .cu kernels run on an NVIDIA GPU)";
  const auto pack = rowsum_with_cuda("cuda_check");
  const Outcome check = cli("pack check " + pack.string() + " --device cuda:0");
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("ok    rowsum.off_by_one: known_wrong, and it fails verification, as it must"),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("pack check: passed, 9 runs"), std::string::npos) << check.out;
  const auto folder = fresh_folder("cuda_record");
  const std::string session = (folder / "tree.threadmap").string();
  const Outcome rec = cli("record rowsum.tree --pack " + pack.string() +
                          " --device cuda:0 --set width=300 --set height=6 --set wg=32 --reps 1 -o " + session);
  ASSERT_EQ(rec.code, 0) << rec.out << rec.err;
  EXPECT_NE(rec.out.find("verified; traced run verified"), std::string::npos) << rec.out;
  const Outcome show = cli("show " + session);
  EXPECT_NE(show.out.find("rowsum.cu"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("scratch[t] += scratch[t + active]"), std::string::npos) << show.out;
  std::filesystem::remove_all(folder);
  std::filesystem::remove_all(pack);
}

}  // namespace
