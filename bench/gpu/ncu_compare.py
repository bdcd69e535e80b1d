"""Compares each variant's CLI median kernel time (CUDA events, no profiler)
with Nsight Compute's gpu__time_duration.sum of the same launches: per run the
durations of its launches are summed (multi-pass reductions), the median taken."""
import csv
import io
import json
import statistics
import sys

out_dir, ids = sys.argv[1], sys.argv[2:]
print(f"{'kernel':30} {'CLI median ms':>14} {'ncu median ms':>14} {'diff %':>8}")
worst = 0.0
for kernel in ids:
    try:
        with open(f"{out_dir}/t_{kernel}.json") as f:
            run = json.load(f)
        if run.get("status") != "ok":
            print(f"{kernel:30} {run.get('status')}: {run.get('error', '')[:60]}")
            continue
        cli_ms = run["timing"]["kernel_ms"]["median"]
        launches = run["timing"]["launches_per_run"]
        text = open(f"{out_dir}/n_{kernel}.csv").read()
        start = text.find('"ID"')
        rows = list(csv.DictReader(io.StringIO(text[start:])))
        durations = []
        for r in rows:
            if r.get("Metric Name") != "gpu__time_duration.sum":
                continue
            value = float(r["Metric Value"].replace(",", ""))
            unit = r.get("Metric Unit", "nsecond")
            scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(unit, 1e-6)
            durations.append(value * scale)
        per_run = [sum(durations[i:i + launches]) for i in range(0, len(durations) - launches + 1, launches)]
        ncu_ms = statistics.median(per_run)
        diff = 100.0 * (cli_ms - ncu_ms) / ncu_ms
        worst = max(worst, abs(diff))
        print(f"{kernel:30} {cli_ms:14.4f} {ncu_ms:14.4f} {diff:8.2f}")
    except Exception as e:  # a missing or unreadable log is reported, not fatal
        print(f"{kernel:30} no comparison: {e}")
print(f"largest |difference|: {worst:.2f} %")
