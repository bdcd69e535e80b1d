#!/usr/bin/env python3
"""ThreadMap's barrier figures (the clock pass, `show --format json`) against
the independent probe (barrier_probe.cu), per kernel and size.

Usage: barrier_compare.py DIR [PROBE]
DIR holds probe.jsonl (one JSON object per configuration and run; PROBE
names another such file) and KERNEL.SETS.REP.json (`threadmap-cli show
--format json` of a recording).
Each side's figure is the median over its runs of the per-run median.
Passes when, for every configuration, ThreadMap's median arrival spread is
within 1.5x of the probe's and its median release latency within 100 cycles.
Exit 1 otherwise.
"""
import glob
import json
import os
import re
import statistics
import sys

SPREAD_FACTOR = 1.5
RELEASE_CYCLES = 100


def main(folder, probe_file=None):
    probe = {}
    with open(probe_file or os.path.join(folder, "probe.jsonl")) as f:
        for line in f:
            line = line.strip()
            if line:
                p = json.loads(line)
                probe.setdefault((p["kernel"], p["sets"]), []).append(p)
    ours = {}
    for path in glob.glob(os.path.join(folder, "*.json")):
        name = os.path.basename(path)[: -len(".json")]
        kernel_and_sets, _rep = name.rsplit(".", 1)
        kernel, sets = kernel_and_sets.split(".--set_", 1) if ".--set_" in kernel_and_sets else (kernel_and_sets, "")
        sets = " ".join(s for s in sets.replace("_--set_", " ").split(" ") if s)
        try:
            with open(path) as f:
                ours.setdefault((kernel, sets), []).append(json.load(f)["barriers"])
        except (ValueError, KeyError) as e:
            print(f"{name}: no barrier figures ({e})", file=sys.stderr)

    def median_of(runs, key):
        values = [r[key] for r in runs if r.get(key) is not None]
        return statistics.median(values) if values else None

    print("| kernel | size | probe: spread median (widest) | ThreadMap: spread median (widest) | ratio "
          "| probe: release median | ThreadMap: release median | difference | ThreadMap from | passes (probe / ThreadMap) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    def by_size(key):
        # "blocks=8" before "blocks=264": numbers compared as numbers.
        kernel, sets = key
        return kernel, [(int(v) if v.isdigit() else 0, v) for v in re.split(r"[= ]", sets)]

    for key in sorted(probe, key=by_size):
        kernel, sets = key
        p, t = probe[key], ours.get(key, [])
        if not t:
            print(f"| {kernel} | {sets} | no ThreadMap recording | | | | | | | |")
            ok = False
            continue
        ps, ts = median_of(p, "arrival_spread_median"), median_of(t, "arrival_spread_median")
        pr, tr = median_of(p, "release_latency_median"), median_of(t, "release_latency_median")
        pw, tw = median_of(p, "widest_spread"), median_of(t, "widest_spread")
        ratio = ts / ps if ps else float("inf")
        spread_ok = ps > 0 and 1 / SPREAD_FACTOR <= ratio <= SPREAD_FACTOR
        release_ok = tr is not None and abs(tr - pr) <= RELEASE_CYCLES
        consistent = all(r.get("release_after_arrivals") for r in t) and all(r["release_after_arrivals"] for r in p)
        ok = ok and spread_ok and release_ok and consistent
        source = ", ".join(sorted({r.get("timing_from", "?") for r in t}))
        passes = f"{p[0]['passes']} / {t[0].get('timed_passes')}"
        print(f"| {kernel} | {sets} | {ps:.0f} ({pw:.0f}) | {ts:.0f} ({tw:.0f}) | {ratio:.2f}{'' if spread_ok else ' FAIL'} "
              f"| {pr:.0f} | {tr if tr is None else f'{tr:.0f}'} | "
              f"{'' if tr is None else f'{tr - pr:+.0f}'}{'' if release_ok else ' FAIL'} | {source} | {passes} |")
    print()
    print(f"Within {SPREAD_FACTOR}x (spread) and {RELEASE_CYCLES} cycles (release), releases after arrivals: "
          + ("yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
