"""numpy.linalg and scipy.linalg as unmodified clients of libtrnsolver_lapack.so (issue #27).

run_numpy_scipy.sh runs this script twice with /usr/bin/python3: `dump REF.npz` without the shim (the
system LAPACK: Debian's numpy and scipy call OpenBLAS's liblapack.so.3) and `check REF.npz` with the
shim preloaded. Every case computes the same seeded problem; `check` asserts, per case,

  - the shim run's own residuals (A V = V diag(w), orthonormal V; A = U diag(s) V^H, orthonormal U
    and V; A X = B X diag(w) and X^H B X = I for the generalized problems) within docs/trnsolver.md's
    bounds for the kit routine that answers it, and
  - its eigenvalues / singular values against the un-preloaded run's within the same bounds,

and prints one line per case (the worst ratio to its bound). The LAPACK routine each case reaches is
named in the case, so that the driver can require the shim's trace to show it answered.
"""
import sys

import numpy as np
import scipy.linalg as sla

U = {np.float32: 2.0**-24, np.float64: 2.0**-53, np.complex64: 2.0**-24, np.complex128: 2.0**-53}


def rng_matrix(rng, m, n, dtype):
    a = rng.standard_normal((m, n))
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal((m, n))
    return a.astype(dtype)


def hermitian(rng, n, dtype):
    g = rng_matrix(rng, n, n, dtype)
    return ((g + g.conj().T) / 2).astype(dtype)


def spd(rng, n, dtype):
    g = rng_matrix(rng, n, n, dtype)
    return (g @ g.conj().T / n + np.eye(n)).astype(dtype)


def fro(x):
    return float(np.linalg.norm(np.asarray(x, dtype=np.complex128)))


# ---- the cases: name -> (LAPACK routine reached, function returning a dict of arrays) -----------------

def eigh_case(dtype, n, uplo, values_only):
    def run(rng):
        a = hermitian(rng, n, dtype)
        if values_only:
            return {"a": a, "w": np.linalg.eigvalsh(a, UPLO=uplo)}
        w, v = np.linalg.eigh(a, UPLO=uplo)
        return {"a": a, "w": w, "v": v}
    return run


def scipy_eigh_case(dtype, n, driver, itype=1, generalized=False, lower=True, subset=None):
    """subset: None, ("index", lo, hi) (0-based, inclusive, as scipy) or ("value", k): the half-open
    interval between the midpoints of the gaps below eigenvalue k and above eigenvalue k + 7 (an interval
    whose ends lie far from every eigenvalue, so both runs select the same ones)."""
    def run(rng):
        a = hermitian(rng, n, dtype)
        b = spd(rng, n, dtype) if generalized else None
        kw = {}
        if subset is not None and subset[0] == "index":
            kw["subset_by_index"] = subset[1:]
        elif subset is not None:
            k, lam = subset[1], np.linalg.eigvalsh(a.astype(np.complex128))
            kw["subset_by_value"] = ((lam[k - 1] + lam[k]) / 2, (lam[k + 7] + lam[k + 8]) / 2)
        w, v = sla.eigh(a, b, lower=lower, driver=driver, type=itype, **kw)
        out = {"a": a, "w": w, "v": v}
        if generalized:
            out["b"] = b
        return out
    return run


def svd_case(dtype, m, n, full, compute_uv=True, scipy_driver=None):
    def run(rng):
        a = rng_matrix(rng, m, n, dtype)
        if scipy_driver is None:
            r = np.linalg.svd(a, full_matrices=full, compute_uv=compute_uv)
        else:
            r = sla.svd(a, full_matrices=full, compute_uv=compute_uv, lapack_driver=scipy_driver)
        if not compute_uv:
            return {"a": a, "s": r}
        u, s, vh = r
        return {"a": a, "s": s, "u": u, "vh": vh}
    return run


def cholesky_case(dtype, n):
    def run(rng):
        a = spd(rng, n, dtype)
        return {"a": a, "l": np.linalg.cholesky(a)}
    return run


