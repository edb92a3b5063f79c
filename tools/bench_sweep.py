#!/usr/bin/python3
"""Issue #30's consolidated bench table (docs/bench-sweep.md) from `trnsci bench --json` files.

Usage:
  tools/bench_sweep.py [--list ROWS.tsv] [--update docs/bench-sweep.md] RUN.json[.gz] [RUN.json[.gz] ...]
  (this sweep's runs: docs/bench-sweep/*.json.gz and docs/bench-sweep/rows.tsv)

Each RUN.json is one `trnsci bench --size full --target trn1 --target trn2 --threads 1 --json ...`
run (any suite/op subset; a row run twice keeps its last file's values). --list takes the output of
`trnsci bench --list --size full --suite all`: a row of a quick-size shape is left out when its
(suite, op, variant) also has a full-size shape (the issue's targets apply at the large size).

Per row: host / emulator bound of the trn1 run and of the trn2 run (the host measurement is taken
twice), modeled us and roofline (bound engine) on trn1 and trn2, host / native library, and for a
row over a target (emulator bound 2, roofline 1.5, GEMM 4096x8192x8192 1.15 / 1.05, FFT 1.05) the
reason: a note of the docs for the rows they explain (REASONS), else one read off the profile (which
engine bounds it, how busy, at what share of its peak rate; which part of the emulator bound).

Without --update the markdown goes to stdout; with it, the text between the markers
<!-- sweep-table begin --> and <!-- sweep-table end --> of that file is replaced.
"""
import argparse
import gzip
import json
import math
import re
import sys

EMU_TARGET = 2.0

# Rows other helpers are changing this session (s14/<name>): today's numbers are recorded as they are.
BEING_CHANGED = [
    (r"^sparse (spgemm_csr|spgemm_reuse|csrgeam2) ", "spgather"),
    (r"^sparse (gtsv2|gtsv2StridedBatch|gtsv2_nopivot|gtsvInterleavedBatch|gpsvInterleavedBatch) ", "banded"),
    (r"^sparse (spmv_\w+|spmm_\w+|sddmm_\w+|spvv|axpby|rot|spsv_\w+|spsm_\w+) .*(R_64F|C_64F)", "gpfold"),
    (r"^sparse (sparse2dense_csr|spmm_bsr128) ", "spcross"),
    (r"Ozaki", "oz2dev"),
]

# Why a row misses a target, where the docs (or the trace reading of the sweep) say it better than
# the profile's generic reading: (regex over "suite op variant shape", "emu" | "roof", text).
REASONS = [
    (r"^fft c2c ", "roof", "2^18 points is 13-61 us of work: trn2 fp32 TensorE-bound with >= 2.3 us of fill and drain "
                   "(the 1.3 us DMA-to-compute latency before the first matmul; floor ~1.08), trn1 DMA-bound with a "
                   "descriptor per partition row (4 KiB rows: +6%) and the stores paced by TensorE; bf16x3 bound by "
                   "the VectorE/GpSimd split terms; at 2^20 points fp32 1.07 / 1.05 (docs/trnfft.md \"Roofline\"); "
                   "N=256..4096 model the same time by design (full 128x128 stacked tiles, the same bytes)"),
    (r"^rand uniform host ", "emu", "host generator (no kernel, no trace): neither column applies"),
    (r"^solver ssyevj ", "roof", "one-sided Jacobi: each rotation's short VectorE instructions (64-128 lanes, "
                                         "short free sizes) wait for the previous one (docs/cli.md)"),
    (r"^solver \w*(gesvdj|syevj|heevj)Batched ", "roof",
     "batched Jacobi: one launch per matrix, the matrices run one after another (docs/trnsolver.md)"),
    (r"^solver [SDCZ][HBKXYS]ge(sv|ls) ", "roof",
     "IRS: low-precision factorisation + refinement sweeps, each sweep's residual/solve a dependent chain of "
     "short VectorE substitutions between host convergence checks (docs/trnsolver.md)"),
    (r"^solver [sdcz]laswp ", "roof", "one 2-row SBUF round trip (DMA in, DMA out) per interchange and chunk, in series: "
                                      "DMA fixed latency, not bytes (docs/trnsolver.md)"),
    (r"^sparse bsrmv R_32F", "roof", "4x4 blocks on 128-partition tiles: the fp32 block path's DMA and TensorE steps are per "
                                     "block row of 4 rows, far off the bytes bound (docs/trnsparse.md)"),
    (r"^solver \w+(potrs|getrs)(Batched)? ", "roof",
     "triangular solves of a few right-hand-side columns: a dependent chain of diagonal-block solves whose "
     "instructions have free size nrhs (DMA fixed latency, VectorE fixed cost per step); the bound counts only "
     "their few bytes (batched: the matrices one after another, docs/trnsolver.md)"),
    (r"^sparse sp(sv|sm)_\w+ .*level sets", "roof",
     "level-set triangular solve: one dependent step per level of the random pattern, each a few short "
     "instructions (free sizes of one level's rows): fixed costs in series, far above the bytes/flops bound"),
    (r"^sparse gtsv2_nopivot R_32F", "roof", "tridiagonal elimination on VectorE: a dependent sweep of short steps (banded)"),
    (r"^tensor block-sparse ", "roof", "a 128^3 problem of 6 blocks: the ~1.3 us DMA fixed latency and semaphores dominate; "
                               "no large size in the bench (docs/cli.md)"),
]


