// `trnsci validate/bench` suite "solver", the selected-range symmetric eigensolvers and the 64-bit X
// eigen names (#27 audit): S/D syevdx and sygvdx (itype 1) with range V and range I, and Xsyevd,
// Xsyevdx (range I and V) and XsyevBatched in R_32F / R_64F / C_32F / C_64F through the C API (complex:
// Hermitian A, heevd's kernels). Oracles: LAPACKE dsyevd / zheevd / dsygv eigenvalues in double (the
// selection's expected count and values); residuals and orthogonality in long double. Bounds: docs/trnsolver.md "Validate cases of the solves, the batched
// Cholesky, the Q routines and the selected eigensolvers" (those of "syevd" and "sygvd" restricted to
// the selected columns; meig must equal the oracle's count). Bench rows count syevd's 9 n^3 (sygvdx 14 n^3;
// x4 complex).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/eig.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using solver_data::CL;
using solver_data::kCplx;
using solver_data::kU;
using solver_data::RealT;
using solver_data::wide;
using LDv = long double;

// Symmetric (real) or Hermitian (complex: real diagonal, conjugate upper triangle) Gaussian.
template <class T>
std::vector<T> symmetric(int n, std::uint64_t seed) {
  std::vector<T> a = solver_data::gaussian<T>(n, n, seed);
  for (int j = 0; j < n; ++j) {
    if constexpr (kCplx<T>) a[j + static_cast<std::size_t>(j) * n] = T(a[j + static_cast<std::size_t>(j) * n].real(), 0);
    for (int i = j + 1; i < n; ++i) {
      const T x = a[i + static_cast<std::size_t>(j) * n];
      if constexpr (kCplx<T>) a[j + static_cast<std::size_t>(i) * n] = std::conj(x);
      else a[j + static_cast<std::size_t>(i) * n] = x;
    }
  }
  return a;
}
// G G^T / n + I (kappa ~ 5), exactly symmetric.
template <class T>
std::vector<T> spd(int n, std::uint64_t seed) {
  const std::vector<T> g = solver_data::gaussian<T>(n, n, seed);
  std::vector<T> b(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      LDv s = i == j ? n : 0;
      for (int k = 0; k < n; ++k) s += static_cast<LDv>(g[i + static_cast<std::size_t>(k) * n]) * g[j + static_cast<std::size_t>(k) * n];
      b[i + static_cast<std::size_t>(j) * n] = b[j + static_cast<std::size_t>(i) * n] = static_cast<T>(s / n);
    }
  return b;
}

// The selection of a case: range I takes eigenvalues n/4 + 1 .. 3n/4 (1-based); range V the interval
// whose ends are the midpoints between the oracle's eigenvalues n/4, n/4 + 1 and 3n/4, 3n/4 + 1 (far
// from any eigenvalue: the count is unambiguous). first: the 0-based index of the first selected one.
struct Sel {
  ts::EigSelect sel;
  int first = 0, count = 0;
};
Sel selection(bool by_value, int n, const std::vector<double>& ref) {
  Sel s;
  s.first = n / 4;
  s.count = 3 * n / 4 - n / 4;
  if (by_value)
    s.sel = ts::EigSelect{ts::EigRange::value, 0.5 * (ref[n / 4 - 1] + ref[n / 4]), 0.5 * (ref[3 * n / 4 - 1] + ref[3 * n / 4]), 1, 0};
  else
    s.sel = ts::EigSelect{ts::EigRange::index, 0, 0, n / 4 + 1, 3 * n / 4};
  return s;
}

struct Errors {
  double res = 0, orth = 0, val = 0;
  bool count_ok = true;
};
void worst(Errors& into, const Errors& e) {
  into.res = std::max(into.res, e.res);
  into.orth = std::max(into.orth, e.orth);
  into.val = std::max(into.val, e.val);
  into.count_ok = into.count_ok && e.count_ok;
}

