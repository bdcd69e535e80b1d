#!/usr/bin/env python3
"""Slider change -> run report, through a warm `threadmap-cli serve` worker.

What the GUI does when a slider moves (after its 150 ms debounce): one "run"
request to the warm worker, whose reply carries the verified, timed report the
chart draws. This times that request -> reply on the wall clock.

It starts the worker, sends one warm-up run (transpose.shared, SIZE x SIZE,
tile=16, pad=0), then alternates tile 16/32 and pad 0/1 for --requests runs
and prints each time and their median, min and max.

  python3 bench/gpu/serve_latency.py                                   # cuda:0, 4096 x 4096
  python3 bench/gpu/serve_latency.py --device opencl:0:0 --size 512    # PoCL on a laptop
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def default_cli():
    for candidate in (os.environ.get("THREADMAP_WORKER"), os.path.join(ROOT, ".device/bin/threadmap-cli"),
                      os.path.join(ROOT, "build/app/cli/threadmap-cli"),
                      os.path.join(ROOT, "build-gui/app/cli/threadmap-cli")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return "threadmap-cli"


class Worker:
    def __init__(self, cli):
        self.process = subprocess.Popen([cli, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.next_id = 1

    def request(self, body):
        """Sends one request; returns (seconds until its last reply, that reply)."""
        body = dict(body, id=self.next_id)
        self.next_id += 1
        start = time.perf_counter()
        self.process.stdin.write(json.dumps(body) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("serve_latency: the worker exited (code %s)" % self.process.wait())
            reply = json.loads(line)
            if reply.get("id") == body["id"] and reply.get("type") in ("result", "error"):
                return time.perf_counter() - start, reply

    def close(self):
        self.process.stdin.write(json.dumps({"id": 0, "op": "quit"}) + "\n")
        self.process.stdin.close()
        self.process.wait()


def run_request(args, tile, pad):
    return {"op": "run", "kernel": args.kernel, "device": args.device, "reps": args.reps,
            "warmup": args.warmup,
            "params": {"width": args.size, "height": args.size, "tile": tile, "pad": pad}}


def describe(reply):
    if reply["type"] != "result":
        return "error (%s): %s" % (reply.get("status"), reply.get("error"))
    report = reply["result"]
    if report.get("status") != "ok":
        return "%s: %s" % (report.get("status"), report.get("error"))
    verified = "verified" if report["verification"]["verified"] else "NOT VERIFIED"
    return "kernel median %.4f ms, %.1f GB/s, %s" % (report["timing"]["kernel_ms"]["median"],
                                                     report["bandwidth_gbps"], verified)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=default_cli(), help="threadmap-cli to run as the worker")
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--size", type=int, default=4096, help="N: N x N matrix")
    parser.add_argument("--kernel", default="transpose.shared")
    parser.add_argument("--requests", type=int, default=10, help="timed slider changes")
    parser.add_argument("--reps", type=int, default=10, help="timed runs per request (the GUI's default)")
    parser.add_argument("--warmup", type=int, default=1, help="warm-up runs per request (the GUI's)")
    args = parser.parse_args()

    worker = Worker(args.cli)
    seconds, reply = worker.request({"op": "ping"})
    print("worker %s %s: ping %.1f ms" % (args.cli, reply["result"].get("version"), seconds * 1e3))
    seconds, reply = worker.request(run_request(args, 16, 0))
    if reply["type"] != "result" or reply["result"].get("status") != "ok":
        sys.exit("serve_latency: warm-up failed: " + describe(reply))
    device = reply["result"]["device"]
    print("device %s (%s); %s %dx%d, %d timed runs + %d warm-up per request" %
          (device.get("name"), device.get("spec"), args.kernel, args.size, args.size, args.reps, args.warmup))
    print("warm-up tile=16 pad=0: %.1f ms (%s)" % (seconds * 1e3, describe(reply)))

    times, seen = [], {(16, 0)}
    for i in range(args.requests):
        tile, pad = (16, 32)[i % 2], (0, 1)[(i // 2) % 2]
        seconds, reply = worker.request(run_request(args, tile, pad))
        first = (tile, pad) not in seen
        seen.add((tile, pad))
        times.append((seconds * 1e3, first))
        print("tile=%-2d pad=%d: %8.1f ms%s  %s" % (tile, pad, seconds * 1e3, "  (first visit)" if first else "",
                                                   describe(reply)))
    worker.close()

    def summary(label, values):
        if values:
            print("%s: median %.1f ms, min %.1f ms, max %.1f ms (%d requests)" %
                  (label, statistics.median(values), min(values), max(values), len(values)))

    summary("request -> reply", [t for t, _ in times])
    summary("request -> reply, values seen before", [t for t, first in times if not first])
    print("The GUI adds its 150 ms slider debounce and a replot (bench/gui_latency measures those).")


if __name__ == "__main__":
    main()
