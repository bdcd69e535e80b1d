#!/usr/bin/env bash
# Usage: [IDS="id ..."] bench/gpu/run.sh STAGE
#   (STAGE: tables | tune | ncu | sanitize | counters | pack-counters | traces | bundle | compile | learner
#    | barriers | factors | ptx | predication | grading)
# Expects threadmap-cli and engine_tests built with CUDA in $BIN (default
# .device/bin); writes logs to $OUT. NVIDIA's OpenCL driver is registered with
# the ICD loader first.
set -u
OUT=${OUT:-/tmp/threadmap-gpu}
mkdir -p "$OUT"
BIN=${BIN:-.device/bin}
export OUT BIN
cli=$BIN/threadmap-cli
[ -d .device/lib ] && export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-}
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# IDS (optional): the variants the ncu, sanitize, counters and bundle stages cover.
ids=${IDS:-$($cli list --format json | python3 -c 'import json,sys; print(" ".join(v["id"] for v in json.load(sys.stdin)))')}
since() { python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))' "$1" "$(date +%s.%N)"; }
wanted() { case " $ids " in *" $1 "*) return 0;; *) return 1;; esac; }

case "${1:-tables}" in
tables)
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > "$OUT/gpu.txt" 2>&1
  $cli devices > "$OUT/devices.txt" 2>&1
  $BIN/engine_tests --gtest_brief=1 > "$OUT/tests.txt" 2>&1; echo "engine_tests rc=$?" >> "$OUT/tests.txt"
  grep -E "tests ran|PASSED|FAILED|SKIPPED|rc=" "$OUT/tests.txt"
  $cli bench --device cuda:0 --size 8192 --set type=float --format json > "$OUT/bench_cuda.json" 2> "$OUT/bench_cuda.err"
  $cli bench --device cuda:0 --size 8192 --set type=float > "$OUT/bench_cuda.txt" 2>&1
  $cli run matadd.elements --device cuda:0 --set width=8192 --set height=8192 --set type=int >> "$OUT/bench_cuda.txt" 2>&1
  ocl=$($cli devices --format json | python3 -c 'import json,sys
for b in json.load(sys.stdin):
  for d in b["devices"]:
    if b["backend"]=="opencl" and "NVIDIA" in d["platform"]: print(d["spec"]); raise SystemExit')
  echo "NVIDIA OpenCL device: ${ocl:-none}" > "$OUT/bench_opencl.txt"
  [ -n "$ocl" ] && $cli bench --device "$ocl" --size 8192 --set type=float >> "$OUT/bench_opencl.txt" 2>&1
  cat "$OUT/bench_cuda.txt" "$OUT/bench_opencl.txt"
  ;;
tune)
  # The fast variants' shapes, swept on the device, beside the ceilings.
  big="--device cuda:0 --set width=8192 --set height=8192"
  { $cli bench --device cuda:0 --size 8192 --set type=float
    $cli sweep transpose.coalesced $big --set type=float --vary tile=32,64 --vary strips=1,2,4,8,16 --vary pad=0,1
    $cli sweep matadd.elements $big --set type=int --vary per_thread=1,2,4 --vary block_x=64,128,256,512 --vary block_y=1,2,4
  } > "$OUT/tune.txt" 2>/dev/null
  cat "$OUT/tune.txt"
  ;;
ncu)
  # Timing agreement: the CLI's median (no profiler attached) against Nsight
  # Compute's gpu__time_duration.sum for the same launches.
  for id in $ids; do
    $cli run "$id" --device cuda:0 --set type=float --reps 20 --format json $(python3 bench/gpu/sizes.py "$id") > "$OUT/t_$id.json" 2>/dev/null
    ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      $cli run "$id" --device cuda:0 --set type=float --reps 10 --warmup 1 --format json $(python3 bench/gpu/sizes.py "$id") \
      > "$OUT/n_$id.csv" 2>/dev/null
  done
  python3 bench/gpu/ncu_compare.py "$OUT" $ids | tee "$OUT/ncu_timing.txt"
  rm -f "$OUT"/t_*.json "$OUT"/n_*.csv
  ;;