def load_rows(paths):
    """Rows by (suite, op, variant, shape) and target. A row measured in several runs keeps the run
    with the lowest host / emulator bound (the machine's load only inflates it; the trace, and so the
    modeled time and the bound's work, is the same in every run), with the bound's parts from any run
    that wrote them."""
    cands, rates = {}, {}
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            j = json.load(f)
        for b in j.get("bench", []):
            b["_rates"] = j.get("host_rates", {})
            cands.setdefault((b["suite"], b["op"], b["variant"], b["shape"]), {}).setdefault(b["target"], []).append(b)
        rates[p] = j.get("host_rates", {})
    rows = {}
    for key, by_target in cands.items():
        for target, runs in by_target.items():
            best = min(runs, key=lambda b: emu_ratio(b) or math.inf)
            with_parts = [b for b in runs if b.get("device") and "tensor_flops" in b["device"]]
            if best.get("device") and "tensor_flops" not in best["device"] and with_parts:
                for k in ("tensor_flops", "element_ops", "dma_bytes", "host_flops", "host_bytes", "host_roundtrip_ns"):
                    best["device"][k] = with_parts[0]["device"][k]
                # the parts' times need the rates of the run the chosen time comes from: keep best's rates
            best["_runs"] = len(runs)
            rows.setdefault(key, {})[target] = best
    return rows, rates


def not_measured(rows, list_path):
    """Large-size rows of the --list that no JSON file has: (suite, op) -> count."""
    missing = {}
    if not list_path:
        return missing
    listed = [l.rstrip("\n").split("\t") for l in open(list_path)]
    listed = {(p[0], p[2], p[3], p[4]): p[5] for p in listed if len(p) == 6}
    keep = large_size_filter({k: {} for k in listed}, list_path)
    for k in keep:
        if k not in rows:
            missing[(k[0], k[1])] = missing.get((k[0], k[1]), 0) + 1
    return missing


