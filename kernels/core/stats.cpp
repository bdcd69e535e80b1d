#include "kernels/core/stats.h"

#include <algorithm>

namespace threadmap {

TimingStats summarize(std::vector<double> samples) {
  TimingStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  s.samples = static_cast<int>(n);
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return s;
}

double gigabytes_per_second(double bytes, double milliseconds) {
  return milliseconds > 0 ? bytes / (milliseconds * 1e6) : 0.0;
}

}  // namespace threadmap