sanitize)
  mkdir -p "$OUT/s"
  for tool in memcheck racecheck synccheck; do
    for id in $ids; do
      compute-sanitizer --tool $tool --error-exitcode 9 $cli run "$id" --device cuda:0 --reps 1 --warmup 0 \
        $(python3 bench/gpu/sizes.py "$id" small) > "$OUT/s/$tool.$id.txt" 2>&1
      echo "$tool $id rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/s/$tool.$id.txt" | head -1)"
    done
  done | tee "$OUT/sanitizer.txt"
  tar -C "$OUT" -czf "$OUT/sanitizer_logs.tgz" s && rm -rf "$OUT/s"
  ;;
counters)
  # The analysis against Nsight Compute's counters for the same launch
  # (bench/gpu/counters.txt), each configuration profiled three times.
  mkdir -p "$OUT/c"
  ncu --query-metrics --chip gh100 > "$OUT/c/ncu_metrics.txt" 2>&1
  metrics=$(grep -o '"[a-z0-9_]*\.sum"' bench/gpu/counters_compare.py | tr -d '"' | while read -r m; do
    grep -q "^${m%.sum} " "$OUT/c/ncu_metrics.txt" && echo "$m"; done | paste -sd,)
  case "$metrics" in *l1tex__t_sectors_pipe_lsu_mem_global_op_st*) ;;
    *) metrics=$(grep -o '"l1tex__[a-z0-9_]*\.sum"\|"smsp__[a-z0-9_]*\.sum"' bench/gpu/counters_compare.py | tr -d '"' | paste -sd,);;
  esac
  echo "metrics: $metrics"
  labels=""
  while read -r label id sets; do
    case "$label" in ''|'#'*) continue;; esac
    wanted "$id" || continue
    labels="$labels $label"
    kernel=$($cli list --format json | python3 -c "import json,sys; print([v['kernel'] for v in json.load(sys.stdin) if v['id']=='$id'][0])")
    $cli counters "$id" --device cuda:0 $sets --format json > "$OUT/c/$label.json" 2> "$OUT/c/$label.err"
    for rep in 1 2 3; do
      ncu --metrics "$metrics" --csv --launch-count 1 -k "regex:^$kernel\\b" \
        $cli run "$id" --device cuda:0 $sets --reps 1 --warmup 0 > "$OUT/c/$label.$rep.csv" 2>&1
    done
  done < bench/gpu/counters.txt
  python3 bench/gpu/counters_compare.py "$OUT/c" $labels | tee "$OUT/counters.md"
  tar -C "$OUT" -czf "$OUT/counters_logs.tgz" c && rm -rf "$OUT/c"
  ;;
pack-counters)
  # A pack's kernels: counters beside Nsight Compute's, each configuration
  # profiled three times. PACK (default the histogram pack), CONFIGS (label,
  # variant, --set ...; default bench/gpu/atomics.txt), COUNTERS=atomics (the
  # default) shows the atomic columns, COUNTERS=memory the loads and stores.
  pack=${PACK:-resources/packs/histogram}
  configs=${CONFIGS:-bench/gpu/atomics.txt}
  export COUNTERS=${COUNTERS:-atomics}
  name=$(basename "$configs" .txt)
  mkdir -p "$OUT/$name"
  metrics=$(python3 bench/gpu/counters_compare.py --metrics)
  labels=""
  while read -r label id sets; do
    case "$label" in ''|'#'*) continue;; esac
    labels="$labels $label"
    kernel=$($cli list --pack $pack --format json | python3 -c "import json,sys; print([v['kernel'] for v in json.load(sys.stdin) if v['id']=='$id'][0])")
    $cli counters "$id" --pack $pack --device cuda:0 $sets --format json > "$OUT/$name/$label.json" 2> "$OUT/$name/$label.err"
    for rep in 1 2 3; do
      ncu --metrics "$metrics" --csv --launch-count 1 -k "regex:^$kernel\\b" \
        $cli run "$id" --pack $pack --device cuda:0 $sets --reps 1 --warmup 0 > "$OUT/$name/$label.$rep.csv" 2>&1
    done
  done < "$configs"
  python3 bench/gpu/counters_compare.py "$OUT/$name" $labels | tee "$OUT/${name}_counters.md"
  tar -C "$OUT" -czf "$OUT/${name}_logs.tgz" "$name" && rm -rf "$OUT/$name"
  ;;
