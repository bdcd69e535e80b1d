// Exercise: privatise the bins. This kernel walks the values with a grid
// stride and adds one to a bin in global memory for each: every work-item of
// the grid contends for the same BINS words. Give each work-group its own bins
// in local memory, count into them, and add them to the global bins once per
// work-group. Keep the kernel's name and parameters.
#define BIN(v) ((HOT && (v) % 8 != 0) ? 0 : (v) % BINS)

__kernel void hist_shared(__global const int* values, __global int* bins, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int v = values[i];
    atomic_inc(&bins[BIN(v)]);
  }
}
