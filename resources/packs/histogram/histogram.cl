// A histogram of n values into BINS bins, counted with atomics.
//
// global: every thread adds one to a bin in global memory: the whole grid
//         contends for the same BINS words.
// shared: each block counts into its own bins in local memory, then adds
//         them to the global bins once: the contention stays in the block.
// no_zero: shared, without clearing the local bins first: a learner's
//          classic mistake (known wrong: the bins start from garbage).
//
// HOT = 1 skews the input: seven values in eight fall in bin 0.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)  // v: a variable, read once

__kernel void hist_global(__global const int* values, __global int* bins, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int v = values[i];
  atomic_inc(&bins[BIN(v)]);
}

__kernel void hist_shared(__global const int* values, __global int* bins, int n) {
  __local int counts[BINS];
  for (int b = get_local_id(0); b < BINS; b += WG) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int v = values[i];
    atomic_inc(&counts[BIN(v)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = get_local_id(0); b < BINS; b += WG) atomic_add(&bins[b], counts[b]);
}

__kernel void hist_no_zero(__global const int* values, __global int* bins, int n) {
  __local int counts[BINS];
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int v = values[i];
    atomic_inc(&counts[BIN(v)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = get_local_id(0); b < BINS; b += WG) atomic_add(&bins[b], counts[b]);
}

// warp: bins per warp (32 work-items) in local memory: a warp's lanes
//       contend only with each other; the block adds its warps' bins
//       together at the end.
__kernel void hist_warp(__global const int* values, __global int* bins, int n) {
  __local int counts[(WG / 32) * BINS];
  for (int b = get_local_id(0); b < (WG / 32) * BINS; b += WG) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* mine = counts + (get_local_id(0) / 32) * BINS;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int v = values[i];
    atomic_inc(&mine[BIN(v)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = get_local_id(0); b < BINS; b += WG) {
    int sum = 0;
    for (int w = 0; w < WG / 32; ++w) sum += counts[w * BINS + b];
    atomic_add(&bins[b], sum);
  }
}
