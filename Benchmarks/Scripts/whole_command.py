#!/usr/bin/env python3
"""Times commands as whole processes: user, sys, cpu and wall seconds and peak memory (the kernel's
own accounting of each finished child, `wait4`), as min, median and max over several runs after a
warm-up; with `--vs`, two commands in turn (A B A B ...) and the ratio A/B pair by pair, so that a
comparison holds while the machine's speed drifts. Standard library only.

    python3 Benchmarks/Scripts/whole_command.py -n 15 --warmup 2 -- .build/release/preload /tmp/tiny --quiet
    python3 Benchmarks/Scripts/whole_command.py -n 15 --vs "sh -c '/tmp/cdecode libpng 2 < /tmp/tiny.list'" \\
        -- .build/release/preload /tmp/tiny --jobs 2 --quiet

Other scripts import it (`measure`, `pair`, `median`). A command's output is discarded; its exit
status is counted, and a run that fails is reported.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

FIGURES = ("user", "sys", "cpu", "wall", "peak")
TIME = "/usr/bin/time"
UNITS = {"user": "s", "sys": "s", "cpu": "s", "wall": "s", "peak": "MiB"}


def run_once(command):
    """One run of `command` (a list of words): its figures, from the kernel's accounting of the child.

    Peak memory comes from `/usr/bin/time` around the command when it is installed: a child forked
    from this Python process would count Python's own resident pages as its peak."""
    peak_file = None
    if os.path.exists(TIME):
        descriptor, peak_file = tempfile.mkstemp(prefix="whole_command.")
        os.close(descriptor)
        command = [TIME, "-f", "%M", "-o", peak_file, "--"] + list(command)
    started = time.monotonic()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    peak_kib = usage.ru_maxrss
    if peak_file:
        with open(peak_file) as text:
            lines = [line for line in text.read().split() if line.isdigit()]
        os.unlink(peak_file)
        if lines:
            peak_kib = int(lines[-1])
    return {
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "peak": peak_kib / 1024.0,
        "status": child.returncode,
    }


def median(values):
    return statistics.median(values)


def measure(command, runs=5, warmup=1):
    """`runs` counted runs of `command` after `warmup` uncounted ones: a list of figure dicts."""
    for _ in range(warmup):
        run_once(command)
    return [run_once(command) for _ in range(runs)]


def pair(command_a, command_b, runs=5, warmup=1):
    """A and B in turn, `runs` pairs after `warmup` pairs: (A's runs, B's runs, A/B ratios per figure)."""
    for _ in range(warmup):
        run_once(command_a)
        run_once(command_b)
    a_runs, b_runs = [], []
    for _ in range(runs):
        a_runs.append(run_once(command_a))
        b_runs.append(run_once(command_b))
    ratios = {
        figure: [a[figure] / b[figure] for a, b in zip(a_runs, b_runs) if b[figure] > 0] for figure in FIGURES
    }
    return a_runs, b_runs, ratios


def summary(values):
    return min(values), median(values), max(values)


def print_rows(label, runs):
    for figure in FIGURES:
        low, mid, high = summary([run[figure] for run in runs])
        print(f"{label} {figure} {UNITS[figure]:<4} {low:10.4f} {mid:10.4f} {high:10.4f}")
    failed = [run["status"] for run in runs if run["status"] != 0]
    if failed:
        print(f"{label}: {len(failed)} of {len(runs)} runs exited non-zero ({sorted(set(failed))})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", dest="runs", type=int, default=5, help="counted runs of each command (5)")
    parser.add_argument("--warmup", type=int, default=1, help="uncounted runs first (1)")
    parser.add_argument("--vs", help="a second command, split as a shell splits words")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG ...]")
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command:
        parser.error("no command given (after --)")
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}; {arguments.runs} counted runs after {arguments.warmup} warm-up")
    print(f"{'figure':<14} {'min':>10} {'median':>10} {'max':>10}")
    if arguments.vs is None:
        print_rows("A", measure(command, arguments.runs, arguments.warmup))
        return
    a_runs, b_runs, ratios = pair(command, shlex.split(arguments.vs), arguments.runs, arguments.warmup)
    print_rows("A", a_runs)
    print_rows("B", b_runs)
    for figure in FIGURES:
        if ratios[figure]:
            low, mid, high = summary(ratios[figure])
            print(f"A/B {figure:<10} {low:10.3f} {mid:10.3f} {high:10.3f}")


if __name__ == "__main__":
    sys.exit(main())
