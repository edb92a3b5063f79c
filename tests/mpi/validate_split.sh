#!/bin/sh
# `mpirun -n 2 trnsci validate` deals the cases over the ranks and prints, on rank 0, the report of a
# 1-rank run (docs/scale-out.md "Validate across ranks"): the JSON of both runs must agree in every
# field but the timings. Usage: validate_split.sh MPIEXEC TRNSCI SUITE OUTDIR
set -e
mpiexec=$1 trnsci=$2 suite=$3 out=$4
"$trnsci" validate --suite "$suite" --json "$out/split_np1.json" > /dev/null
"$mpiexec" -n 2 --oversubscribe "$trnsci" validate --suite "$suite" --json "$out/split_np2.json" > /dev/null
/usr/bin/python3 - "$out/split_np1.json" "$out/split_np2.json" <<'PY'
import json, sys
one, two = (json.load(open(f)) for f in sys.argv[1:3])
def strip(j):  # host timings differ from run to run; nothing else may
    j.pop("seconds", None)
    for c in j["cases"]:
        c.pop("host_seconds", None)
    return j
one, two = strip(one), strip(two)
if one != two:
    for a, b in zip(one["cases"], two["cases"]):
        if a != b:
            print("differs:", a["suite"], a["op"], a["mode"], a["shape"])
    sys.exit("the 2-rank report differs from the 1-rank report")
print(f"{len(one['cases'])} cases: the 2-rank report equals the 1-rank report (timings aside)")
PY