// A X = B X diag(w) over the meig returned columns of X (B nullptr: the identity): residual
// ||A X - B X W||_F / ((||A||_F + ||B||_F max|w_ref|) ||X||_F) (B = I: ||AX - XW||_F / ||A||_F, X
// orthonormal), ||X^T B X - I||_F, max |w - w_ref| / max|w_ref| over the selection.
template <class T>
Errors check(int n, const std::vector<T>& a, const T* b, const T* x, const RealT<T>* w, std::int64_t meig,
             const std::vector<double>& ref, const Sel& s) {
  Errors e;
  e.count_ok = meig == s.count;
  const int m = static_cast<int>(std::min<std::int64_t>(meig, s.count));
  const auto at = [n](const T* p, int i, int j) { return wide(p[i + static_cast<std::size_t>(j) * n]); };
  const double top = std::max(std::fabs(ref.front()), std::fabs(ref.back()));
  LDv rr = 0, oo = 0, an = 0, bn = 0, xn = 0;
  std::vector<CL> bx(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      an += std::norm(at(a.data(), i, j));
      bn += b != nullptr ? std::norm(at(b, i, j)) : (i == j);
    }
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i) {
      CL ax = 0, y = b != nullptr ? CL(0) : at(x, i, j);
      for (int k = 0; k < n; ++k) {
        ax += at(a.data(), i, k) * at(x, k, j);
        if (b != nullptr) y += at(b, i, k) * at(x, k, j);
      }
      bx[static_cast<std::size_t>(i)] = y;
      rr += std::norm(ax - y * static_cast<LDv>(w[j]));
      xn += std::norm(at(x, i, j));
    }
    for (int i = 0; i < m; ++i) {
      CL d = i == j ? CL(-1) : CL(0);
      for (int k = 0; k < n; ++k) d += std::conj(at(x, k, i)) * bx[static_cast<std::size_t>(k)];
      oo += std::norm(d);
    }
    e.val = std::max(e.val, std::fabs(double(w[j]) - ref[static_cast<std::size_t>(s.first + j)]) / top);
  }
  e.res = b != nullptr ? double(std::sqrt(rr) / ((std::sqrt(an) + std::sqrt(bn) * top) * std::sqrt(xn)))
                       : double(std::sqrt(rr / an));
  e.orth = double(std::sqrt(oo));
  return e;
}

std::vector<double> dsyevd_values(const std::vector<double>& a, int n) {
  std::vector<double> c = a, w(static_cast<std::size_t>(n));
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, c.data(), n, w.data());
  return w;
}
// LAPACKE dsyevd / zheevd eigenvalues of a (in double / double complex).
template <class T>
std::vector<double> oracle_values(const std::vector<T>& a, int n) {
  if constexpr (kCplx<T>) {
    std::vector<std::complex<double>> c(a.begin(), a.end());
    std::vector<double> w(static_cast<std::size_t>(n));
    LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, reinterpret_cast<lapack_complex_double*>(c.data()), n, w.data());
    return w;
  } else {
    return dsyevd_values(std::vector<double>(a.begin(), a.end()), n);
  }
}

struct Run {
  Errors e;
  double host_seconds = 0, kappa = 1;
  std::string note;
  trn::Profile profile;
};

// syevdx ('x') or sygvdx ('g', itype 1), vectors, lower; range V and range I, the worst of the two.
template <class T>
Run run_selected(char kind, int n, trn::Generation target) {
  const std::vector<T> a = symmetric<T>(n, 5100 + static_cast<std::uint64_t>(n)), b = spd<T>(n, 5200 + static_cast<std::uint64_t>(n));
  const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  std::vector<double> ref(static_cast<std::size_t>(n));
  Run r;
  if (kind == 'x') {
    ref = dsyevd_values(ad, n);
  } else {
    std::vector<double> ra = ad, rb = bd;
    LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', n, ra.data(), n, rb.data(), n, ref.data());
    const std::vector<double> bw = dsyevd_values(bd, n);
    r.kappa = bw.back() / bw.front();
  }
  ts::Settings st;
  st.target = target;
  for (const bool by_value : {true, false}) {
    const Sel s = selection(by_value, n, ref);
    std::vector<T> x = a, bf = b, w(static_cast<std::size_t>(n));
    std::int64_t meig = -1;
    ts::CallReport rep;
    const double t0 = now_seconds();
    if (kind == 'x') ts::syevdx(st, true, s.sel, ts::Uplo::lower, n, x.data(), n, &meig, w.data(), &rep);
    else ts::sygvdx(st, 1, true, s.sel, ts::Uplo::lower, n, x.data(), n, bf.data(), n, &meig, w.data(), &rep);
    if (by_value) {
      r.host_seconds = seconds_since(t0);
      r.profile = rep.profile;
    }
    const Errors e = check(n, a, kind == 'x' ? nullptr : b.data(), x.data(), w.data(), meig, ref, s);
    worst(r.e, e);
    r.note += std::string(by_value ? "range V: meig " : "; range I: meig ") + std::to_string(meig) + "/" +
              std::to_string(s.count) + ", residual " + sci(e.res);
  }
  return r;
}