traces)
  # Traces on the device: the trace tests (barrier release after the last
  # arrival, counts by hand), the analysis against Nsight Compute's counters
  # for the same launch, the cost of recording, the bundled recordings.
  $BIN/engine_tests --gtest_brief=1 > "$OUT/trace_tests.txt" 2>&1
  echo "rc=$?" >> "$OUT/trace_tests.txt"; tail -4 "$OUT/trace_tests.txt"
  bash "$0" counters
  mkdir -p "$OUT/c"
  THREADMAP_BENCH_DEVICE=cuda:0 $BIN/trace_bench 2>&1 | tee "$OUT/trace_bench.txt" | tail -5
  bash "$0" bundle
  for id in transpose.shared smem.setRowReadCol reduce.warp_shuffle; do
    compute-sanitizer --tool memcheck --error-exitcode 9 $cli record "$id" --device cuda:0 --reps 1 \
      $(python3 bench/gpu/sizes.py "$id" small) -o /tmp/s.threadmap > "$OUT/c/memcheck_$id.txt" 2>&1
    echo "memcheck traced $id rc=$? $(grep 'ERROR SUMMARY' "$OUT/c/memcheck_$id.txt")"
  done | tee -a "$OUT/bundle.txt"
  tar -C "$OUT" -czf "$OUT/traces_logs.tgz" c && rm -rf "$OUT/c"
  ;;
compile)
  # NVRTC: a kernel's first use (compile) against a load from the disk cache,
  # and doctor on the devices present, compiling into an empty cache.
  $BIN/compile_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    > "$OUT/compile.txt" 2>&1
  THREADMAP_CACHE_DIR=$(mktemp -d) $cli doctor > "$OUT/doctor.txt" 2>&1
  echo "doctor rc=$?" >> "$OUT/doctor.txt"
  cat "$OUT/compile.txt" "$OUT/doctor.txt"
  ;;
learner)
  # run --source on the CUDA device: every kernel's learner text (`source`)
  # run back in the catalog's place, a compile error, an endless loop, and
  # the edit-to-verified-timing loop with a cold and a warm compile cache.
  mkdir -p "$OUT/l"
  for id in $ids; do
    $cli source "$id" --dialect cuda > "$OUT/l/$id.cu"
    $cli run "$id" --device cuda:0 --reps 5 --source "$OUT/l/$id.cu" $(python3 bench/gpu/sizes.py "$id") \
      > "$OUT/l/$id.txt" 2>&1
    echo "$id rc=$? $(grep -E 'verified|error' "$OUT/l/$id.txt" | head -1)"
  done | tee "$OUT/learner.txt"
  src="$OUT/l/smem.setRowReadCol.cu"
  sed 's/const unsigned int idx = threadIdx.y \* blockDim.x + threadIdx.x;/const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x; undeclared_name = 1;/' \
    "$src" > "$OUT/l/typo.cu"
  sed 's/  __syncthreads();/  while (idx < 100000u) { out[0] = 1; }\n  __syncthreads();/' "$src" > "$OUT/l/loop.cu"
  { $cli run smem.setRowReadCol --device cuda:0 --source "$OUT/l/typo.cu"; echo "typo rc=$?"
    start=$(date +%s.%N); $cli run smem.setRowReadCol --device cuda:0 --timeout 3 --source "$OUT/l/loop.cu"
    echo "loop rc=$? after $(since "$start") s"
    $cli run smem.setRowReadCol --device cuda:0 --reps 3 --set blocks=8 > /dev/null && echo "device usable after the kill: rc=$?"
    for cache in cold warm warm warm; do
      [ $cache = cold ] && export THREADMAP_CACHE_DIR=$(mktemp -d)
      start=$(date +%s.%N)
      $cli run smem.setRowReadCol --device cuda:0 --set blocks=65536 --source "$src" > /dev/null 2>&1
      echo "edit-to-result $cache: rc=$? $(since "$start") s"
    done; unset THREADMAP_CACHE_DIR
    # The whole loop a learner lives in: compiled, verified, timed and traced
    # (timed run, access pass, clock pass), the session written.
    for cache in cold warm warm warm; do
      [ $cache = cold ] && export THREADMAP_CACHE_DIR=$(mktemp -d)
      start=$(date +%s.%N)
      $cli record smem.setRowReadCol --device cuda:0 --set blocks=65536 --source "$src" -o "$OUT/l/loop.threadmap" > /dev/null 2>&1
      echo "edit-to-recording $cache: rc=$? $(since "$start") s"
    done; unset THREADMAP_CACHE_DIR
  } 2>&1 | tee -a "$OUT/learner.txt"
  tar -C "$OUT" -czf "$OUT/learner_logs.tgz" l && rm -rf "$OUT/l"
  ;;
