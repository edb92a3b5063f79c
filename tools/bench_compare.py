#!/usr/bin/env python3
"""Compare two sets of `trnsci bench --json` runs row by row: host / emulator bound and roofline.

    tools/bench_compare.py BEFORE_DIR AFTER_DIR [--all]

Each directory holds *.json or *.json.gz files of `trnsci bench` (docs/bench-sweep.md, session 15:
`--clock cpu --repeat 2 --threads 1`). A row is (suite, op, variant, shape, target); it is printed
when both sides have it (`--all`: every row of AFTER_DIR, `-` where BEFORE_DIR lacks it), as
`suite | op | variant | shape | target | emu before -> after | roofline before -> after | host µs per
instruction before -> after` (the last from the device block's `instructions`, `-` in older runs). The
emulator-bound ratio is each run's host_seconds / emulator_bound_s, so both sides use their own
run's host rates (printed in each run's header and JSON host_rates).
"""
import glob
import gzip
import json
import os
import sys


def load(directory):
    rows = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json")) + glob.glob(os.path.join(directory, "*.json.gz"))):
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt") as f:
                run = json.load(f)
        except (OSError, ValueError):
            continue  # a run ended early writes no JSON
        for b in run.get("bench", []):
            key = (b.get("suite"), b.get("op"), b.get("variant"), b.get("shape"), b.get("target"))
            bound = b.get("emulator_bound_s") or 0
            instructions = (b.get("device") or {}).get("instructions") or 0
            per_instruction = 1e6 * b["host_seconds"] / instructions if instructions else None
            rows[key] = (b["host_seconds"] / bound if bound else None, b.get("roofline"), per_instruction)
    return rows


def fmt(x):
    return "-" if x is None or x < 0 else f"{x:.3g}"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    every = "--all" in sys.argv[3:]
    for key, (emu, roof, per_instr) in after.items():
        if key not in before and not every:
            continue
        emu0, roof0, per_instr0 = before.get(key, (None, None, None))
        print(" | ".join([*map(str, key), f"{fmt(emu0)} -> {fmt(emu)}", f"{fmt(roof0)} -> {fmt(roof)}",
                          f"{fmt(per_instr0)} -> {fmt(per_instr)}"]))


if __name__ == "__main__":
    main()
