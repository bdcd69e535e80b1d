// OutputFile (kernels/core/output_file.h), the one way ThreadMap writes a file:
// never over a device, a FIFO or a link, never over an input, never through a
// name planted beforehand, whole or not at all (a full disk, a size limit, an
// abandoned write, SIGTERM), and stale temporary files of dead processes go.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "kernels/core/output_file.h"

namespace threadmap {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("threadmap_output_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  // Every entry of the folder but the named ones: temporary files left behind.
  std::vector<std::string> others(std::initializer_list<std::string> expected) const {
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (std::find(expected.begin(), expected.end(), name) == expected.end()) left.push_back(name);
    }
    return left;
  }
  static std::string refusal(const fs::path& target, std::initializer_list<fs::path> inputs = {}) {
    try {
      write_file(target, "new", Durability::Synced, std::span(inputs.begin(), inputs.size()));
    } catch (const OutputError& e) {
      return e.what();
    }
    return "written";
  }
  fs::path dir_;
};

TEST_F(OutputFileTest, WritesWholeAndReplacesAtomically) {
  const fs::path target = dir_ / "a.txt";
  put(target, "old");
  ::chmod(target.c_str(), 0640);
  {
    OutputFile out(target);
    out.stream() << "new contents";
    EXPECT_EQ(read(target), "old") << "the target is untouched until commit";
    EXPECT_EQ(others({"a.txt"}).size(), 1u) << "one temporary file beside it";
    out.commit();
  }
  EXPECT_EQ(read(target), "new contents");
  EXPECT_TRUE(others({"a.txt"}).empty());
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "a file written over keeps its permissions";
}

TEST_F(OutputFileTest, RefusesWhatIsNotARegularFile) {
  // /dev/null stays a character device (as root, rename would replace it).
  EXPECT_NE(refusal("/dev/null").find("/dev/null is a character device"), std::string::npos) << refusal("/dev/null");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));

  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(refusal(fifo).find("is a FIFO"), std::string::npos) << refusal(fifo);
  EXPECT_TRUE(fs::is_fifo(fifo));

  const fs::path victim = dir_ / "victim.txt";
  put(victim, "precious");
  const fs::path link = dir_ / "link.threadmap";
  fs::create_symlink(victim, link);
  EXPECT_NE(refusal(link).find("is a symbolic link"), std::string::npos) << refusal(link);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(victim), "precious");

  EXPECT_NE(refusal(dir_).find("is a folder"), std::string::npos) << refusal(dir_);
  EXPECT_NE(refusal(dir_ / "no" / "such.txt").find("does not exist"), std::string::npos);
  EXPECT_TRUE(others({"pipe", "victim.txt", "link.threadmap"}).empty());
}

TEST_F(OutputFileTest, RefusesToWriteOverAnInput) {
  const fs::path input = dir_ / "mine.cl";
  put(input, "__kernel void k() {}");
  EXPECT_NE(refusal(input, {input}).find("is the input"), std::string::npos);
  // The same file under another spelling, and through a hard link.
  EXPECT_NE(refusal(dir_ / "." / "mine.cl", {input}).find("is the input"), std::string::npos);
  fs::create_hard_link(input, dir_ / "alias.cl");
  EXPECT_NE(refusal(dir_ / "alias.cl", {input}).find("is the input"), std::string::npos);
  EXPECT_EQ(read(input), "__kernel void k() {}");
  EXPECT_EQ(refusal(dir_ / "other.cl", {input}), "written");
}

// A folder this process cannot write into is said by output_problem, so a
// command that checks its output first (record -o) says it before opening a
// device and compiling (34 s cold, before). Root writes anywhere: skipped.
TEST_F(OutputFileTest, AFolderNotWritableIsSaidBeforeAnyWork) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write into any folder: run as another user to test this";
  const fs::path locked = dir_ / "locked";
  fs::create_directories(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_NE(output_problem(locked / "s.threadmap").find("is not writable"), std::string::npos);
  fs::permissions(locked, fs::perms::owner_all);
  EXPECT_EQ(output_problem(locked / "s.threadmap"), "");
}

