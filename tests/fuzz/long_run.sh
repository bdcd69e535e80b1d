#!/usr/bin/env bash
# A long libFuzzer run of several targets at once, each in fork mode on its
# own share of the cores (docs/fuzzing.md, "Long runs"). For a machine with
# more cores than the one CI runs on.
#
#   tests/fuzz/long_run.sh BIN_DIR CORPUS_DIR OUT_DIR SECONDS NAME:JOBS:MAX_LEN...
#
# BIN_DIR holds NAME_fuzz (built by .ci/fuzz in build-fuzz/tests); each
# target starts from CORPUS_DIR/NAME and adds to it. OUT_DIR receives each
# target's log, its crash inputs (NAME-artifacts/) and its corpus at the end
# (NAME-corpus.tar.gz). Exits 1 when any target found something.
set -uo pipefail
bin=$1 corpus=$2 out=$3 seconds=$4
shift 4
mkdir -p "$out"
pids=() names=()
for entry in "$@"; do
  IFS=: read -r name jobs max_len <<<"$entry"
  mkdir -p "$out/$name-artifacts"
  "$bin/${name}_fuzz" "$corpus/$name" -fork="$jobs" -max_total_time="$seconds" -max_len="$max_len" \
    -timeout=60 -rss_limit_mb=2048 -artifact_prefix="$out/$name-artifacts/" >"$out/$name.log" 2>&1 &
  pids+=("$!") names+=("$name")
done
failed=0
for i in "${!pids[@]}"; do
  name=${names[$i]}
  if wait "${pids[$i]}"; then status="no finding"; else status="FINDING (exit $?)" failed=1; fi
  # Fork mode's last progress line carries the executions of every job together.
  last=$(grep -E '^#[0-9]+:' "$out/$name.log" | tail -n 1)
  executions=${last%%:*}
  echo "$name: ${executions#\#} executions, $status; last line: $last"
  tar -czf "$out/$name-corpus.tar.gz" -C "$corpus" "$name"
done
exit "$failed"
