#!/usr/bin/env python3
"""The loop a learner lives in: edit, then the run verified, timed and traced.

What the Exercise tab does on F5: one "record" request with the edited text
("source") to the warm `threadmap-cli serve` worker. The worker compiles the
text for the device (NVRTC for CUDA, with a disk cache), runs it timed and
verified, traces it (CUDA: the access pass and the clock pass, both from the
instrumented PTX) and writes the session file the window opens. This times
request -> reply on the wall clock, per kernel at the catalog's (the
lesson's) size:

  cold   a text the compile cache has not seen: the edit just made
         (a comment with a fresh number is added, so NVRTC compiles again)
  warm   the same text again: the compile cache holds it

The worker is started once and has opened the device before the first
measured request, as the GUI's worker has.

Two sets of runs: each kernel at the catalog's size with the default traced
blocks (Exercise > Edit this kernel), and each exercise's kernel at the
exercise's own size with every block traced (what the Exercise tab sends for
an exercise; resources/exercises), the catalog kernel's text in the device's
dialect standing for the learner's edit. For each, the worker's own account
of where the warm time went (the reply's phases_ms, medians) is printed too.

  python3 bench/gpu/learner_loop.py                         # cuda:0
  python3 bench/gpu/learner_loop.py --device opencl:0:0     # PoCL
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from serve_latency import Worker, default_cli  # noqa: E402

KERNELS = ["smem.setRowReadCol", "transpose.shared", "reduce.sequential", "matadd.rows"]
EXERCISES = os.path.join(HERE, "..", "..", "resources", "exercises")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=default_cli())
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--only", action="append", default=[],
                        help="time only this catalog kernel or exercise id (repeatable)")
    args = parser.parse_args()
    dialect = "cuda" if args.device.startswith("cuda") else "opencl"
    ext = ".cu" if dialect == "cuda" else ".cl"
    folder = tempfile.mkdtemp(prefix="threadmap-loop-")
    worker = Worker(args.cli)
    # The worker opens the device (and the first kernel) before anything is measured.
    t, reply = worker.request({"op": "run", "kernel": "transpose.copy", "device": args.device, "reps": 1})
    if reply.get("type") != "result":
        sys.exit("learner_loop: %s" % reply.get("error"))
    exercises = []
    for name in sorted(os.listdir(EXERCISES)):
        if name.endswith(".json"):
            e = json.load(open(os.path.join(EXERCISES, name)))
            exercises.append(("%s (%s)" % (e["id"], e["kernel"]), e["kernel"], e.get("set", {}), "all"))
    runs = [(k, k, {}, None) for k in KERNELS] + exercises
    if args.only:
        runs = [r for r in runs if r[0] in args.only or r[0].split(" ")[0] in args.only]
    rows = []
    for label, kernel, params, blocks in runs:
        text = subprocess.run([args.cli, "source", kernel, "--dialect", dialect], check=True,
                              capture_output=True, text=True).stdout
        times = {"cold": [], "warm": []}
        phases = {}
        for r in range(args.rounds):
            edited = text + "\n// edit %d %d\n" % (os.getpid(), r)
            for kind in ("cold", "warm"):
                request = {"op": "record", "kernel": kernel, "device": args.device, "params": params,
                           "reps": args.reps, "warmup": 1, "folder": folder, "source": edited,
                           "source_name": kernel.split(".")[0] + ext, "scratch": True}
                if blocks:
                    request["blocks"] = blocks
                t, reply = worker.request(request)
                if reply.get("type") != "result" or not reply["result"].get("verified"):
                    sys.exit("learner_loop: %s %s: %s" % (label, kind, reply))
                times[kind].append(t)
                if kind == "warm":
                    for name, ms in reply["result"].get("phases_ms", []):
                        phases.setdefault(name, []).append(ms)
                os.remove(reply["result"]["session"])
        row = (label, statistics.median(times["cold"]), max(times["cold"]),
               statistics.median(times["warm"]), max(times["warm"]))
        rows.append(row + ({n: statistics.median(v) for n, v in phases.items()},))
        print("%-48s cold median %.3f s (max %.3f)  warm median %.3f s (max %.3f)" % row, flush=True)
        print("    warm, ms: " + ", ".join("%s %.1f" % (n, statistics.median(v)) for n, v in phases.items()),
              flush=True)
    worker.close()
    print(json.dumps({"device": args.device, "rounds": args.rounds, "reps": args.reps,
                      "kernels": [{"kernel": k, "cold_median_s": c, "cold_max_s": cm, "warm_median_s": w,
                                   "warm_max_s": wm, "warm_phases_ms": p} for k, c, cm, w, wm, p in rows]}))


if __name__ == "__main__":
    main()