def solve_case(dtype, n):
    def run(rng):
        a = rng_matrix(rng, n, n, dtype) + n * np.eye(n, dtype=dtype)
        b = rng_matrix(rng, n, 3, dtype)
        return {"a": a, "b": b, "x": np.linalg.solve(a, b)}
    return run


def qr_case(dtype, m, n):
    def run(rng):
        a = rng_matrix(rng, m, n, dtype)
        q, r = np.linalg.qr(a)
        return {"a": a, "q": q, "r": r}
    return run


def nonfinite_case(dtype, n, svd, scale=None):
    # A NaN in the input (or, scale: a D/Z SVD LAPACK would rescale, |a| ~ 1e-200): the shim passes the
    # call to the next library; the outcome -- values or LinAlgError -- must be the reference run's, bit
    # for bit.
    def run(rng):
        a = hermitian(rng, n, dtype)
        if scale is None:
            a[1, 2] = a[2, 1] = np.nan
        else:
            a = (a * scale).astype(dtype)
        try:
            r = np.linalg.svd(a, compute_uv=False) if svd else np.linalg.eigvalsh(a)
            out = np.concatenate([[0.0], np.asarray(r, dtype=np.float64)])
        except np.linalg.LinAlgError:
            out = np.array([1.0])
        return {"a": a, "nonfinite": out}
    return run


CASES = {}
for dt, tag in ((np.float64, "d"), (np.float32, "s"), (np.complex128, "z"), (np.complex64, "c")):
    # numpy.linalg computes float32 / complex64 input in double (its _commonType): its S/C cases reach
    # the D/Z routines; scipy.linalg calls the routine of the array's type.
    ntag = {"s": "d", "c": "z"}.get(tag, tag)
    ev = ("%ssyevd_" if tag in "sd" else "%sheevd_") % ntag
    CASES["numpy.eigh %s n=24 L" % tag] = (ev, eigh_case(dt, 24, "L", False))
    CASES["numpy.eigh %s n=17 U" % tag] = (ev, eigh_case(dt, 17, "U", False))
    CASES["numpy.eigvalsh %s n=24" % tag] = (ev, eigh_case(dt, 24, "L", True))
    CASES["numpy.svd %s 30x20 full" % tag] = ("%sgesdd_" % ntag, svd_case(dt, 30, 20, True))
    CASES["numpy.svd %s 20x30 thin" % tag] = ("%sgesdd_" % ntag, svd_case(dt, 20, 30, False))
    CASES["numpy.svd %s 25x25 values" % tag] = ("%sgesdd_" % ntag, svd_case(dt, 25, 25, False, False))
    CASES["scipy.svd gesvd %s 28x19 full" % tag] = ("%sgesvd_" % tag, svd_case(dt, 28, 19, True, True, "gesvd"))
    CASES["scipy.svd gesvd %s 19x28 thin" % tag] = ("%sgesvd_" % tag, svd_case(dt, 19, 28, False, True, "gesvd"))
    CASES["scipy.svd gesdd %s 19x28 full" % tag] = ("%sgesdd_" % tag, svd_case(dt, 19, 28, True, True, "gesdd"))
    ev_name = "syev" if tag in "sd" else "heev"
    gv_name = "sygv" if tag in "sd" else "hegv"
    CASES["scipy.eigh ev %s n=20" % tag] = ("%s%s_" % (tag, ev_name), scipy_eigh_case(dt, 20, "ev"))
    CASES["scipy.eigh evd %s n=20 upper" % tag] = ("%s%sd_" % (tag, ev_name),
                                                   scipy_eigh_case(dt, 20, "evd", lower=False))
    # scipy's default driver for a standard problem is evr (?SYEVR / ?HEEVR), and evx (?SYEVX / ?HEEVX) takes
    # subsets too.
    evr_name, evx_name = "%s%sr_" % (tag, ev_name), "%s%sx_" % (tag, ev_name)
    CASES["scipy.eigh default=evr %s n=20" % tag] = (evr_name, scipy_eigh_case(dt, 20, None))
    CASES["scipy.eigh evr subset_by_index %s n=20" % tag] = (
        evr_name, scipy_eigh_case(dt, 20, "evr", subset=("index", 3, 12)))
    CASES["scipy.eigh evr subset_by_value %s n=20 upper" % tag] = (
        evr_name, scipy_eigh_case(dt, 20, "evr", lower=False, subset=("value", 6)))
    CASES["scipy.eigh evx subset_by_index %s n=20" % tag] = (
        evx_name, scipy_eigh_case(dt, 20, "evx", subset=("index", 0, 7)))
    CASES["scipy.eigh evx subset_by_value %s n=20" % tag] = (
        evx_name, scipy_eigh_case(dt, 20, "evx", subset=("value", 9)))
    for itype in (1, 2, 3):
        CASES["scipy.eigh b= gvd type=%d %s n=18" % (itype, tag)] = (
            "%s%sd_" % (tag, gv_name), scipy_eigh_case(dt, 18, "gvd", itype, True))
    CASES["scipy.eigh b= gv type=1 %s n=18 upper" % tag] = (
        "%s%s_" % (tag, gv_name), scipy_eigh_case(dt, 18, "gv", 1, True, lower=False))
    CASES["numpy.cholesky %s n=20" % tag] = ("%spotrf_" % ntag, cholesky_case(dt, 20))
    CASES["numpy.solve %s n=20" % tag] = ("%sgesv_" % ntag, solve_case(dt, 20))
    CASES["numpy.qr %s 24x16" % tag] = ("%sgeqrf_" % ntag, qr_case(dt, 24, 16))
