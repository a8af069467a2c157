#!/usr/bin/env python3
"""Start to first painted frame of the real program, timed from outside it.

    xvfb-run -a -s "-screen 0 1600x1000x24" python3 tests/bench/first_frame.py [--runs 10] [--app PATH] [-- ARGS]

Starts attention-lab (the default preset unless ARGS say otherwise) with ATTNLAB_EXIT_AFTER_FIRST_FRAME
set, so it prints "first frame painted" once its window's first frame is out and exits; the time is
from just before the start to that line (exec, loading the libraries, building the window and the first
trace or its placeholder, the paint). Runs alternate with nothing else; prints each run, then the median
and the fastest. Without a DISPLAY it uses the offscreen platform and says so (no X server in the loop).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--runs", type=int, default=10)
parser.add_argument("--app", default=os.path.join(here, "..", "..", "build", "app", "attention-lab"))
parser.add_argument("args", nargs="*")
opts = parser.parse_args()

env = dict(os.environ, ATTNLAB_EXIT_AFTER_FIRST_FRAME="1")
platform = env.get("QT_QPA_PLATFORM") or ("xcb" if env.get("DISPLAY") else "offscreen")
env["QT_QPA_PLATFORM"] = platform
times = []
for run in range(opts.runs):
    start = time.perf_counter()
    proc = subprocess.Popen([opts.app, *opts.args], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait(timeout=60)
    if line.strip() != b"first frame painted":
        sys.exit(f"run {run + 1}: the program exited ({proc.returncode}) without painting a frame")
    times.append(elapsed * 1e3)
    print(f"run {run + 1}: {elapsed * 1e3:.0f} ms")
print(f"start to first painted frame, {platform} platform, args {opts.args or '(default preset)'}, "
      f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: median {statistics.median(times):.0f} ms, "
      f"fastest {min(times):.0f} ms over {len(times)} runs")
