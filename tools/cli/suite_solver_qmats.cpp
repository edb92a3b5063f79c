// `trnsci validate/bench` suite "solver", the routines that form or apply a Householder Q, each on its
// own (#27 audit): ?orgqr/?ungqr, ?ormqr/?unmqr, ?sytrd/?hetrd, ?orgtr/?ungtr, ?ormtr/?unmtr, ?orgbr/?ungbr
// (S, D, C, Z). The oracle is LAPACKE (dorgqr/zungqr, dormqr/zunmqr, dorgtr/zungtr, dormtr/zunmtr,
// dorgbr/zungbr) in double / double complex run on OUR reflectors, so the measured difference is this
// routine's own rounding; sytrd/hetrd is measured by ||Q^H A Q - T||_F / ||A||_F with Q from LAPACKE
// ?orgtr on its reflectors, in long double. Bounds: docs/trnsolver.md "Validate cases of the solves, the
// batched Cholesky, the Q routines and the selected eigensolvers" (two-sided, >= u/64 in every precision
// as "QR"). Bench rows: LAPACK's flop counts (x4 complex).
#include <lapacke.h>

#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "qr_oracles.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/svd.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using solver_data::kCplx;
using solver_data::kU;
using solver_data::RealT;
using qr_oracle::LD;
using qr_oracle::wide;
template <class T>
using W = std::conditional_t<kCplx<T>, std::complex<double>, double>;  // the oracle's element type

template <class T>
std::vector<W<T>> widen(const std::vector<T>& v) {
  return std::vector<W<T>>(v.begin(), v.end());
}
template <class T>
lapack_complex_double* z(std::vector<T>& v) {
  return reinterpret_cast<lapack_complex_double*>(v.data());
}
template <class T>
const lapack_complex_double* z(const std::vector<T>& v) {
  return reinterpret_cast<const lapack_complex_double*>(v.data());
}

// The oracles, in double (complex: the unitary forms, trans 'C').
template <class T>
void ref_orgqr(int m, int n, int k, std::vector<W<T>>& a, const std::vector<W<T>>& tau) {
  if constexpr (kCplx<T>) LAPACKE_zungqr(LAPACK_COL_MAJOR, m, n, k, z(a), m, z(tau));
  else LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, n, k, a.data(), m, tau.data());
}
template <class T>
void ref_ormqr(bool left, bool trans, int m, int n, int k, const std::vector<W<T>>& a, int lda,
               const std::vector<W<T>>& tau, std::vector<W<T>>& c) {
  const char side = left ? 'L' : 'R', tr = trans ? (kCplx<T> ? 'C' : 'T') : 'N';
  if constexpr (kCplx<T>) LAPACKE_zunmqr(LAPACK_COL_MAJOR, side, tr, m, n, k, z(a), lda, z(tau), z(c), m);
  else LAPACKE_dormqr(LAPACK_COL_MAJOR, side, tr, m, n, k, a.data(), lda, tau.data(), c.data(), m);
}
template <class T>
void ref_orgtr(char uplo, int n, std::vector<W<T>>& a, const std::vector<W<T>>& tau) {
  if constexpr (kCplx<T>) LAPACKE_zungtr(LAPACK_COL_MAJOR, uplo, n, z(a), n, z(tau));
  else LAPACKE_dorgtr(LAPACK_COL_MAJOR, uplo, n, a.data(), n, tau.data());
}
template <class T>
void ref_ormtr(bool left, char uplo, bool trans, int m, int n, const std::vector<W<T>>& a, int lda,
               const std::vector<W<T>>& tau, std::vector<W<T>>& c) {
  const char side = left ? 'L' : 'R', tr = trans ? (kCplx<T> ? 'C' : 'T') : 'N';
  if constexpr (kCplx<T>) LAPACKE_zunmtr(LAPACK_COL_MAJOR, side, uplo, tr, m, n, z(a), lda, z(tau), z(c), m);
  else LAPACKE_dormtr(LAPACK_COL_MAJOR, side, uplo, tr, m, n, a.data(), lda, tau.data(), c.data(), m);
}
template <class T>
void ref_orgbr(char vect, int m, int n, int k, std::vector<W<T>>& a, int lda, const std::vector<W<T>>& tau) {
  if constexpr (kCplx<T>) LAPACKE_zungbr(LAPACK_COL_MAJOR, vect, m, n, k, z(a), lda, z(tau));
  else LAPACKE_dorgbr(LAPACK_COL_MAJOR, vect, m, n, k, a.data(), lda, tau.data());
}