using solver_data::kType;

// One X call: 'd' Xsyevd, 'x' Xsyevdx (selection s), 'b' XsyevBatched over `batch` matrices at a.
template <class T>
bool x_call(trnsolverDnHandle_t h, trnsolverDnParams_t p, char which, int n, int batch, T* a, RealT<T>* w,
            const Sel& s, std::int64_t* meig, std::vector<int>& info) {
  using R = RealT<T>;
  const trnDataType_t dt = kType<T>, wt = kType<R>;
  const auto jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  const auto range = s.sel.range == ts::EigRange::value ? TRNSOLVER_EIG_RANGE_V : TRNSOLVER_EIG_RANGE_I;
  R vl = static_cast<R>(s.sel.vl), vu = static_cast<R>(s.sel.vu);
  std::size_t dev = 0, host = 0;
  trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
  if (which == 'd') st = trnsolverDnXsyevd_bufferSize(h, p, jobz, lo, n, dt, a, n, wt, w, dt, &dev, &host);
  if (which == 'x')
    st = trnsolverDnXsyevdx_bufferSize(h, p, jobz, range, lo, n, dt, a, n, &vl, &vu, s.sel.il, s.sel.iu, meig, wt, w, dt,
                                       &dev, &host);
  if (which == 'b') st = trnsolverDnXsyevBatched_bufferSize(h, p, jobz, lo, n, dt, a, n, wt, w, dt, &dev, &host, batch);
  std::vector<char> dbuf(std::max<std::size_t>(dev, 1)), hbuf(std::max<std::size_t>(host, 1));
  if (st != TRNSOLVER_STATUS_SUCCESS) return false;
  if (which == 'd')
    st = trnsolverDnXsyevd(h, p, jobz, lo, n, dt, a, n, wt, w, dt, dbuf.data(), dev, hbuf.data(), host, info.data());
  if (which == 'x')
    st = trnsolverDnXsyevdx(h, p, jobz, range, lo, n, dt, a, n, &vl, &vu, s.sel.il, s.sel.iu, meig, wt, w, dt,
                            dbuf.data(), dev, hbuf.data(), host, info.data());
  if (which == 'b')
    st = trnsolverDnXsyevBatched(h, p, jobz, lo, n, dt, a, n, wt, w, dt, dbuf.data(), dev, hbuf.data(), host,
                                 info.data(), batch);
  return st == TRNSOLVER_STATUS_SUCCESS;
}

