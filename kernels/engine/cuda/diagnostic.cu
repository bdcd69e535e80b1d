// Not lessons: kernels no catalog variant launches.
//
// trap_after_launch fails on purpose, so the tests can check what the CUDA
// backend does with an error raised inside a running kernel (it is reported
// with its CUDA name, it is sticky, and the program goes on).
//
// sm_clock_rate measures the SM clock against %globaltimer: one thread reads
// both, spins until `nanoseconds` of %globaltimer have passed, and reads both
// again. A recording's clock pass turns its cycles into time with it.
template <typename ELEM>
__global__ void trap_after_launch(ELEM* out) {
  out[threadIdx.x] = 0;
  __trap();
}

__device__ inline unsigned long long diagnostic_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// out: clock64 and %globaltimer at the start, then at the end.
template <typename ELEM>
__global__ void sm_clock_rate(unsigned long long* out, int nanoseconds) {
  const unsigned long long start_ns = diagnostic_timer();
  const unsigned long long start_clock = clock64();
  unsigned long long end_ns = start_ns;
  while (end_ns - start_ns < static_cast<unsigned long long>(nanoseconds)) end_ns = diagnostic_timer();
  const unsigned long long end_clock = clock64();
  out[0] = start_clock;
  out[1] = start_ns;
  out[2] = end_clock;
  out[3] = end_ns;
}
