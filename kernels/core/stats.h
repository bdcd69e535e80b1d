#pragma once
#include <vector>

namespace threadmap {

struct TimingStats {
  double median = 0;
  double min = 0;
  double max = 0;
  int samples = 0;
};

TimingStats summarize(std::vector<double> samples);

// GB/s (1e9 bytes per second) from bytes and milliseconds; 0 when time is 0.
double gigabytes_per_second(double bytes, double milliseconds);

}  // namespace threadmap