// The old writer opened "<target>.tmp-<pid>" with truncation: a link planted
// there redirected the write. The temporary name cannot be guessed, and it is
// created exclusively, not through a link.
TEST_F(OutputFileTest, APlantedLinkIsNeverFollowed) {
  const fs::path victim = dir_ / "victim.txt";
  put(victim, "precious");
  const fs::path target = dir_ / "t.threadmap";
  for (const std::string& guess : {target.string() + ".tmp-" + std::to_string(::getpid()), target.string() + ".tmp",
                                   (dir_ / ".t.threadmap.threadmap-tmp").string()})
    fs::create_symlink(victim, guess);
  OutputFile out(target);
  out.stream() << "session";
  struct stat st {};
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".threadmap-tmp") || fs::is_symlink(e.path())) continue;
    ASSERT_EQ(::lstat(e.path().c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode)) << name;
    EXPECT_NE(name.find("." + std::to_string(::getpid()) + "."), std::string::npos) << name;
  }
  out.commit();
  EXPECT_EQ(read(target), "session");
  EXPECT_EQ(read(victim), "precious");
}

TEST_F(OutputFileTest, AnAbandonedWriteLeavesTheTargetAsItWas) {
  const fs::path target = dir_ / "chart.png";
  put(target, "old");
  {
    OutputFile out(target);
    out.stream() << "half a file";
  }
  EXPECT_EQ(read(target), "old");
  EXPECT_TRUE(others({"chart.png"}).empty());
}

TEST_F(OutputFileTest, OverTheSizeLimitNothingIsWritten) {
  const fs::path target = dir_ / "s.threadmap";
  put(target, "old");
  OutputFile out(target, Durability::Synced, {}, 100000);
  out.stream() << std::string(200000, 'x');
  try {
    out.commit();
    ADD_FAILURE() << "a file over its limit was written";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than the limit of 100000 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(target), "old");
  EXPECT_TRUE(others({"s.threadmap"}).empty());
}

// A full disk, as the process sees it: RLIMIT_FSIZE makes writes past a size
// fail (EFBIG), in a child so the limit stays there.
TEST_F(OutputFileTest, AFullDiskLeavesTheOldFileAndNoTemporary) {
  const fs::path target = dir_ / "old.gif";
  put(target, "the old animation");
  const pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file(target, std::string(1 << 20, 'g'));
    } catch (const OutputError& e) {
      _exit(std::string(e.what()).find("cannot write") != std::string::npos ? 0 : 2);
    }
    _exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the write succeeded; 2: the message does not say what failed";
  EXPECT_EQ(read(target), "the old animation");
  EXPECT_TRUE(others({"old.gif"}).empty());
}

TEST_F(OutputFileTest, SigtermAndSigintRemoveTheTemporaryFile) {
  for (const int sig : {SIGTERM, SIGINT}) {
    const fs::path target = dir_ / "big.threadmap";
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    if (child == 0) {
      OutputFile out(target);
      out.stream() << std::string(1 << 20, 's') << std::flush;
      const char byte = 1;
      (void)!::write(ready[1], &byte, 1);
      for (;;) ::pause();
    }
    ::close(ready[1]);
    char byte = 0;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::close(ready[0]);
    EXPECT_EQ(others({}).size(), 1u) << "the child's temporary file exists while it writes";
    ::kill(child, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "the process still ends by the signal";
    EXPECT_TRUE(others({}).empty()) << "signal " << sig << " left " << (others({}).empty() ? "" : others({})[0]);
    EXPECT_FALSE(fs::exists(target));
  }
}

TEST_F(OutputFileTest, StaleTemporariesOfDeadProcessesGoOnTheNextSave) {
  const pid_t child = ::fork();
  if (child == 0) _exit(0);
  ::waitpid(child, nullptr, 0);  // a PID that no longer runs
  const std::string stale = ".x.threadmap." + std::to_string(child) + ".0123456789abcdef.threadmap-tmp";
  const std::string live = ".y.threadmap." + std::to_string(::getppid()) + ".0123456789abcdef.threadmap-tmp";
  put(dir_ / stale, "left by a killed process");
  put(dir_ / live, "another process, still writing");
  put(dir_ / "unrelated.tmp", "not ours");
  write_file(dir_ / "z.threadmap", "new");
  EXPECT_FALSE(fs::exists(dir_ / stale));
  EXPECT_TRUE(fs::exists(dir_ / live));
  EXPECT_TRUE(fs::exists(dir_ / "unrelated.tmp"));
}

}  // namespace
}  // namespace threadmap