// Xsyevd ('d'), Xsyevdx ('x': range V then I) or XsyevBatched ('b', 3 matrices): every matrix checked
// as syevd (the selection's columns for Xsyevdx); Xsyevd's and XsyevBatched's W and V must also be
// bit-equal to the C++ syevd on the same matrix (the same kernels, docs/trnsolver.md "X API eigensolvers").
template <class T>
Run run_x(char which, int n, trn::Generation target) {
  const int batch = which == 'b' ? 3 : 1;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<T> a0(nn * batch);
  std::vector<std::vector<double>> refs;
  for (int k = 0; k < batch; ++k) {
    const std::vector<T> one = symmetric<T>(n, 5300 + static_cast<std::uint64_t>(n + k));
    std::copy(one.begin(), one.end(), a0.begin() + static_cast<std::ptrdiff_t>(nn * k));
    refs.push_back(oracle_values(one, n));
  }
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnCreateParams(&p);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  Run r;
  int failures = 0, differ = 0;
  for (int pass = 0; pass < (which == 'x' ? 2 : 1); ++pass) {
    const Sel s = which == 'x' ? selection(pass == 0, n, refs[0]) : Sel{{}, 0, n};
    std::vector<T> v = a0;
    std::vector<RealT<T>> w(static_cast<std::size_t>(n) * batch);
    std::vector<int> info(static_cast<std::size_t>(batch), -99);
    std::int64_t meig = which == 'x' ? -1 : n;
    const double t0 = now_seconds();
    failures += !x_call<T>(h, p, which, n, batch, v.data(), w.data(), s, &meig, info);
    if (pass == 0) {
      r.host_seconds = seconds_since(t0);
      trnProfile_t prof{};
      trnsolverDnGetLastProfile(h, &prof);
      r.profile = trn::Profile::from_c(prof);
    }
    for (int k = 0; k < batch; ++k) {
      failures += info[static_cast<std::size_t>(k)] != 0;
      const std::vector<T> ak(a0.begin() + static_cast<std::ptrdiff_t>(nn * k), a0.begin() + static_cast<std::ptrdiff_t>(nn * (k + 1)));
      const T* vk = v.data() + nn * k;
      const RealT<T>* wk = w.data() + static_cast<std::size_t>(n) * k;
      worst(r.e, check(n, ak, static_cast<const T*>(nullptr), vk, wk, meig, refs[static_cast<std::size_t>(k)], s));
      if (which != 'x') {
        std::vector<T> cv = ak;
        std::vector<RealT<T>> cw(static_cast<std::size_t>(n));
        ts::Settings st;
        st.target = target;
        if constexpr (kCplx<T>) ts::heevd(st, true, ts::Uplo::lower, n, cv.data(), n, cw.data());
        else ts::syevd(st, true, ts::Uplo::lower, n, cv.data(), n, cw.data());
        differ += std::memcmp(cv.data(), vk, nn * sizeof(T)) != 0 ||
                  std::memcmp(cw.data(), wk, n * sizeof(RealT<T>)) != 0;
      }
    }
    if (which == 'x') r.note += std::string(pass == 0 ? "range V: meig " : "; range I: meig ") + std::to_string(meig) + "/" + std::to_string(s.count);
  }
  trnsolverDnDestroyParams(p);
  trnsolverDnDestroy(h);
  if (which != 'x')
    r.note = std::to_string(differ) + " of " + std::to_string(batch) + " (W, V) differing from " +
             (kCplx<T> ? "?heevd" : "?syevd") + " (must be 0)";
  r.note += "; " + std::to_string(failures) + " failed calls / nonzero info";
  r.e.count_ok = r.e.count_ok && failures == 0 && differ == 0;
  return r;
}

// docs/trnsolver.md: standard problem residual in [u/64 (fp32), n u] (complex: 2 n u), ||V^H V - I||_F <=
// 4 n u, values n u ||A||_2 (complex: 2 n u); generalized residual [u/64 (fp32), 8 n u kappa(B)], ||X^T B X - I||_F <= 8 n^1.5 u kappa(B),
// values 8 n u kappa(B) max|w|; meig (and every info, bit-equality) as the oracle's.
template <class T>
CaseResult to_case(const Run& r, int n, bool general) {
  constexpr bool f32 = std::is_same_v<RealT<T>, float>;
  const double u = kU<T>, nu = std::max(n, 8) * u;
  // Complex (heevd's kernels): heevd's documented residual and eigenvalue constant 2 (docs/trnsolver.md "heevd").
  const double rb = general ? 8 * nu * r.kappa : (kCplx<T> ? 2 : 1) * nu, ob = general ? rb * std::sqrt(double(n)) : 4 * nu;
  CaseResult c;
  c.measured = r.e.res;
  c.bound = rb;
  c.lower = f32 ? u / 64 : 0;
  c.pass = r.e.count_ok && c.measured >= c.lower && c.measured <= c.bound && r.e.orth <= ob && r.e.val <= rb;
  c.note = r.note + "; orthogonality " + sci(r.e.orth) + " (bound " + sci(ob) + "), eigenvalues " + sci(r.e.val) +
           " (bound " + sci(rb) + ")" + (general ? "; kappa(B) " + sci(r.kappa) : "");
  c.host_seconds = r.host_seconds;
  c.device = DeviceCost::from(r.profile);
  return c;
}