// ||X - X_ref||_F / ||X_ref||_F over rows x cols (both ld ld).
template <class T>
double rel_diff(int rows, int cols, int ld, const std::vector<T>& x, const std::vector<W<T>>& ref) {
  const long double d = qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) {
    return wide(x[i + j * ld]) - wide(ref[i + j * ld]);
  });
  return double(d / qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) { return wide(ref[i + j * ld]); }));
}
// ||Q^H Q - I||_F of the rows x cols Q (ld rows).
template <class T>
double orth(int rows, int cols, const std::vector<T>& q) {
  return double(qr_oracle::frob(cols, cols, [&](std::int64_t i, std::int64_t j) {
    LD t = i == j ? LD(-1) : LD(0);
    for (int k = 0; k < rows; ++k) t += std::conj(wide(q[k + i * rows])) * wide(q[k + j * rows]);
    return t;
  }));
}

ts::Settings on(trn::Generation target) {
  ts::Settings s;
  s.target = target;
  return s;
}

struct Run {
  double measured = 0, orth = -1, host_seconds = 0;
  std::string note;
  ts::CallReport rep;
};

// Times f (the routine under test) with its report.
template <class F>
void timed(Run& r, F&& f) {
  const double t0 = now_seconds();
  f(&r.rep);
  r.host_seconds = seconds_since(t0);
}

// orgqr (kind 'g') / ormqr ('m'): reflectors of geqrf on an m x k Gaussian matrix; orgqr forms Q's first
// k columns, ormqr applies Q to an m x c (left) and a c x m (right) Gaussian C with op N and T/C.
template <class T>
Run run_qr_family(char kind, int m, int k, trn::Generation target) {
  const ts::Settings s = on(target);
  std::vector<T> a = solver_data::gaussian<T>(m, k, 3100 + static_cast<std::uint64_t>(m)), tau(static_cast<std::size_t>(k));
  ts::geqrf(s, m, k, a.data(), m, tau.data());
  const auto aw = widen(a), tw = widen(tau);
  Run r;
  if (kind == 'g') {
    std::vector<T> q = a;
    timed(r, [&](ts::CallReport* rep) { ts::orgqr(s, m, k, k, q.data(), m, tau.data(), rep); });
    std::vector<W<T>> qr = aw;
    ref_orgqr<T>(m, k, k, qr, tw);
    r.measured = rel_diff(m, k, m, q, qr);
    r.orth = orth(m, k, q);
    return r;
  }
  const int c = m / 2 + 7;
  for (int v = 0; v < 4; ++v) {
    const bool left = v < 2, trans = v % 2 == 1;
    const int rows = left ? m : c, cols = left ? c : m;
    const std::vector<T> c0 = solver_data::gaussian<T>(rows, cols, 3200 + static_cast<std::uint64_t>(v));
    std::vector<T> out = c0;
    Run one;
    timed(one, [&](ts::CallReport* rep) {
      ts::ormqr(s, left, trans, rows, cols, k, a.data(), m, tau.data(), out.data(), rows, rep);
    });
    std::vector<W<T>> ref = widen(c0);
    ref_ormqr<T>(left, trans, rows, cols, k, aw, m, tw, ref);
    const double e = rel_diff(rows, cols, rows, out, ref) * qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) {
      return wide(ref[i + j * rows]);
    }) / qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) { return wide(c0[i + j * rows]); });
    if (v == 0) {
      r.host_seconds = one.host_seconds;
      r.rep = one.rep;
    }
    r.measured = std::max(r.measured, e);
    r.note += std::string(v == 0 ? "" : ", ") + (left ? "L" : "R") + (trans ? (kCplx<T> ? "C " : "T ") : "N ") + sci(e);
  }
  return r;
}

