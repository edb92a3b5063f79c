#!/usr/bin/python3
"""acceptance_audit.py - issues #27 / #28's acceptance, entry point by entry point, machine-checked.

For every exported C entry point of libtrnsolver.so (the cusolverDn.h + cusolver_common.h surface) and
libtrnsparse.so (cusparse.h's non-deprecated surface), grouped by routine family and value type:

  V  a `trnsci validate` case of the family and value type   (`trnsci validate --list`)
  B  a `trnsci bench` row of the family and value type         (`trnsci bench --list`; with --bench-json,
     also whether the row has accuracy, a native host time, trn1 and trn2 modeled times and a roofline ratio)
  F  a libFuzzer probe: the name is called in tests/fuzz/fuzz_trnsolver*.cpp / fuzz_trnsparse*.cpp
     (each harness preprocessed on its own macros, so token-pasted names count)
  E  a bad-input test: running the library's ctests logged " ** On entry to <name> parameter number N"
     (the libraries log every rejected argument; --badinput-log FILE, or --run-badinput to run the
     ctests with TRNSOLVER_/TRNSPARSE_LOGINFO_DBG=1 into FILE; without either E is not measured)

A family/type is the routine with its precision letter or value type taken off (S/D/C/Z legacy names;
R_32F/R_64F/C_32F/C_64F for the X and generic APIs); orgqr/ungqr, ormqr/unmqr, syevd/heevd ... are one
family. `_bufferSize` twins, descriptor helpers and the handle surface have no V/B of their own: their
V/B column shows the family's. The samples section checks the CUDALibrarySamples programs each issue
names against the project's own C99 walkthroughs (tests/trnsolver/*.c, tests/trnsparse/*.c and
tests/trnsparse/samples/cuda/*.cpp): a sample is covered when every entry point of its call sequence is
called there.

  tools/acceptance_audit.py --build build [--lib solver|sparse|both] [--bench-json F] [--badinput-log F]
      [--run-badinput] [--markdown] [--details] [--cuda-include /usr/local/cuda/include]

Exit 0 always (an audit, not a gate); --markdown prints the tables docs/trnsolver.md and
docs/trnsparse.md embed ("Acceptance audit").
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api_coverage  # noqa: E402  (the prototype reader and nm wrapper, shared)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULL_ONLY_BENCH = set()  # (family, type) whose bench rows all run with --size full only (set by audit())
GENERIC_TYPES = ("R_32F", "R_64F", "C_32F", "C_64F")
LETTER_TYPE = {"S": "R_32F", "D": "R_64F", "C": "C_32F", "Z": "C_64F"}

# ---- what each library's surface is ----------------------------------------------------------------
LIBS = {
    "solver": dict(so="trnsolver/libtrnsolver.so", src="cusolver", dst="trnsolver", suite="solver",
                   headers=["cusolverDn.h", "cusolver_common.h"], skip_deprecated=False,
                   fuzz=["tests/fuzz/fuzz_trnsolver.cpp"], env="TRNSOLVER", test_label="solver",
                   doc="docs/trnsolver.md"),
    "sparse": dict(so="trnsparse/libtrnsparse.so", src="cusparse", dst="trnsparse", suite="sparse",
                   headers=["cusparse.h"], skip_deprecated=True,
                   fuzz=["tests/fuzz/fuzz_trnsparse.cpp"], env="TRNSPARSE", test_label="sparse",
                   doc="docs/trnsparse.md"),
}

# Family aliases: the complex spelling of a real routine is the same family.
SOLVER_ALIASES = [("ungqr", "orgqr"), ("unmqr", "ormqr"), ("ungtr", "orgtr"), ("unmtr", "ormtr"), ("ungbr", "orgbr"),
                  ("heevdx", "syevdx"), ("heevd", "syevd"), ("heevjBatched", "syevjBatched"), ("heevj", "syevj"),
                  ("hegvdx", "sygvdx"), ("hegvd", "sygvd"), ("hegvj", "sygvj"), ("hetrd", "sytrd")]
SOLVER_X_ROUTINES = {"geev", "geqrf", "gesvd", "gesvdp", "gesvdr", "getrf", "getrs", "larft", "potrf", "potrs",
                     "syevBatched", "syevd", "syevdx", "sytrs", "trtri"}
SPARSE_GENERIC_OPS = ["SpGEMMreuse", "SpGEMM", "SpMMOp", "SpMM", "SpMV", "SpSV", "SpSM", "SDDMM", "DenseToSparse",
                      "SparseToDense", "Csr2cscEx2", "Gather", "Scatter", "Axpby", "Rot", "SpVV"]
SPARSE_INDEX = {"Xcoo2csr": "coo2csr", "Xcsr2coo": "csr2coo", "XcoosortByRow": "coosort", "XcoosortByColumn": "coosort",
                "Xcoosort_bufferSizeExt": "coosort", "Xcsrsort": "csrsort", "Xcsrsort_bufferSizeExt": "csrsort",
                "Xcscsort": "cscsort", "Xcscsort_bufferSizeExt": "cscsort", "Xcsr2gebsrNnz": "csr2gebsr",
                "Xcsrgeam2Nnz": "csrgeam2"}
HELPER_SUFFIX = re.compile(r"(_bufferSizeExt|_bufferSize|_preprocess|_analysis|_createDescr|_destroyDescr|"
                           r"_updateMatrix|_workEstimation|_estimateMemory|_getNumProducts|_compute|_copy|_nnz|"
                           r"_createPlan|_destroyPlan|_convert|_solve)$")


def classify_solver(name):
    """(family, types, helper) of a cuSOLVER-named entry point (cusolver prefix)."""
    base = name[len("cusolver"):]
    if re.match(r"(Dn)?(Create|Destroy|Set|Get|Logger)", base) or not base.startswith("Dn"):
        if "Logger" in base:
            return "logger", (), True
        if "SyevjInfo" in base or "GesvdjInfo" in base:
            return "Jacobi params", (), True
        return "handle", (), True
    m = re.fullmatch(r"Dn([SDCZ])([SDCZHBXKEY])(gesv|gels)(_bufferSize)?", base)
    if m:
        return "IRS " + m.group(3), (LETTER_TYPE[m.group(1)],), bool(m.group(4))
    m = re.fullmatch(r"DnIRSX(gesv|gels)(_bufferSize)?", base)
    if m:
        return "IRSX" + m.group(1), GENERIC_TYPES, bool(m.group(2))
    m = re.fullmatch(r"DnX(\w+?)(_bufferSize)?", base)
    if m and m.group(1) in SOLVER_X_ROUTINES:
        return "X" + m.group(1), GENERIC_TYPES, bool(m.group(2))
    m = re.fullmatch(r"Dn([SDCZ])([a-z]\w*?)(_bufferSize)?", base)
    if m:
        routine = m.group(2)
        for a, b in SOLVER_ALIASES:
            if routine == a:
                routine = b
        return routine, (LETTER_TYPE[m.group(1)],), bool(m.group(3))
    if base.startswith("DnIRS"):
        return "IRS params/infos", (), True
    if re.match(r"DnX(syevj|gesvdj)", base) or "SyevjInfo" in base or "GesvdjInfo" in base:
        return "Jacobi params", (), True
    if "Logger" in base:
        return "logger", (), True
    return "handle", (), True


def classify_sparse(name):
    base = name[len("cusparse"):]
    for op in SPARSE_GENERIC_OPS:
        if base == op or re.fullmatch(re.escape(op) + r"_\w+", base):
            return op, GENERIC_TYPES, base != op and not base.endswith(("_solve", "_compute"))
    if base in SPARSE_INDEX:  # csr2gebsrNnz / csrgeam2Nnz: index steps of a typed family (no type of their own)
        return SPARSE_INDEX[base], (() if base.endswith("Nnz") else ("index",)), base.endswith(("bufferSizeExt", "Nnz"))
    m = re.fullmatch(r"([SDCZ])(bsrmv|csr2gebsr|csrgeam2|gebsr2gebsc|gpsvInterleavedBatch|gtsv2StridedBatch|gtsv2_nopivot|"
                     r"gtsv2|gtsvInterleavedBatch|nnz)(_bufferSizeExt|_bufferSize)?", base)
    if m:
        return m.group(2), (LETTER_TYPE[m.group(1)],), bool(m.group(3))
    if "Logger" in base:
        return "logger", (), True
    if re.search(r"MatDescr|MatType|MatFillMode|MatDiagType|MatIndexBase", base):
        return "legacy matrix descriptor", (), True
    if re.match(r"(Create|Destroy|Const|Csr|Csc|Coo|Bsr|BlockedEll|SlicedEll|DnMat|DnVec|SpMat|SpVec)", base):
        return "generic descriptors", (), True
    return "handle", (), True


# ---- the CLI's case lists -> (family, type) ----------------------------------------------------------
SPARSE_CASE_FAMILIES = [  # (op regex, family): first match wins
    (r"spgemm_reuse", "SpGEMMreuse"), (r"spgemm", "SpGEMM"), (r"spmm", "SpMM"), (r"spmv", "SpMV"), (r"spsv", "SpSV"),
    (r"spsm", "SpSM"), (r"sddmm", "SDDMM"), (r"dense2sparse", "DenseToSparse"), (r"sparse2dense", "SparseToDense"),
    (r"csr2csc", "Csr2cscEx2"), (r"gather", "Gather"), (r"scatter", "Scatter"), (r"axpby", "Axpby"), (r"rot$", "Rot"),
    (r"spvv", "SpVV"), (r"csrgeam2", "csrgeam2"), (r"gtsv2_nopivot", "gtsv2_nopivot"),
    (r"gtsv2StridedBatch", "gtsv2StridedBatch"), (r"gtsvInterleavedBatch", "gtsvInterleavedBatch"), (r"gtsv2$", "gtsv2"),
    (r"gpsvInterleavedBatch", "gpsvInterleavedBatch"), (r"csr2gebsr", "csr2gebsr"), (r"gebsr2gebsc", "gebsr2gebsc"),
    (r"^nnz", "nnz"), (r"bsrmv", "bsrmv"), (r"coo2csr", "coo2csr"), (r"csr2coo", "csr2coo"),
    (r"xcoosort", "coosort"), (r"xcsrsort", "csrsort"), (r"xcscsort", "cscsort")]


def case_keys(lib, op, mode):
    """The (family, type) pairs a validate case or bench row of op / mode exercises."""
    text = op + " " + mode
    types = [t for t in GENERIC_TYPES if t in text]
    if lib == "sparse":
        if "int32" in text or "index" in text:
            types = types or ["index"]
        fams = []
        for pat, fam in SPARSE_CASE_FAMILIES:
            if re.search(pat, op):
                fams.append(fam)
                break
        # Routines a case's mode says it also runs ("R_32F (and SparseToDense)", "int32 (Xcoo2csr/Xcsr2coo)").
        fams += [fam for word, fam in (("SparseToDense", "SparseToDense"), ("Xcsr2coo", "csr2coo"), ("Xcoo2csr", "coo2csr"))
                 if word in mode and fam not in fams]
        return [(fam, t) for fam in fams for t in types]
    name = op.split()[0]
    m = re.fullmatch(r"([SDCZ])([SDCZHBXKEY])(gesv|gels)", name)
    if m:
        if "IRSX" in text:
            return [("IRSX" + m.group(3), LETTER_TYPE[m.group(1)])]
        return [("IRS " + m.group(3), LETTER_TYPE[m.group(1)])]
    m = re.fullmatch(r"X(\w+)", name)
    if m:  # the op's routine and every other X routine the mode names ("C API, Xgetrf + Xgetrs ...")
        routines = {m.group(1)} | set(re.findall(r"\bX([a-z]\w*)", mode))
        return [("X" + r, t) for r in sorted(routines) for t in types]
    m = re.fullmatch(r"([sdcz])([a-z]\w*?)(\+(\w+))?", name)
    if not m:
        return []
    t = LETTER_TYPE[m.group(1).upper()]
    out = []
    for routine in filter(None, (m.group(2), m.group(4))):
        for a, b in SOLVER_ALIASES:
            if routine == a:
                routine = b
        out.append((routine, t))
    # "C API" cases run the routine through its C entry point: nothing more to add.
    return out


def cli_list(trnsci, suite, command):
    res = subprocess.run([trnsci, command, "--suite", suite, "--list"], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("acceptance_audit: `%s %s --list` failed (%s): build tools/trnsci with --list" %
                 (trnsci, command, res.stderr.strip()))
    rows = []
    for line in res.stdout.splitlines():
        f = line.split("\t")
        if len(f) == 6:
            rows.append(dict(suite=f[0], library=f[1], op=f[2], mode=f[3], shape=f[4], size=f[5]))
    return rows


def bench_quality(paths, lib):
    """(family, type) -> the columns the bench JSON files' rows fill: acc (an error value), native (a native
    library's host time), trn1 / trn2 (a modeled time on that target), roofline (its roofline ratio) and,
    for sparse, crossover (the dense-GEMM crossover density). None without files."""
    if not paths:
        return None
    out = collections.defaultdict(set)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for r in data.get("bench", []):
            if r.get("suite") != LIBS[lib]["suite"]:
                continue
            cols = set()
            if isinstance(r.get("error"), (int, float)) and r["error"] == r["error"]:
                cols.add("acc")
            if (r.get("native_seconds") or 0) > 0:
                cols.add("native")
            if ((r.get("device") or {}).get("total_ns") or 0) > 0:
                cols.add(r.get("target", "?"))
            if (r.get("roofline") or 0) > 0:
                cols.add("roofline")
            if (r.get("crossover_density") or -1) > 0 or r.get("crossover"):
                cols.add("crossover")
            for key in case_keys(lib, r.get("op", ""), r.get("variant", "")):
                out[key] |= cols
    return out


# ---- fuzz harnesses: names called after the harness's own macros are expanded ------------------------
def called_names(paths, prefix):
    names = set()
    for p in paths:
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            text = f.read()
        # Preprocess the file's own macros only (its #includes dropped): token-pasted names appear.
        body = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#include"))
        res = subprocess.run(["cpp", "-P", "-w", "-x", "c++", "-"], input=body, capture_output=True, text=True)
        code = res.stdout if res.returncode == 0 else text
        code = api_coverage.strip_comments(code)
        names |= set(re.findall(r"\b(" + re.escape(prefix) + r"\w+)\s*[(,})]", code))
        names |= set(re.findall(r"[&({,=]\s*(" + re.escape(prefix) + r"\w+)\b", code))
    return names


def walkthrough_names(lib, prefix):
    d = os.path.join(ROOT, "tests", "trn" + lib)
    files = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".c")]
    cuda = os.path.join(d, "samples", "cuda")
    if os.path.isdir(cuda):
        files += [os.path.join(cuda, f) for f in os.listdir(cuda) if f.endswith(".cpp")]
    names = set()
    for p in files:
        with open(p, encoding="utf-8") as f:
            text = api_coverage.strip_comments(f.read())
        names |= set(re.findall(r"\b(" + re.escape(prefix) + r"\w+)\s*\(", text))
        cu = "cu" + lib  # CUDA-spelled programs are ported by prefix substitution at build time
        names |= {prefix + n[len(cu):] for n in re.findall(r"\b(" + cu + r"\w+)\s*\(", text)}
    return names


# CUDALibrarySamples programs and the entry points of their call sequences (cuSOLVER names; the
# issue texts' lists: #27 names 27 host-runnable cuSOLVER samples, #28 the cuSPARSE ones).
SOLVER_SAMPLES = {
    "getrf": "Dgetrf_bufferSize Dgetrf Dgetrs", "Xgetrf": "Xgetrf_bufferSize Xgetrf Xgetrs CreateParams SetAdvOptions",
    "Xpotrf": "Xpotrf_bufferSize Xpotrf Xpotrs", "potrfBatched": "DpotrfBatched DpotrsBatched",
    "syevj": "CreateSyevjInfo XsyevjSetTolerance XsyevjSetMaxSweeps Dsyevj_bufferSize Dsyevj XsyevjGetSweeps XsyevjGetResidual",
    "syevjBatched": "XsyevjSetSortEig DsyevjBatched_bufferSize DsyevjBatched",
    "sygvj": "Dsygvj_bufferSize Dsygvj", "gesvdj": "CreateGesvdjInfo Dgesvdj_bufferSize Dgesvdj XgesvdjGetSweeps",
    "gesvdjBatched": "XgesvdjSetSortEig DgesvdjBatched_bufferSize DgesvdjBatched",
    "gesvd": "Dgesvd_bufferSize Dgesvd", "Xgesvd": "Xgesvd_bufferSize Xgesvd", "Xgesvdp": "Xgesvdp_bufferSize Xgesvdp",
    "Xgesvdr": "Xgesvdr_bufferSize Xgesvdr", "gesvdaStridedBatched": "SgesvdaStridedBatched_bufferSize SgesvdaStridedBatched",
    "syevd": "Dsyevd_bufferSize Dsyevd", "Xsyevd": "Xsyevd_bufferSize Xsyevd", "syevdx": "Dsyevdx_bufferSize Dsyevdx",
    "Xsyevdx": "Xsyevdx_bufferSize Xsyevdx", "sygvd": "Dsygvd_bufferSize Dsygvd", "sygvdx": "Dsygvdx_bufferSize Dsygvdx",
    "orgqr": "Dgeqrf_bufferSize Dorgqr_bufferSize Dgeqrf Dorgqr", "ormqr": "Dgeqrf Dormqr_bufferSize Dormqr",
    "Xgeqrf": "Xgeqrf_bufferSize Xgeqrf", "Xtrtri": "Xtrtri_bufferSize Xtrtri", "Xgeev": "Xgeev_bufferSize Xgeev",
    "IRS gesv (<t1><t2>gesv)": "DHgesv_bufferSize DHgesv",
    "IRS Xgesv": "IRSParamsCreate IRSParamsSetSolverPrecisions IRSParamsSetRefinementSolver IRSInfosCreate "
                 "IRSXgesv_bufferSize IRSXgesv IRSInfosGetNiters",
}
SPARSE_SAMPLES = {
    "spmv_csr": "CreateCsr CreateDnVec SpMV_bufferSize SpMV", "spmv_coo": "CreateCoo SpMV",
    "spmv_sell": "CreateSlicedEll SpMV", "spmm_csr": "CreateDnMat SpMM_bufferSize SpMM", "spmm_coo": "CreateCoo SpMM",
    "spmm_csr_batched": "CsrSetStridedBatch DnMatSetStridedBatch SpMM",
    "spmm_coo_batched": "CooSetStridedBatch DnMatSetStridedBatch SpMM", "spmm_blockedell": "CreateBlockedEll SpMM",
    "sddmm_csr": "SDDMM_bufferSize SDDMM_preprocess SDDMM", "sddmm_bsr": "CreateBsr SDDMM",
    "sddmm_csr_batched": "CsrSetStridedBatch SDDMM", "spvv": "CreateSpVec SpVV", "axpby": "Axpby", "gather": "Gather",
    "scatter": "Scatter", "rot": "Rot",
    "dense2sparse_csr": "DenseToSparse_bufferSize DenseToSparse_analysis SpMatGetSize CsrSetPointers DenseToSparse_convert",
    "dense2sparse_blockedell": "CreateBlockedEll DenseToSparse_analysis DenseToSparse_convert",
    "sparse2dense_csr": "SparseToDense_bufferSize SparseToDense",
    "coosort": "Xcoosort_bufferSizeExt CreateIdentityPermutation XcoosortByRow Gather",
    "spsv_csr": "SpSV_createDescr SpMatSetAttribute SpSV_bufferSize SpSV_analysis SpSV_solve",
    "spsv_coo": "CreateCoo SpSV_analysis SpSV_solve", "spsv_sell": "CreateSlicedEll SpSV_analysis SpSV_solve",
    "spsm_csr": "SpSM_createDescr SpSM_bufferSize SpSM_analysis SpSM_solve", "spsm_coo": "CreateCoo SpSM_solve",
    "spgemm": "SpGEMM_createDescr SpGEMM_workEstimation SpGEMM_compute SpMatGetSize CsrSetPointers SpGEMM_copy",
    "spgemm_mem": "SpGEMM_getNumProducts SpGEMM_estimateMemory SpGEMM_compute",
    "spgemm_reuse": "SpGEMMreuse_workEstimation SpGEMMreuse_nnz SpGEMMreuse_copy SpGEMMreuse_compute",
    "gpsvInterleavedBatch": "SgpsvInterleavedBatch_bufferSizeExt SgpsvInterleavedBatch",
    "cg": "CreateCsric02Info Dcsric02_analysis Dcsric02 SpSV_solve", "bicgstab": "CreateCsrilu02Info Dcsrilu02 SpSV_solve",
}


def samples_table(lib):
    dst = LIBS[lib]["dst"]
    prefix = dst + ("Dn" if lib == "solver" else "")
    called = walkthrough_names(lib, dst)
    table = SOLVER_SAMPLES if lib == "solver" else SPARSE_SAMPLES
    out = []
    for sample, seq in table.items():
        names = [(prefix if not n.startswith(("IRS",)) or lib != "solver" else dst + "Dn") + n for n in seq.split()]
        missing = [n for n in names if n not in called]
        out.append((sample, not missing, missing))
    return out


# ---- bad input: names the libraries logged as "On entry to <name> parameter number N" ---------------
def run_badinput(build, lib, log):
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ)
    env[LIBS[lib]["env"] + "_LOGINFO_DBG"] = "1"
    env[LIBS[lib]["env"] + "_LOGDEST_DBG"] = os.path.abspath(log)
    # The library's ctest label (tests/trn<lib>/CMakeLists.txt); only the tests that are built run.
    subprocess.run(["ctest", "--test-dir", build, "-L", LIBS[lib]["test_label"], "-j2", "-E", "fuzz|golden|mpi"],
                   env=env, capture_output=True, text=True)


def logged_badinput(path):
    if not path or not os.path.exists(path):
        return None
    out = collections.defaultdict(set)
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"On entry to (\w+) parameter number (-?\d+)", line)
            if m:
                out[m.group(1)].add(int(m.group(2)))
    return out


# ---- the audit ---------------------------------------------------------------------------------------
def audit(args, lib):
    cfg = LIBS[lib]
    so = os.path.join(args.build, cfg["so"])
    syms = api_coverage.exported(so)
    headers = [os.path.join(args.cuda_include, h) for h in cfg["headers"]]
    if all(os.path.exists(h) for h in headers):
        surface = set()
        for h in headers:
            surface |= api_coverage.prototypes(h, cfg["src"], cfg["skip_deprecated"])
    else:  # no CUDA headers: every exported name of the library's prefix, spelled back
        surface = {cfg["src"] + s[len(cfg["dst"]):] for s in syms if s.startswith(cfg["dst"])}
    port = lambda n: cfg["dst"] + n[len(cfg["src"]):]
    trnsci = os.path.join(args.build, "tools", "trnsci")
    vkeys, bkeys = set(), set()
    for r in cli_list(trnsci, cfg["suite"], "validate"):
        vkeys |= set(case_keys(lib, r["op"], r["mode"]))
    bquick = set()
    for r in cli_list(trnsci, cfg["suite"], "bench"):
        keys = set(case_keys(lib, r["op"], r["mode"]))
        bkeys |= keys
        if r["size"] == "quick":
            bquick |= keys
    global FULL_ONLY_BENCH
    FULL_ONLY_BENCH = bkeys - bquick
    bq = bench_quality(args.bench_json, lib)
    fuzzed = called_names(cfg["fuzz"], cfg["dst"])
    if args.run_badinput:
        run_badinput(args.build, lib, args.badinput_log or "badinput_%s.log" % lib)
    bad = logged_badinput(args.badinput_log if args.badinput_log else ("badinput_%s.log" % lib if args.run_badinput else None))
    rows = []
    classify = classify_solver if lib == "solver" else classify_sparse
    for n in sorted(surface):
        family, types, helper = classify(n)
        t = port(n)
        rows.append(dict(name=t, family=family, types=types, helper=helper, exported=t in syms,
                         fuzz=t in fuzzed, bad=None if bad is None else t in bad))
    fam_types = collections.defaultdict(set)
    for r in rows:
        fam_types[r["family"]] |= set(r["types"])
    return rows, fam_types, vkeys, bkeys, bq


def family_table(lib, rows, fam_types, vkeys, bkeys, bq):
    fams = collections.OrderedDict()
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    lines = ["| family | entry points (exported) | validate: types | bench: types | bench columns missing | "
             "fuzz | bad input logged |", "|---|---|---|---|---|---|---|"]
    totals = collections.Counter()
    for fam, rs in fams.items():
        types = sorted(fam_types[fam], key=lambda t: (GENERIC_TYPES + ("index",)).index(t) if t in GENERIC_TYPES + ("index",) else 9)
        exported = sum(r["exported"] for r in rs)
        def cover(keys):
            if not types:
                return "n/a"
            have = [t for t in types if (fam, t) in keys]
            miss = [t for t in types if (fam, t) not in keys]
            totals["typed"] += len(types)
            return ("%d/%d" % (len(have), len(types))) + (" (no " + ", ".join(short(m) for m in miss) + ")" if miss else "")
        v = cover(vkeys)
        totals["v"] += sum((fam, t) in vkeys for t in types)
        b = cover(bkeys)
        totals["b"] += sum((fam, t) in bkeys for t in types)
        cols = "—"
        if bq is not None and types:
            missing = set()
            for t in types:
                if (fam, t) in bkeys:
                    want = {"acc", "native", "trn1", "trn2", "roofline"} | ({"crossover"} if lib == "sparse" else set())
                    got = bq.get((fam, t), set())
                    if got:
                        missing |= want - got
                    else:
                        missing.add("--size full row, not run" if (fam, t) in FULL_ONLY_BENCH else "row not in the JSON")
            cols = ", ".join(sorted(missing)) if missing else ("none" if any((fam, t) in bkeys for t in types) else "no row")
        fz = sum(r["fuzz"] for r in rs)
        totals["f"] += fz
        totals["n"] += len(rs)
        totals["exp"] += exported
        bad = "—" if rs[0]["bad"] is None else "%d/%d" % (sum(bool(r["bad"]) for r in rs), len(rs))
        if rs[0]["bad"] is not None:
            totals["e"] += sum(bool(r["bad"]) for r in rs)
        lines.append("| %s | %d/%d | %s | %s | %s | %d/%d | %s |" % (fam, exported, len(rs), v, b, cols, fz, len(rs), bad))
    return lines, totals


def short(t):
    return {"R_32F": "S", "R_64F": "D", "C_32F": "C", "C_64F": "Z"}.get(t, t)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--lib", default="both", choices=["solver", "sparse", "both"])
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    ap.add_argument("--bench-json", action="append", default=[],
                    help="a `trnsci bench --suite solver,sparse --target trn1 --target trn2 --json` file (repeatable)")
    ap.add_argument("--badinput-log", help="log of the library's ctests run with <LIB>_LOGINFO_DBG=1")
    ap.add_argument("--run-badinput", action="store_true", help="run the library's ctests to write that log")
    ap.add_argument("--markdown", action="store_true", help="print the docs' tables")
    ap.add_argument("--details", action="store_true", help="list every entry point without a fuzz probe or logged bad input")
    args = ap.parse_args()
    for lib in (["solver", "sparse"] if args.lib == "both" else [args.lib]):
        rows, fam_types, vkeys, bkeys, bq = audit(args, lib)
        lines, tot = family_table(lib, rows, fam_types, vkeys, bkeys, bq)
        print("### %s: %d entry points of the CUDA surface, %d exported" % (LIBS[lib]["dst"], tot["n"], tot["exp"]))
        print()
        print("\n".join(lines))
        print()
        summary = ("Summary: validate %d/%d and bench %d/%d (family, value type) pairs; fuzz probes %d/%d entry points"
                   % (tot["v"], tot["typed"] // 2, tot["b"], tot["typed"] // 2, tot["f"], tot["n"]))
        if rows and rows[0]["bad"] is not None:
            summary += "; bad input logged by the ctests for %d/%d" % (tot["e"], tot["n"])
        print(summary + ".")
        print()
        samples = samples_table(lib)
        ok = [s for s, good, _ in samples if good]
        print("Samples (CUDALibrarySamples call sequences in the project's own C99/C++ programs): %d/%d covered" %
              (len(ok), len(samples)))
        for s, good, missing in samples:
            if not good:
                print("- %s: not called: %s" % (s, ", ".join(missing)))
        print()
        if args.details:
            print("Entry points without a fuzz probe: " + ", ".join(r["name"] for r in rows if not r["fuzz"]))
            if rows and rows[0]["bad"] is not None:
                print("Entry points without logged bad input: " + ", ".join(r["name"] for r in rows if not r["bad"]))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
