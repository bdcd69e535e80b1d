#!/usr/bin/env python3
"""Peak memory and time of `threadmap-cli counters` over a whole grid: every
block traced in one run (--batch-records 0) against the default, batches of
blocks sized to memory. Each measurement is one process: its wall time,
its CPU time (user + system) and its peak resident set (ru_maxrss, kB), as
wait4 reports them for that child alone, and the machine's load average when
it started (the figures mean little on a busy machine).

Usage: bench/counters_memory.py [--cli build/app/cli/threadmap-cli]
         [--device opencl:0:0] [--kernel transpose.shared] [--sizes 4096,8192]
         [--modes whole,batches] [--reps 1]
Prints a Markdown table; a run the CLI refuses is a row saying why.
"""
import argparse
import json
import os
import tempfile
import time


def measure(command):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        load = os.getloadavg()[0]
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            os.execv(command[0], command)
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return {
            "code": os.waitstatus_to_exitcode(status),
            "wall": wall,
            "cpu": usage.ru_utime + usage.ru_stime,
            "peak_kb": usage.ru_maxrss,
            "load": load,
            "out": out.read().decode(errors="replace"),
            "err": err.read().decode(errors="replace").strip(),
        }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cli", default="build/app/cli/threadmap-cli")
    p.add_argument("--device", default="opencl:0:0")
    p.add_argument("--kernel", default="transpose.shared")
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--modes", default="whole,batches")
    p.add_argument("--reps", type=int, default=1)
    a = p.parse_args()
    print(f"`{a.kernel}` on `{a.device}`, {os.cpu_count()} cores\n")
    print("| size | traced | batches | accesses | wall s | CPU s | peak RSS kB | ns/access (wall) | ns/access (CPU) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in a.sizes.split(","):
        for mode in a.modes.split(","):
            for _ in range(a.reps):
                command = [a.cli, "counters", a.kernel, "--device", a.device, "--set", f"width={size}",
                           "--set", f"height={size}", "--format", "json"]
                if mode == "whole":
                    command += ["--batch-records", "0"]
                r = measure(command)
                label = "every block in one run" if mode == "whole" else "in batches"
                if r["code"] != 0:
                    why = r["err"].splitlines()[-1] if r["err"] else f"exit {r['code']}"
                    print(f"| {size}² | {label} | refused: {why} | | {r['wall']:.1f} | {r['cpu']:.1f} | "
                          f"{r['peak_kb']} | | | {r['load']:.1f} |", flush=True)
                    continue
                j = json.loads(r["out"])
                accesses = j["totals"]["accesses"]
                batches = j["batches"]["count"] if "batches" in j else 1
                print(f"| {size}² | {label} | {batches} | {accesses} | {r['wall']:.1f} | {r['cpu']:.1f} | "
                      f"{r['peak_kb']} | {r['wall'] * 1e9 / accesses:.0f} | {r['cpu'] * 1e9 / accesses:.0f} | "
                      f"{r['load']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