// sytrd/hetrd ('t': ||Q^H A Q - T||_F / ||A||_F, Q by LAPACKE ?orgtr on our reflectors), orgtr ('g') and
// ormtr ('m': left and right, op N and T/C, against LAPACKE) on a Gaussian symmetric / Hermitian n x n A;
// the worst over uplo lower and upper.
template <class T>
Run run_tr_family(char kind, int n, trn::Generation target) {
  const ts::Settings s = on(target);
  std::vector<T> a0 = solver_data::gaussian<T>(n, n, 3300 + static_cast<std::uint64_t>(n));
  for (int j = 0; j < n; ++j) {
    if constexpr (kCplx<T>) a0[j + static_cast<std::size_t>(j) * n] = T(a0[j + static_cast<std::size_t>(j) * n].real(), 0);
    for (int i = j + 1; i < n; ++i) {
      const T x = a0[i + static_cast<std::size_t>(j) * n];
      if constexpr (kCplx<T>) a0[j + static_cast<std::size_t>(i) * n] = std::conj(x);
      else a0[j + static_cast<std::size_t>(i) * n] = x;
    }
  }
  Run r;
  for (const bool upper : {false, true}) {
    const ts::Uplo uplo = upper ? ts::Uplo::upper : ts::Uplo::lower;
    const char ul = upper ? 'U' : 'L';
    std::vector<T> a = a0, tau(static_cast<std::size_t>(std::max(n - 1, 1)));
    std::vector<RealT<T>> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n));
    Run one;
    const auto tr = [&](ts::CallReport* rep) {
      if constexpr (kCplx<T>) ts::hetrd(s, uplo, n, a.data(), n, d.data(), e.data(), tau.data(), rep);
      else ts::sytrd(s, uplo, n, a.data(), n, d.data(), e.data(), tau.data(), rep);
    };
    if (kind == 't') timed(one, tr);
    else tr(nullptr);
    const auto aw = widen(a), tw = widen(tau);
    double err = 0;
    if (kind == 't') {
      std::vector<W<T>> q = aw;
      ref_orgtr<T>(ul, n, q, tw);
      const auto tt = [&](std::int64_t i, std::int64_t j) -> LD {
        if (i == j) return LD(d[i], 0);
        if (i == j + 1 || j == i + 1) return LD(e[std::min(i, j)], 0);
        return LD(0);
      };
      std::vector<LD> aq(static_cast<std::size_t>(n) * n);  // A Q
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          LD t = 0;
          for (int k = 0; k < n; ++k) t += wide(a0[i + static_cast<std::size_t>(k) * n]) * wide(q[k + static_cast<std::size_t>(j) * n]);
          aq[i + static_cast<std::size_t>(j) * n] = t;
        }
      err = double(qr_oracle::frob(n, n, [&](std::int64_t i, std::int64_t j) {
                     LD t = -tt(i, j);
                     for (int k = 0; k < n; ++k) t += std::conj(wide(q[k + i * n])) * aq[k + j * n];
                     return t;
                   }) /
                   qr_oracle::frob(n, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * n]); }));
    } else if (kind == 'g') {
      std::vector<T> q = a;
      timed(one, [&](ts::CallReport* rep) {
        if constexpr (kCplx<T>) ts::ungtr(s, uplo, n, q.data(), n, tau.data(), rep);
        else ts::orgtr(s, uplo, n, q.data(), n, tau.data(), rep);
      });
      std::vector<W<T>> qr = aw;
      ref_orgtr<T>(ul, n, qr, tw);
      err = rel_diff(n, n, n, q, qr);
      r.orth = std::max(r.orth, orth(n, n, q));
    } else {
      for (int v = 0; v < 4; ++v) {
        const bool left = v < 2, trans = v % 2 == 1;
        const int rows = left ? n : n / 2 + 3, cols = left ? n / 2 + 3 : n;
        const std::vector<T> c0 = solver_data::gaussian<T>(rows, cols, 3400 + static_cast<std::uint64_t>(v));
        std::vector<T> out = c0;
        Run app;
        timed(app, [&](ts::CallReport* rep) {
          if constexpr (kCplx<T>) ts::unmtr(s, left, uplo, trans, rows, cols, a.data(), n, tau.data(), out.data(), rows, rep);
          else ts::ormtr(s, left, uplo, trans, rows, cols, a.data(), n, tau.data(), out.data(), rows, rep);
        });
        std::vector<W<T>> ref = widen(c0);
        ref_ormtr<T>(left, ul, trans, rows, cols, aw, n, tw, ref);
        const long double dn = qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) {
          return wide(out[i + j * rows]) - wide(ref[i + j * rows]);
        });
        err = std::max(err, double(dn / qr_oracle::frob(rows, cols, [&](std::int64_t i, std::int64_t j) {
                                     return wide(c0[i + j * rows]);
                                   })));
        if (v == 0) one = app;
      }
    }
    if (!upper) {
      r.host_seconds = one.host_seconds;
      r.rep = one.rep;
    }
    r.measured = std::max(r.measured, err);
    r.note += std::string(upper ? ", upper " : "lower ") + sci(err);
  }
  return r;
}