barriers)
  # The clock pass against an independent probe (bench/gpu/barrier_probe.cu,
  # built here by nvcc): arrival spread and release latency of three kernels
  # with barriers (setRowReadCol at 8, 264, 1024 and 65536 blocks), three
  # runs of each side.
  mkdir -p "$OUT/b"
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  nvcc -O3 -std=c++17 -o "$OUT/b/barrier_probe" bench/gpu/barrier_probe.cu -lnvrtc -lcuda
  nvcc -O3 -std=c++17 -arch="sm_$arch" -o "$OUT/b/barrier_variants" bench/gpu/barrier_variants.cu
  # Each run of the probe twice: its arrivals stamped as the clock pass
  # stamps them (the low half of a clock64 read, CS2R.32), and with its
  # first form's 64-bit stamps (--stamp64); the first runs keep their PTX,
  # assembled after with its control bits.
  for rep in 1 2 3; do
    ptx() { [ $rep = 1 ] && echo --ptx "$OUT/b/probe_$1.ptx"; }
    "$OUT/b/barrier_probe" $(ptx clock32) >> "$OUT/b/probe.jsonl" 2>> "$OUT/b/probe.err"
    "$OUT/b/barrier_probe" --stamp64 $(ptx stamp64) >> "$OUT/b/probe_stamp64.jsonl" 2>> "$OUT/b/probe.err"
  done
  for form in clock32 stamp64; do
    ptxas -arch="sm_$arch" -o "/tmp/probe_$form.cubin" "$OUT/b/probe_$form.ptx" &&
      nvdisasm -hex "/tmp/probe_$form.cubin" > "$OUT/b/probe_$form.sass" 2>> "$OUT/b/probe.err"
  done
  "$OUT/b/barrier_variants" > "$OUT/b/variants.jsonl" 2> "$OUT/b/variants.err"
  while read -r id sets; do
    for rep in 1 2 3; do
      $cli record "$id" --device cuda:0 --reps 3 $sets -o "$OUT/b/$id.$rep.threadmap" > /dev/null 2>&1
      $cli show "$OUT/b/$id.$rep.threadmap" --format json > "$OUT/b/$id.${sets// /_}.$rep.json"
    done
  done <<'CONFIGS'