template <class T>
void add_case(Registry& reg, const std::string& op, const std::string& mode, char kind) {
  const bool general = kind == 'g';
  const bool sel = kind == 'x' || kind == 'g' || kind == 'X';
  const std::string shape = std::string("64x64") + (kind == 'B' ? " x 3" : "") + (sel ? ", range V and I" : "");
  const auto run = [kind](int n, trn::Generation target) {
    if constexpr (!kCplx<T>)  // syevdx / sygvdx: S and D
      if (kind == 'x' || kind == 'g') return run_selected<T>(kind, n, target);
    return run_x<T>(kind == 'X' ? 'x' : kind == 'B' ? 'b' : 'd', n, target);
  };
  reg.add(ValidationCase{
      .suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = shape,
      .metric = general ? "||AX - BXW||_F / ((||A||_F + ||B||_F max|w|) ||X||_F)" : "||AV - VW||_F / ||A||_F",
      .bound_text = general ? "[u/64 (fp32), 8 n u kappa(B)]; ||X^T B X - I||_F <= 8 n^1.5 u kappa(B); meig exact"
                    : kCplx<T> ? std::string("[u/64 (fp32), 2 n u]; ||V^H V - I||_F <= 4 n u; |w - w_zheevd| <= 2 n u ||A||_2") +
                                     (sel ? "; meig exact" : "; bit-equal to ?heevd")
                            : std::string("[u/64 (fp32), n u]; ||V^T V - I||_F <= 4 n u; |w - w_dsyevd| <= n u ||A||_2") +
                                  (sel ? "; meig exact" : "; bit-equal to ?syevd"),
      .size = 64.0, .run = [run, general] { return to_case<T>(run(64, trn::Generation::trn1), 64, general); }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                    .shape = std::string("256x256") + (kind == 'B' ? " x 3" : "") + (sel ? ", range V" : ""),
                    .run = [run, general, kind](trn::Generation target) {
                      const Run r = run(256, target);
                      BenchResult b;
                      b.error = r.e.res;
                      b.error_metric = general ? "||AX - BXW||_F / ((||A||_F + ||B||_F max|w|) ||X||_F)" : "||AV - VW||_F / ||A||_F";
                      b.host_seconds = r.host_seconds;
                      const double dn = 256;
                      b.flops = (general ? 14 : 9) * dn * dn * dn * (kind == 'B' ? 3 : 1) * (kCplx<T> ? 4 : 1);
                      b.device = DeviceCost::from(r.profile);
                      return b;
                    }});
}

void add_solver_eigsel(Registry& reg) {
  add_case<float>(reg, "ssyevdx", "sytrd + D&C, selected vectors back-transformed (fp32 TensorE)", 'x');
  add_case<double>(reg, "dsyevdx", "sytrd + D&C, selected vectors back-transformed (Ozaki TensorE)", 'x');
  add_case<float>(reg, "ssygvdx", "itype 1, Cholesky reduction + syevdx (fp32 TensorE)", 'g');
  add_case<double>(reg, "dsygvdx", "itype 1, Cholesky reduction + syevdx (Ozaki TensorE)", 'g');
  add_case<float>(reg, "Xsyevd R_32F", "C API, Ssyevd's kernels", 'd');
  add_case<double>(reg, "Xsyevd R_64F", "C API, Dsyevd's kernels", 'd');
  add_case<float>(reg, "Xsyevdx R_32F", "C API, Ssyevdx's kernels", 'X');
  add_case<double>(reg, "Xsyevdx R_64F", "C API, Dsyevdx's kernels", 'X');
  add_case<float>(reg, "XsyevBatched R_32F", "C API, Ssyevd per matrix", 'B');
  add_case<double>(reg, "XsyevBatched R_64F", "C API, Dsyevd per matrix", 'B');
  add_case<std::complex<float>>(reg, "Xsyevd C_32F", "C API, Cheevd's kernels", 'd');
  add_case<std::complex<double>>(reg, "Xsyevd C_64F", "C API, Zheevd's kernels", 'd');
  add_case<std::complex<float>>(reg, "Xsyevdx C_32F", "C API, Cheevdx's kernels", 'X');
  add_case<std::complex<double>>(reg, "Xsyevdx C_64F", "C API, Zheevdx's kernels", 'X');
  add_case<std::complex<float>>(reg, "XsyevBatched C_32F", "C API, Cheevd per matrix", 'B');
  add_case<std::complex<double>>(reg, "XsyevBatched C_64F", "C API, Zheevd per matrix", 'B');
}

const Registrar kRegistrar(add_solver_eigsel);

}  // namespace
}  // namespace trnsci::cli