// orgbr / ungbr: gebrd of an m x n Gaussian (m >= n), then Q (vect 'Q', m x n) and P^H (vect 'P', n x n)
// against LAPACKE ?orgbr on the same reflectors; the worse of the two.
template <class T>
Run run_orgbr(int m, int n, trn::Generation target) {
  const ts::Settings s = on(target);
  std::vector<T> a = solver_data::gaussian<T>(m, n, 3500 + static_cast<std::uint64_t>(m)), tq(static_cast<std::size_t>(n)),
                 tp(static_cast<std::size_t>(n));
  std::vector<RealT<T>> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n));
  ts::gebrd(s, m, n, a.data(), m, d.data(), e.data(), tq.data(), tp.data());
  std::vector<T> q = a, p(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) p[i + static_cast<std::size_t>(j) * n] = a[i + static_cast<std::size_t>(j) * m];
  std::vector<W<T>> qr = widen(q), pr = widen(p);
  Run r;
  timed(r, [&](ts::CallReport* rep) { ts::orgbr(s, 'Q', m, n, n, q.data(), m, tq.data(), rep); });
  ts::orgbr(s, 'P', n, n, m, p.data(), n, tp.data());
  ref_orgbr<T>('Q', m, n, n, qr, m, widen(tq));
  ref_orgbr<T>('P', n, n, m, pr, n, widen(tp));
  const double eq = rel_diff(m, n, m, q, qr), ep = rel_diff(n, n, n, p, pr);
  r.measured = std::max(eq, ep);
  r.orth = std::max(orth(m, n, q), orth(n, n, p));
  r.note = "Q " + sci(eq) + ", P^H " + sci(ep);
  return r;
}

template <class T>
Run run_kind(char routine, int m, int n, trn::Generation target) {
  switch (routine) {
    case 'g': case 'm': return run_qr_family<T>(routine, m, n, target);
    case 'b': return run_orgbr<T>(m, n, target);
    default: return run_tr_family<T>(routine == 'T' ? 't' : routine == 'G' ? 'g' : 'm', m, target);
  }
}

struct Routine {
  char kind;       // 'g' orgqr, 'm' ormqr, 'b' orgbr, 'T' sytrd, 'G' orgtr, 'M' ormtr
  const char* metric;
  double c_orth;   // ||Q^H Q - I||_F <= c_orth max(m, n) u (0: not measured)
  int vm, vn, bm, bn;  // validate and bench shapes (m, n; the tr family: n x n)
  double flops(int m, int n) const {
    const double dm = m, dn = n;
    switch (kind) {
      case 'g': case 'b': return 4 * dm * dn * dn - 2 * (dm + dn) * dn * dn + 4 * dn * dn * dn / 3;  // k = n
      case 'm': return 4 * dm * (dm / 2 + 7) * dn - 2 * (dm / 2 + 7) * dn * dn;  // left, N
      case 'T': case 'G': return 4 * dm * dm * dm / 3;
      default: return 2 * dm * dm * (dm / 2 + 3);  // ormtr left, N: 4 m c k - 2 c k^2, k = m - 1
    }
  }
};

