// The device's timing lock (kernels/engine/timing_lock.h): one holder at a time,
// a waiter told how many are ahead, a hostile lock path never followed.
#include "kernels/engine/timing_lock.h"

#include "tests/cpu_hogs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace threadmap {
namespace {

// Points THREADMAP_LOCK_DIR at a folder of this test's own while it lives.
class LockFolder {
 public:
  LockFolder()
      : path_(::testing::TempDir() + "threadmap_locks_" + std::to_string(getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    setenv("THREADMAP_LOCK_DIR", path_.c_str(), 1);
  }
  ~LockFolder() {
    unsetenv("THREADMAP_LOCK_DIR");
    std::filesystem::remove_all(path_);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

DeviceInfo some_device(const std::string& name = "Test GPU") {
  DeviceInfo d;
  d.backend = "opencl";
  d.platform = "Test platform";
  d.name = name;
  d.vendor = "Test vendor";
  d.version = "OpenCL 3.0";
  return d;
}

TEST(TimingLock, PathIsNamedByTheDeviceNotByItsIndex) {
  LockFolder folder;
  DeviceInfo a = some_device();
  DeviceInfo b = a;
  b.spec = "opencl:1:0";  // the same device seen through another index
  EXPECT_EQ(timing_lock_path(a), timing_lock_path(b));
  EXPECT_NE(timing_lock_path(a), timing_lock_path(some_device("Another GPU")));
  EXPECT_EQ(timing_lock_path(a).rfind(folder.path() + "/threadmap-device-", 0), 0u) << timing_lock_path(a);
  a.uuid = "00112233445566778899aabbccddeeff";
  b.uuid = a.uuid;
  b.name = "renamed by a newer driver";
  EXPECT_EQ(timing_lock_path(a), timing_lock_path(b)) << "a UUID names the device whatever its name";
}

// A second holder waits for the first, is told that one run is ahead, and
// its section starts after the first one's ended.
TEST(TimingLock, ASecondHolderWaitsForTheFirst) {
  LockFolder folder;
  const DeviceInfo device = some_device();
  TimingLock first(device, {});
  std::atomic<bool> told{false};
  std::string notice;
  ExclusiveSection second_section;
  std::thread second([&] {
    TimingLock second_lock(device, [&](const std::string& line) {
      notice = line;
      told = true;
    });
    second_section = second_lock.release();
  });
  for (int i = 0; i < 500 && !told; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_TRUE(told) << "the second holder was never told it waits";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const ExclusiveSection first_section = first.release();
  second.join();
  EXPECT_EQ(notice, "waiting for the GPU: 1 run ahead");
  EXPECT_TRUE(first_section.exclusive);
  EXPECT_TRUE(second_section.exclusive);
  EXPECT_EQ(second_section.runs_ahead, 1);
  EXPECT_GE(second_section.start_ns, first_section.end_ns);
  EXPECT_GE(second_section.waited_ms, 50.0);
  EXPECT_LT(first_section.waited_ms, 50.0);
}

// A symlink planted at the lock's name is not followed (nor the file it
// points at touched): the run goes on, saying it was not exclusive.
TEST(TimingLock, ASymlinkAtTheLocksNameIsNotFollowed) {
  LockFolder folder;
  const DeviceInfo device = some_device();
  const std::string target = folder.path() + "/precious";
  std::filesystem::create_directories(folder.path());
  {
    std::FILE* f = std::fopen(target.c_str(), "w");
    std::fputs("keep", f);
    std::fclose(f);
  }
  std::filesystem::create_symlink(target, timing_lock_path(device));
  TimingLock lock(device, {});
  const ExclusiveSection section = lock.release();
  EXPECT_FALSE(section.exclusive);
  EXPECT_NE(section.note.find("timed without the device lock"), std::string::npos) << section.note;
  EXPECT_EQ(std::filesystem::file_size(target), 4u);
}

// A FIFO at the lock's name does not block the run.
TEST(TimingLock, AFifoAtTheLocksNameDoesNotBlock) {
  LockFolder folder;
  const DeviceInfo device = some_device();
  ASSERT_EQ(mkfifo(timing_lock_path(device).c_str(), 0600), 0);
  TimingLock lock(device, {});
  const ExclusiveSection section = lock.release();
  EXPECT_FALSE(section.exclusive);
  EXPECT_NE(section.note.find("not a regular file"), std::string::npos) << section.note;
}

// The lock file is readable by every user whatever the umask, so another
// user's run can open it read-only and share the lock.
TEST(TimingLock, TheLockFileIsReadableByEveryUser) {
  LockFolder folder;
  const mode_t old = umask(077);
  { TimingLock lock(some_device(), {}); }
  umask(old);
  struct stat st {};
  ASSERT_EQ(stat(timing_lock_path(some_device()).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// A CPU device timed while other processes keep the cores busy is flagged,
// with the share they took; a GPU's section is neither measured nor flagged
// (its kernel does not run on those cores).
TEST(TimingLock, AMachineBusyWithOtherProcessesIsFlaggedForACpuDevice) {
  LockFolder folder;
  DeviceInfo cpu = some_device("Test CPU");
  cpu.memory_is_host = true;
  const DeviceInfo gpu = some_device("Test GPU");
  CpuHogs hogs;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the hogs running
  TimingLock cpu_lock(cpu, {});
  TimingLock gpu_lock(gpu, {});
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const ExclusiveSection on_cpu = cpu_lock.release();
  const ExclusiveSection on_gpu = gpu_lock.release();
  EXPECT_TRUE(on_cpu.exclusive) << "busy is not the lock: the lock was held";
  EXPECT_TRUE(on_cpu.busy);
  EXPECT_GE(on_cpu.others_cores, 0.5 * on_cpu.cores);
  EXPECT_NE(on_cpu.note.find("timed while other processes kept "), std::string::npos) << on_cpu.note;
  EXPECT_NE(on_cpu.note.find(" of the machine's " + std::to_string(on_cpu.cores) + " cores busy"), std::string::npos)
      << on_cpu.note;
  EXPECT_FALSE(on_gpu.busy);
  EXPECT_LT(on_gpu.others_cores, 0) << "a GPU's section is not measured";
  EXPECT_TRUE(on_gpu.note.empty()) << on_gpu.note;
}

// The judgement: a tenth of the cores or more, over at least two ticks a
// core of other processes' time; a share too small to measure is no flag.
TEST(TimingLock, TheBusyJudgementNeedsATenthOfTheCoresMeasurably) {
  auto judged = [](double wall_s, double others_s, bool on_host) {
    ExclusiveSection s;
    s.start_ns = 1000;
    s.end_ns = 1000 + static_cast<std::int64_t>(wall_s * 1e9);
    s.cores = 4;
    judge_machine_load(s, on_host, others_s);
    return s;
  };
  EXPECT_TRUE(judged(1.0, 0.4, true).busy);
  EXPECT_DOUBLE_EQ(judged(1.0, 0.4, true).others_cores, 0.4);
  EXPECT_FALSE(judged(1.0, 0.39, true).busy) << "under a tenth of 4 cores";
  EXPECT_FALSE(judged(0.1, 0.07, true).busy) << "under two 10 ms ticks a core: no measure";
  EXPECT_TRUE(judged(0.1, 0.08, true).busy);
  EXPECT_FALSE(judged(1.0, 3.0, false).busy) << "a GPU's kernel is not on those cores";
  EXPECT_DOUBLE_EQ(judged(1.0, 9.0, true).others_cores, 4.0) << "tick rounding never shows more than every core";
  EXPECT_DOUBLE_EQ(judged(1.0, -0.1, true).others_cores, 0.0);
}

}  // namespace
}  // namespace threadmap
