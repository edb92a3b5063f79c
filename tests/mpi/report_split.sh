#!/bin/sh
# `mpirun -n 2 trnsci validate` / `bench` deal the cases (rows) over the ranks and print, on rank 0,
# the report of a 1-rank run (docs/scale-out.md section 10): the JSON of both runs must agree in
# every field but the host timings. Usage: report_split.sh MPIEXEC TRNSCI validate|bench SUITE OUTDIR
set -e
mpiexec=$1 trnsci=$2 command=$3 suite=$4 out=$5
"$trnsci" "$command" --suite "$suite" --json "$out/${command}_split_np1.json" > /dev/null
"$mpiexec" -n 2 --oversubscribe "$trnsci" "$command" --suite "$suite" --json "$out/${command}_split_np2.json" > /dev/null
/usr/bin/python3 - "$out/${command}_split_np1.json" "$out/${command}_split_np2.json" <<'PY'
import json, sys
one, two = (json.load(open(f)) for f in sys.argv[1:3])
# Host timings and what is computed from them differ from run to run; nothing else may.
HOST = ("host_seconds", "emulator_bound_s", "emulator_ratio", "native_seconds", "native_ratio")
def strip(j):
    j.pop("seconds", None)
    j.pop("host_rates", None)
    for c in j["cases"] + j["bench"]:
        for k in HOST:
            c.pop(k, None)
    return j
one, two = strip(one), strip(two)
rows = one["cases"] + one["bench"]
if not rows:
    sys.exit("the 1-rank report has no rows")
if one != two:
    for a, b in zip(one["cases"] + one["bench"], two["cases"] + two["bench"]):
        if a != b:
            print("differs:", a["suite"], a["op"], a.get("mode", a.get("variant")), a["shape"])
    sys.exit("the 2-rank report differs from the 1-rank report")
print(f"{len(rows)} rows: the 2-rank report equals the 1-rank report (host timings aside)")
PY
