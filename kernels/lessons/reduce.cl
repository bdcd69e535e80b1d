// Parallel sum: the SYCL lesson "Usando memória local" (Portuguese), written in
// OpenCL C, and the classic improvements on its tree. Compile options: ELEM,
// WG (work-group size, a power of two).
//
// Every tree kernel loads as the lesson does: work-item g adds in[2g] and
// in[2g+1] into local memory (zero when past the end), then reduces its
// group's WG values to one, written to out[group]. The host launches again on
// the partial sums until one value is left. The lesson's load reads in[2g+1]
// whenever 2g < len; the host pads every buffer to an even length with a zero
// so that read stays inside the buffer for odd lengths.
//
//   interleaved (the lesson)   idx = 2*stride*lid            step 1: lanes 0..31 use
//     +--+  +--+  +--+            words 0,2,4,...: 2-way bank conflicts, 4-way at
//     0  1  2  3  4  5  ...       stride 2, ...; half the lanes idle from step 1.
//   divergent                  if (lid % (2*stride) == 0)  same pairs as the lesson,
//                                 but the active work-items are scattered: every
//                                 warp stays busy with one active lane in 2, 4, ...
//   sequential                 stride from WG/2 down, lid < stride: active lanes
//                                 are contiguous and read contiguous words, no
//                                 conflicts, whole warps retire.

__kernel void reduce_interleaved(__global const ELEM* global_mem, __global ELEM* out,
                                 int len) {
  __local ELEM local_mem[WG];
  const size_t local_id = get_local_id(0);
  const size_t global_id = get_global_id(0);
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < WG; stride *= 2) {
    const size_t idx = 2 * stride * local_id;
    if (idx < WG) {
      local_mem[idx] = local_mem[idx] + local_mem[idx + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}

__kernel void reduce_divergent(__global const ELEM* global_mem, __global ELEM* out,
                               int len) {
  __local ELEM local_mem[WG];
  const size_t local_id = get_local_id(0);
  const size_t global_id = get_global_id(0);
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < WG; stride *= 2) {
    if (local_id % (2 * stride) == 0) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}

__kernel void reduce_sequential(__global const ELEM* global_mem, __global ELEM* out,
                                int len) {
  __local ELEM local_mem[WG];
  const size_t local_id = get_local_id(0);
  const size_t global_id = get_global_id(0);
  local_mem[local_id] = 0;
  if ((2 * global_id) < (size_t)len) {
    local_mem[local_id] = global_mem[2 * global_id] + global_mem[2 * global_id + 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    if (local_id < stride) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) {
    out[get_group_id(0)] = local_mem[0];
  }
}

// The fast one: a fixed grid (`blocks` groups) where each work-item first sums
// a grid-stride run of the input (more work per thread, every load coalesced),
// then the group reduces in local memory down to one sub-group, and the last
// steps are sub-group shuffles with no local memory and no barrier. A second
// launch with one group sums the partials. Needs cl_khr_subgroup_shuffle_relative;
// the host reports it unavailable on devices without it.
#ifdef THREADMAP_SUBGROUP_SHUFFLE
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle_relative : enable
__kernel void reduce_warp_shuffle(__global const ELEM* in, __global ELEM* out, int len) {
  __local ELEM local_mem[WG];
  const size_t local_id = get_local_id(0);
  ELEM sum = 0;
  for (size_t i = get_global_id(0); i < (size_t)len; i += get_global_size(0)) {
    sum += in[i];
  }
  local_mem[local_id] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t width = get_max_sub_group_size();
  for (size_t stride = WG / 2; stride >= width; stride /= 2) {
    if (local_id < stride) {
      local_mem[local_id] = local_mem[local_id] + local_mem[local_id + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The sub-group holding work-item 0 finishes; OpenCL does not promise it
  // is work-items 0..width-1, so each lane reads by its sub-group local id.
  if (get_sub_group_id() == 0) {
    const uint lane = get_sub_group_local_id();
    sum = lane < width ? local_mem[lane] : 0;
    for (uint offset = get_sub_group_size() / 2; offset > 0; offset /= 2) {
      sum += sub_group_shuffle_down(sum, offset);
    }
    if (lane == 0) {
      out[get_group_id(0)] = sum;
    }
  }
}
#endif
