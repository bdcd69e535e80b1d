#!/usr/bin/env bash
# Usage (repo root, on a machine with an sm_90 GPU and Nsight Compute): OUT=dir bash bench/gpu/red_probe.sh
# Builds bench/gpu/red_probe.cu, runs 300 one-warp global reductions at
# random 256- and 1024-bin offsets under ncu, and leaves $OUT/red.tgz (the
# patterns with ThreadMap's rule, ncu's CSV, the SASS's RED line).
# atomics_results/red_probe.txt is the two joined, from the H200.
set -u
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/redout; mkdir -p $R
nvcc -arch=sm_90 -O3 -o /tmp/red_probe bench/gpu/red_probe.cu > $R/build.txt 2>&1
cuobjdump -sass /tmp/red_probe | grep -E "RED|ATOM" >> $R/build.txt
/tmp/red_probe 300 > $R/patterns.txt
ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_red.sum --csv -k red_probe /tmp/red_probe 300 > $R/ncu.csv 2> $R/ncu.err
# The same patterns again, the cache left warm and each launched twice: the count is the pattern's.
ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum --csv -k red_probe --cache-control none \
  /tmp/red_probe 300 2 > $R/ncu_twice.csv 2> $R/ncu_twice.err
tar -C /tmp -czf $OUT/red.tgz redout