smem.setRowReadCol --set blocks=8
smem.setRowReadCol --set blocks=264
smem.setRowReadCol --set blocks=1024
smem.setRowReadCol --set blocks=65536
transpose.shared --set width=1024 --set height=1024
reduce.sequential --set n=1048576
CONFIGS
  python3 bench/gpu/barrier_compare.py "$OUT/b" | tee "$OUT/barriers.md"
  python3 bench/gpu/barrier_compare.py "$OUT/b" "$OUT/b/probe_stamp64.jsonl" | tee "$OUT/barriers_stamp64.md"
  rm -f "$OUT"/b/*.threadmap "$OUT/b/barrier_probe" "$OUT/b/barrier_variants"
  tar -C "$OUT" -czf "$OUT/barrier_logs.tgz" b && rm -rf "$OUT/b"
  ;;
factors)
  # Which of the clock pass's choices widen setRowReadCol's arrival spread
  # (bench/gpu/barrier_factors.cu): three runs, each line's three medians.
  nvcc -O2 -std=c++17 -o /tmp/barrier_factors bench/gpu/barrier_factors.cu -lnvrtc -lcuda || exit 1
  for rep in 1 2 3; do /tmp/barrier_factors; done | sort |
    awk '{k=$1" "$2" "$3" "$4" "$5; v[k]=v[k]" "$NF} END {for (k in v) print k, v[k]}' | sort -k3,3 -k5,5n |
    tee "$OUT/factors.txt"
  ;;
ptx)
  # The clock pass's own PTX outside ThreadMap (bench/gpu/barrier_ptx.cu):
  # setRowReadCol's instrumented PTX as ptx_instrument_tests writes it, each
  # file given after the stage as LABEL=FILE.
  nvcc -O2 -std=c++17 -o /tmp/barrier_ptx bench/gpu/barrier_ptx.cu -lcuda || exit 1
  shift
  /tmp/barrier_ptx "$@" | tee "$OUT/barrier_ptx.jsonl"
  ;;
predication)
  # What ncu's pred_on_any counters count for shared-memory instructions
  # whose every lane is predicated off (bench/gpu/pred_on_any_probe.cu):
  # each mode three times, beside the counts the kernel was built to make.
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  nvcc -O3 -arch="sm_$arch" -o /tmp/pred_on_any_probe bench/gpu/pred_on_any_probe.cu || exit 1
  m=smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
  m=$m,smsp__inst_executed_op_shared_ld_pred_on_any.sum,smsp__inst_executed_op_shared_st_pred_on_any.sum
  m=$m,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
  for mode in none one all alternate; do
    /tmp/pred_on_any_probe $mode
    for rep in 1 2 3; do
      ncu --metrics "$m" --csv /tmp/pred_on_any_probe $mode 2>/dev/null | grep -E '"smsp__' |
        awk -F'","' -v rep=$rep '{ gsub(/"/, "", $NF); printf "  run %s %s %s\n", rep, $(NF-2), $NF }'
    done
  done | tee "$OUT/predication.txt"
  ;;
grading)
  # Every exercise graded on the GPU: its CUDA solution and start beside the
  # CUDA twins of the known cheats (tests/data/cheats/*.cu), the goal's
  # counters of each; then the packs checked on the device (traced problems
  # and unwritten outputs included), and compute-sanitizer's synccheck and
  # racecheck on the buggy trees, whose own traces name their problems.
  d=resources/exercises c=tests/data/cheats
  for e in transpose-coalesced-read transpose-pad matadd-coalesced reduce-tree smem-conflict-free; do
    $cli check $e $d/$e.solution.cu $d/$e.start.cu $(ls $c/$e.*.cu 2>/dev/null) --device cuda:0 --seed 7
    echo "check $e rc=$?"
  done > "$OUT/grading.txt" 2>&1
  $cli check matmul-tile resources/packs/matmul/exercises/tile.solution.cu $c/matmul-tile.float2.cu --pack resources/packs/matmul \
    --device cuda:0 --seed 7 >> "$OUT/grading.txt" 2>&1
  echo "check matmul-tile rc=$?" >> "$OUT/grading.txt"
  for p in lessons resources/packs/matmul resources/packs/histogram; do
    $cli pack check $p --device cuda:0; echo "pack check $p rc=$?"
  done > "$OUT/pack_check_cuda.txt" 2>&1
  for f in reduce-tree.early-return reduce-tree.divergent-barrier; do
    for tool in synccheck racecheck; do
      compute-sanitizer --tool $tool $cli run reduce.interleaved --source $c/$f.cu --device cuda:0 --reps 1 --warmup 0 \
        --problems on 2>&1 | grep -E "SUMMARY|barrier|race|problem|Problem" | head -8 | sed "s|^|$tool $f: |"
    done
  done > "$OUT/sanitizer_cheats.txt" 2>&1
  grep -E "rc=|FAIL" "$OUT/grading.txt" "$OUT/pack_check_cuda.txt"
  ;;
bundle)
  # The bundled recordings (BUNDLE, default bench/gpu/bundle.txt), of the variants in IDS.
  mkdir -p "$OUT/rec"
  while read -r id rest; do
    case "$id" in ''|'#'*) continue;; esac
    wanted "$id" || continue
    $cli record "$id" --device cuda:0 $rest -o "$OUT/rec/$id.threadmap" > "$OUT/rec/$id.txt" 2>&1
    echo "$id rc=$? $(stat -c %s "$OUT/rec/$id.threadmap" 2>/dev/null) bytes $(grep -E 'recorded in|release' "$OUT/rec/$id.txt" | tr '\n' ' ')"
  done < "${BUNDLE:-bench/gpu/bundle.txt}" | tee "$OUT/bundle.txt"
  tar -C "$OUT" -czf "$OUT/recordings.tgz" rec && rm -rf "$OUT/rec"
  ;;
esac