CASES["numpy.eigvalsh d NaN (passes through)"] = ("dsyevd_", nonfinite_case(np.float64, 6, False))
CASES["numpy.svd z NaN (passes through)"] = ("zgesdd_", nonfinite_case(np.complex128, 6, True))
CASES["numpy.svd d scaled 1e-200 (passes through)"] = ("dgesdd_", nonfinite_case(np.float64, 6, True, 1e-200))


# ---- checks: (ratio to bound) per quantity ------------------------------------------------------------

def check_eig(r, ref, u):
    a, w, n = r["a"].astype(np.complex128), r["w"].astype(np.float64), r["a"].shape[0]
    anorm = float(ref["anorm2"])
    b = r.get("b")
    if b is None:
        if w.shape != ref["w"].shape:  # a subset that selected other eigenvalues than the reference run's
            return {"eigenvalue count %d vs %d" % (w.shape[0], ref["w"].shape[0]): np.inf}
        out = {"eigenvalues": np.max(np.abs(w - ref["w"])) / (4 * n * u * anorm)}
        if "v" in r:
            v = r["v"].astype(np.complex128)
            out["residual"] = fro(a @ v - v * w) / fro(a) / (4 * n * u)
            out["orthogonality"] = fro(v.conj().T @ v - np.eye(w.shape[0])) / (8 * n * u)
        return out
    b = b.astype(np.complex128)
    kappa = float(ref["kappa"])
    wmax = np.max(np.abs(ref["w"]))
    out = {"eigenvalues": np.max(np.abs(w - ref["w"])) / (8 * n * u * kappa * wmax)}
    x = r["v"].astype(np.complex128)
    itype = r["itype"]
    lhs, rhs = {1: (a @ x, b @ x * w), 2: (a @ b @ x, x * w), 3: (b @ a @ x, x * w)}[itype]
    scale = ((fro(a) + fro(b) * wmax) if itype == 1 else (fro(a) * fro(b) + wmax)) * fro(x)
    out["residual"] = fro(lhs - rhs) / scale / (8 * n * u * kappa)
    if itype < 3:
        out["B-orthogonality"] = fro(x.conj().T @ b @ x - np.eye(n)) / (8 * n**1.5 * u * kappa)
    return out


