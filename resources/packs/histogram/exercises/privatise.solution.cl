// A solution: the work-group's bins in local memory, cleared, counted into,
// and added to the global bins once.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)

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
