#pragma once
// Shared by the fuzz targets: the input cut into text lines (each '\n' ends
// one; the last need not), and output kept off the terminal while a target
// calls code that prints.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace threadmap::fuzz {

// No OpenCL device opens from here on (OCL_ICD_VENDORS names an empty folder
// of this process; the fuzz build has no CUDA): requests end at their checks
// or at "no device", and nothing slow runs. For LLVMFuzzerInitialize.
inline void hide_every_device() {
  static std::string vendors = (std::filesystem::temp_directory_path() / "threadmap-fuzz-no-opencl-XXXXXX").string();
  if (!::mkdtemp(vendors.data())) std::abort();
  ::setenv("OCL_ICD_VENDORS", vendors.c_str(), 1);
  ::setenv("THREADMAP_OPENMP", "off", 1);  // the OpenMP host fallback is a device on any machine
}

inline std::vector<std::string> lines_of(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// While alive, std::cout and std::cerr write into a string that is dropped.
class Muted {
 public:
  Muted() : out_(std::cout.rdbuf(sink_.rdbuf())), err_(std::cerr.rdbuf(sink_.rdbuf())) {}
  ~Muted() {
    std::cout.rdbuf(out_);
    std::cerr.rdbuf(err_);
  }
  Muted(const Muted&) = delete;
  Muted& operator=(const Muted&) = delete;

 private:
  std::ostringstream sink_;
  std::streambuf* out_;
  std::streambuf* err_;
};

}  // namespace threadmap::fuzz