def large_size_filter(rows, list_path):
    """Drops quick-size rows superseded by a full-size shape of the same (suite, op, variant)."""
    if not list_path:
        return rows
    size = {}
    with open(list_path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 6:
                size[tuple(parts[0:1] + parts[2:5])] = parts[5]
    has_full = {(k[0], k[1], k[2]) for k, v in size.items() if v == "full"}
    return {k: v for k, v in rows.items() if not ((k[0], k[1], k[2]) in has_full and size.get(k) == "quick")}


def num(v, prec=3):
    if v is None or (isinstance(v, float) and (math.isnan(v) or v < 0)):
        return "-"
    if v != 0 and (abs(v) >= 1e4 or abs(v) < 1e-3):
        return f"{v:.{prec - 1}e}"
    return f"{v:.{prec}g}"


def emu_ratio(b):
    return b["emulator_ratio"] if b and b.get("emulator_ratio", -1) > 0 else None


def roofline(b):
    return b["roofline"] if b and b.get("roofline", -1) > 0 else None


# The common cause at the bench's sizes: many short instructions, each with a fixed host cost
# (bench_core_instructions 2048 1: dispatch median 130 ns / mean 861 ns, cost model ~1.8 us per record).
PER_INSTRUCTION = ("per-instruction / per-launch host cost: the trace's arithmetic is {us:.0f} us at the host rates, "
                   "the call {ms:.3g} ms (short instructions: dispatch + trace record + cost model per instruction)")


def emu_reason(b):
    """What the emulator bound of a row is made of, and so what its host time is spent beyond it."""
    d, h = b.get("device") or {}, b.get("_rates") or {}
    bound = b.get("emulator_bound_s", 0)
    if not d or bound <= 0:
        return ""
    if "tensor_flops" in d and h:
        parts = {
            "TensorE multiply-adds": d["tensor_flops"] / h["sgemm_flops_per_s"],
            "element operations": d["element_ops"] / h["stream_elements_per_s"],
            "DMA bytes": d["dma_bytes"] / h["copy_bytes_per_s"],
            "host fp64 steps": d["host_flops"] / h["sgemm_flops_per_s"] + d["host_bytes"] / h["copy_bytes_per_s"],
        }
        host = parts["host fp64 steps"] / max(sum(parts.values()), 1e-30)
        if host >= 0.5:
            return (f"host fp64 steps ({host:.0%} of the bound): scalar loops, which the bound counts at the SGEMM "
                    f"rate (optimistic)")
        if bound < 5e-3:
            return PER_INSTRUCTION.format(us=bound * 1e6, ms=b["host_seconds"] * 1e3)
        top = max(parts, key=parts.get)
        share = parts[top] / max(sum(parts.values()), 1e-30)
        why = {
            "TensorE multiply-adds": "TensorE emulation below the SGEMM rate (fp32 4-pass / split products, short K or N tiles)",
            "element operations": "element-wise instructions above the streaming cost (short free sizes, casts, transposes)",
            "DMA bytes": "DMA emulation below the copy rate (strided / per-element descriptors)",
            "host fp64 steps": "host fp64 steps",
        }[top]
        return (f"bound {share:.0%} {top}: {why}, and the short instructions' fixed costs (dispatch, trace "
                f"record, cost model) at this size")
    if bound < 5e-3:
        return PER_INSTRUCTION.format(us=bound * 1e6, ms=b["host_seconds"] * 1e3)
    return "host time above the trace's arithmetic (per-instruction costs)"


def roofline_reason(b):
    d = b.get("device") or {}
    if not d or b.get("roofline", -1) <= 0:
        return ""
    total = d.get("total_ns", 0)
    if b.get("roofline_engine") == "host":
        share = d.get("host_roundtrip_ns", 0) / total if total and "host_roundtrip_ns" in d else None
        if share is not None and share >= 0.6:
            return f"host round trips {share:.0%} of the modeled time (host panels / fp64 steps in series with the engines)"
        busy = d.get("busy_ns", {})
        e = max(busy, key=busy.get) if busy else "-"
        return (f"bound by the host round trips, modeled {b['roofline']:.3g}x them: engine work in series between "
                f"round trips ({e} busy {busy.get(e, 0) / total:.0%})" if total else "host round trips")
    m = re.match(r"(\w+) busy (\d+)% of the modeled time.*at (\d+)% of peak rate", b.get("roofline_reason", ""))
    if not m:
        return b.get("roofline_reason", "")
    e, busy, rate = m.group(1), int(m.group(2)), int(m.group(3))
    parts = []
    if busy < 70:
        parts.append(f"dependent chain / engines in series ({e} busy {busy}%)")
    if rate < 70:
        parts.append(f"{e} instructions at {rate}% of peak rate (short free sizes, idle lanes, fixed costs)")
    if not parts:
        parts.append(f"{e} busy {busy}% at {rate}% of peak rate (DMA descriptors / fixed costs)")
    if e != b.get("roofline_engine"):
        parts.append(f"bound engine {b.get('roofline_engine')}")
    return "; ".join(parts)


def row_reason(key, t1, t2, misses):
    text = " ".join(key)
    notes = []
    for pat, name in BEING_CHANGED:
        if re.search(pat, text):
            notes.append(f"being changed (s14/{name})")
            break
    if not misses:
        return "; ".join(notes)
    def manual(kind):
        return next((why for pat, k, why in REASONS if k == kind and re.search(pat, text)), None)
    if "emu" in misses:
        why = manual("emu") or emu_reason(min((x for x in (t1, t2) if x and emu_ratio(x)), key=emu_ratio))
        notes.append("emu: " + why)
    roof = [t for t in ("trn1", "trn2") if f"roof {t}" in misses]
    if roof and manual("roof"):
        notes.append(f"roofline {'/'.join(roof)}: " + manual("roof"))
    elif roof:
        r1 = roofline_reason(t1) if "trn1" in roof else ""
        r2 = roofline_reason(t2) if "trn2" in roof else ""
        if r1 and r1 == r2:
            notes.append(f"roofline trn1/trn2: {r1}")
        else:
            notes += [f"roofline {t}: {r}" for t, r in (("trn1", r1), ("trn2", r2)) if r]
    return "; ".join(notes)


def misses_of(t1, t2):
    out = []
    emus = [e for e in (emu_ratio(t1), emu_ratio(t2)) if e]
    if emus and min(emus) > EMU_TARGET:
        out.append("emu")
    for tgt, b in (("trn1", t1), ("trn2", t2)):
        if b and roofline(b) and roofline(b) > b.get("roofline_target", 1.5) + 1e-9:
            out.append(f"roof {tgt}")
    return out


# Reason classes counted in the summary: (label, regex over one "; "-separated part of a reason).
CLASSES = [
    ("emu: per-instruction / per-launch cost", r"^emu: per-instruction"),
    ("emu: host fp64 steps", r"^emu: host fp64"),
    ("emu: a bound part below its host rate (element-wise, TensorE, DMA)", r"^emu: bound"),
    ("roofline: host round trips", r"^roofline [^:]*: (host round trips|bound by the host round trips)"),
    ("roofline: dependent chain / engines in series", r"^roofline [^:]*: dependent chain"),
    ("roofline: noted from the docs", r"^roofline"),
]


def table(rows):
    lines = ["| suite | op | size | type | host / emu bound (trn1 run / trn2 run) | modeled us trn1 / trn2 | "
             "roofline trn1 / trn2 (bound) | native x | over target: why |",
             "|---|---|---|---|---|---|---|---|---|"]
    stats = {"rows": 0, "emu_met": 0, "emu_rows": 0, "roof_met": {"trn1": 0, "trn2": 0}, "roof_rows": {"trn1": 0, "trn2": 0}}
    worst = []
    for key in rows:  # run order (suite by suite, as the runs listed them)
        t1, t2 = rows[key].get("trn1"), rows[key].get("trn2")
        stats["rows"] += 1
        misses = misses_of(t1, t2)
        emus = [e for e in (emu_ratio(t1), emu_ratio(t2)) if e]
        if emus:
            stats["emu_rows"] += 1
            stats["emu_met"] += min(emus) <= EMU_TARGET
        for tgt, b in (("trn1", t1), ("trn2", t2)):
            if b and roofline(b):
                stats["roof_rows"][tgt] += 1
                stats["roof_met"][tgt] += roofline(b) <= b.get("roofline_target", 1.5) + 1e-9
        any_row = t1 or t2
        native = [b["native_ratio"] for b in (t1, t2) if b and b.get("native_ratio", -1) > 0]
        native_text = f"{num(min(native))} ({any_row['native']})" if native else "-"
        roof = " / ".join(f"{num(roofline(b))} {b.get('roofline_engine', '')}".strip() if b and roofline(b) else "-"
                          for b in (t1, t2))
        modeled = " / ".join(num(b["device"]["total_ns"] * 1e-3) if b and b.get("device") else "-" for b in (t1, t2))
        emu = " / ".join(num(emu_ratio(b)) if emu_ratio(b) else "-" for b in (t1, t2))
        why = row_reason(key, t1, t2, misses)
        for part in why.split("; "):
            for cls in CLASSES:
                if re.search(cls[1], part):
                    stats.setdefault("classes", {}).setdefault(cls[0], 0)
                    stats["classes"][cls[0]] += 1
                    break
        lines.append(f"| {key[0]} | {key[1]} | {key[3]} | {key[2]} | {emu} | {modeled} | {roof} | {native_text} | "
                     f"{why.replace('|', '/')} |")
        worst.append((key, min(emus) if emus else 0, max([roofline(b) or 0 for b in (t1, t2)])))
    return lines, stats, worst


def summary(stats, worst, rates):
    s = stats
    out = [f"{s['rows']} rows (each run on trn1 and trn2). Emulator bound (≤ {EMU_TARGET:g}, the lower of the trn1-run "
           f"and trn2-run ratios): {s['emu_met']} of {s['emu_rows']} rows with the column met. Roofline: trn1 "
           f"{s['roof_met']['trn1']} of {s['roof_rows']['trn1']} rows met, trn2 {s['roof_met']['trn2']} of "
           f"{s['roof_rows']['trn2']}."]
    top_emu = sorted(worst, key=lambda w: -w[1])[:8]
    top_roof = sorted(worst, key=lambda w: -w[2])[:8]
    out.append("Worst host / emulator bound: " + ", ".join(f"{k[0]} {k[1]} {k[2]} {k[3]} {num(e)}" for k, e, _ in top_emu) + ".")
    out.append("Worst roofline: " + ", ".join(f"{k[0]} {k[1]} {k[2]} {k[3]} {num(r)}" for k, _, r in top_roof) + ".")
    if s.get("classes"):
        out.append("Reasons of the rows over a target (a row counts once per column it misses): " +
                   "; ".join(f"{k} {v}" for k, v in sorted(s["classes"].items(), key=lambda kv: -kv[1])) + ".")
    sg = sorted(r.get("sgemm_flops_per_s", 0) for r in rates.values() if r)
    st = sorted(r.get("stream_elements_per_s", 0) for r in rates.values() if r)
    clocks = sorted({r.get("clock", "wall") for r in rates.values() if r})
    if sg:
        out.append(f"Host rates over the {len(sg)} runs (1 thread): SGEMM {sg[0] * 1e-9:.1f}–{sg[-1] * 1e-9:.1f} GFLOP/s, "
                   f"stream {st[0] * 1e-9:.2f}–{st[-1] * 1e-9:.2f} Gelem/s; clock: {' and '.join(clocks)} "
                   "(`--clock cpu`: process CPU seconds).")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--list", help="`trnsci bench --list --size full --suite all` output")
    ap.add_argument("--update", help="markdown file whose sweep-table markers are replaced")
    a = ap.parse_args()
    rows, rates = load_rows(a.json)
    rows = large_size_filter(rows, a.list)
    lines, stats, worst = table(rows)
    text = "\n".join(summary(stats, worst, rates)) + "\n\n" + "\n".join(lines) + "\n"
    missing = not_measured(rows, a.list)
    if missing:
        by_suite = {}
        for (suite, op), n in missing.items():
            by_suite.setdefault(suite, []).append(f"{op} ({n})")
        text += (f"\nNot measured in this sweep ({sum(missing.values())} large-size rows, by op with their row "
                 f"count; same commands with `--op`): " +
                 "; ".join(f"{s_}: {', '.join(v)}" for s_, v in by_suite.items()) + ".\n")
    if not a.update:
        sys.stdout.write(text)
        return 0
    with open(a.update) as f:
        doc = f.read()
    begin, end = "<!-- sweep-table begin -->\n", "<!-- sweep-table end -->"
    i, k = doc.find(begin), doc.find(end)
    if i < 0 or k < i:
        sys.exit(f"{a.update}: no sweep-table markers")
    with open(a.update, "w") as f:
        f.write(doc[: i + len(begin)] + text + doc[k:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