def check_svd(r, ref, u):
    a, s = r["a"].astype(np.complex128), r["s"].astype(np.float64)
    m, n = a.shape
    k, big = min(m, n), max(m, n)
    out = {"singular values": np.max(np.abs(s - ref["s"])) / (8 * big * u * ref["s"][0])}
    if "u" in r:
        uu, vh = r["u"].astype(np.complex128), r["vh"].astype(np.complex128)
        out["residual"] = fro(a - (uu[:, :k] * s) @ vh[:k, :]) / fro(a) / (8 * k**1.5 * u)
        out["U orthogonality"] = fro(uu.conj().T @ uu - np.eye(uu.shape[1])) / (8 * max(uu.shape) ** 1.5 * u)
        out["V orthogonality"] = fro(vh @ vh.conj().T - np.eye(vh.shape[0])) / (8 * max(vh.shape) ** 1.5 * u)
    return out


def check_other(r, ref, u):
    a = r["a"].astype(np.complex128)
    n = a.shape[1]
    if "l" in r:
        l = r["l"].astype(np.complex128)
        return {"L L^H - A": fro(l @ l.conj().T - a) / fro(a) / (8 * n * u)}
    if "x" in r:
        x = r["x"].astype(np.complex128)
        b = r["b"].astype(np.complex128)
        kappa = float(ref["kappa"])
        return {"forward error": fro(x - ref["x"]) / fro(ref["x"]) / (8 * n * u * kappa)}
    q, rr = r["q"].astype(np.complex128), r["r"].astype(np.complex128)
    return {"QR - A": fro(q @ rr - a) / fro(a) / (8 * n * u),
            "Q orthogonality": fro(q.conj().T @ q - np.eye(q.shape[1])) / (8 * n * u)}


def compute():
    results = {}
    for i, (name, (routine, run)) in enumerate(CASES.items()):
        rng = np.random.default_rng(2700 + i)
        r = run(rng)
        itype = 1
        if "type=" in name:
            itype = int(name.split("type=")[1][0])
        r["itype"] = np.array(itype)
        results[name] = r
    return results


def main():
    mode, path = sys.argv[1], sys.argv[2]
    results = compute()
    if mode == "dump":
        # The norms and condition numbers the bounds use, from the reference run (computed under the
        # shim they would be answered by it: numpy's 2-norm and cond call ?gesdd).
        for r in results.values():
            if "w" in r:
                r["anorm2"] = np.array(np.linalg.norm(r["a"].astype(np.complex128), 2))
            if "b" in r:
                r["kappa"] = np.array(np.linalg.cond(r["b"].astype(np.complex128) if "w" in r else r["a"]))
        flat = {"%s|%s" % (name, key): val for name, r in results.items() for key, val in r.items()}
        np.savez(path, **flat)
        print("dumped %d cases" % len(results))
        return 0
    ref_flat = np.load(path)
    worst, failed = 0.0, 0
    for name, r in results.items():
        routine = CASES[name][0]
        ref = {key.split("|", 1)[1]: ref_flat[key] for key in ref_flat.files if key.split("|", 1)[0] == name}
        r["itype"] = int(r["itype"])
        u = U[r["a"].dtype.type]
        if "nonfinite" in r:
            same = r["nonfinite"].shape == ref["nonfinite"].shape and np.array_equal(
                r["nonfinite"], ref["nonfinite"], equal_nan=True)
            ratios = {"same outcome as the reference (0/1)": 0.0 if same else 2.0}
        elif "w" in r:
            ratios = check_eig(r, ref, u)
        elif "s" in r:
            ratios = check_svd(r, ref, u)
        else:
            ratios = check_other(r, ref, u)
        top = max(ratios.values())
        worst = max(worst, top)
        ok = np.isfinite(top) and top <= 1.0
        failed += 0 if ok else 1
        detail = " ".join("%s=%.3g" % (k, v) for k, v in ratios.items())
        print("CASE %-4s %-40s %-8s worst/bound=%.3g  %s" % ("ok" if ok else "FAIL", name, routine, top, detail))
    print("NUMPY_SCIPY cases=%d failed=%d worst_ratio_to_bound=%.3g" % (len(results), failed, worst))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