template <class T>
void add_routine(Registry& reg, const std::string& op, const std::string& mode, const Routine& rt) {
  const double lower = kU<T> / 64, bound = std::max(rt.vm, rt.vn) * kU<T>;
  const bool tr = rt.kind == 'T' || rt.kind == 'G' || rt.kind == 'M';
  const auto shape = [tr](int m, int n) {
    return tr ? std::to_string(m) + "x" + std::to_string(m) : std::to_string(m) + "x" + std::to_string(n);
  };
  reg.add(ValidationCase{
      .suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = shape(rt.vm, rt.vn),
      .metric = rt.metric,
      .bound_text = std::string("[u/64, max(m,n) u]") + (rt.c_orth > 0 ? "; ||Q^H Q - I||_F <= 4 max(m,n) u" : "") +
                    " (docs/trnsolver.md)",
      .size = static_cast<double>(rt.vm), .run = [rt, lower, bound, mode] {
        const Run r = run_kind<T>(rt.kind, rt.vm, rt.vn, trn::Generation::trn1);
        const double ob = rt.c_orth * std::max(rt.vm, rt.vn) * kU<T>;
        CaseResult c;
        c.measured = r.measured;
        c.lower = lower;
        c.bound = bound;
        c.pass = r.measured >= lower && r.measured <= bound && (rt.c_orth == 0 || r.orth <= ob);
        c.note = r.note + (rt.c_orth > 0 ? "; ||Q^H Q - I||_F = " + sci(r.orth) + " (bound " + sci(ob) + ")" : "") +
                 "; " + mode;
        c.host_seconds = r.host_seconds;
        c.device = DeviceCost::from(r.rep.profile);
        return c;
      }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = shape(rt.bm, rt.bn),
                    .run = [rt](trn::Generation target) {
                      const Run r = run_kind<T>(rt.kind, rt.bm, rt.bn, target);
                      BenchResult b;
                      b.error = r.measured;
                      b.error_metric = rt.metric;
                      b.host_seconds = r.host_seconds;
                      b.flops = (kCplx<T> ? 4.0 : 1.0) * rt.flops(rt.bm, rt.bn);
                      b.device = DeviceCost::from(r.rep.profile);
                      return b;
                    }});
}

template <class T>
void add_prefix(Registry& reg, const std::string& p, const char* how) {
  const bool c = kCplx<T>;

  const std::string mode = how;
  add_routine<T>(reg, p + (c ? "ungqr" : "orgqr"), mode, {'g', "||Q - Q_ref||_F / ||Q_ref||_F (Q_ref: LAPACKE on our reflectors)", 4, 96, 64, 512, 256});
  add_routine<T>(reg, p + (c ? "unmqr" : "ormqr"), mode, {'m', "max over side L/R, op N/T(C) ||C' - C'_ref||_F / ||C||_F", 0, 96, 64, 512, 256});
  add_routine<T>(reg, p + (c ? "hetrd" : "sytrd"), mode, {'T', "max over uplo ||Q^H A Q - T||_F / ||A||_F (Q: LAPACKE ?orgtr)", 0, 64, 64, 256, 256});
  add_routine<T>(reg, p + (c ? "ungtr" : "orgtr"), mode, {'G', "max over uplo ||Q - Q_ref||_F / ||Q_ref||_F", 4, 64, 64, 256, 256});
  add_routine<T>(reg, p + (c ? "unmtr" : "ormtr"), mode, {'M', "max over uplo, side, op ||C' - C'_ref||_F / ||C||_F", 0, 64, 64, 256, 256});
  add_routine<T>(reg, p + (c ? "ungbr" : "orgbr"), mode, {'b', "max of Q, P^H ||X - X_ref||_F / ||X_ref||_F", 4, 96, 64, 512, 256});

}

void add_solver_qmats(Registry& reg) {
  add_prefix<float>(reg, "s", "fp32 host steps + fp32 GEMMs on TensorE");
  add_prefix<double>(reg, "d", "fp64 host steps + Ozaki GEMMs on TensorE");
  add_prefix<std::complex<float>>(reg, "c", "fp32 host steps + fp32 4M GEMMs on TensorE");
  add_prefix<std::complex<double>>(reg, "z", "fp64 host steps + Ozaki 4M GEMMs on TensorE");
}

const Registrar kRegistrar(add_solver_qmats);

}  // namespace
}  // namespace trnsci::cli
