// trnsolverMp Geqrf / Ormqr / Gels / Orgqr (C++ API) under MPI (ctest label mpi, 1, 2, 4 ranks): against
// ScaLAPACK's p?geqrf / p?gels / p?orgqr (p?ungqr) on the same BLACS grid (oracle only): R, the reflectors and tau within
// their bound; Q formed by Ormqr from the identity gives ||A - Q R|| / ||A|| and ||Q^H Q - I|| inside a
// two-sided bound (above u / 64: the products were formed; below 16 (m + n) u); Q^H Q by Ormqr's adjoint
// path; the 1 x 1 grid's bits equal trnsolver's single-device geqrf with qr_block_size = mb (S, C: also
// the 1 x P grid's); on any grid, the same bits for 1 and 2 host threads (the fixed reduction order).
#include <cmath>
#include <complex>
#include <cstring>

#include "mpi_util.hpp"
#include "solvermp_util.hpp"
#include "trn/core/host_step.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solvermp/solvermp.hpp"

extern "C" {  // ScaLAPACK (oracle): matrices by address
#define TRN_PGEQRF_DECL(p)                                                                                          \
  void p##geqrf_(const int*, const int*, void*, const int*, const int*, const int*, void*, void*, const int*, int*); \
  void p##gels_(const char*, const int*, const int*, const int*, void*, const int*, const int*, const int*, void*,   \
                const int*, const int*, const int*, void*, const int*, int*);
TRN_PGEQRF_DECL(ps)
TRN_PGEQRF_DECL(pd)
TRN_PGEQRF_DECL(pc)
TRN_PGEQRF_DECL(pz)
#undef TRN_PGEQRF_DECL
#define TRN_PORGQR_DECL(name) \
  void name##_(const int*, const int*, const int*, void*, const int*, const int*, const int*, const void*, void*, const int*, int*);
TRN_PORGQR_DECL(psorgqr)
TRN_PORGQR_DECL(pdorgqr)
TRN_PORGQR_DECL(pcungqr)
TRN_PORGQR_DECL(pzungqr)
#undef TRN_PORGQR_DECL
}

namespace mpitest {

namespace {

namespace smp = trn::solvermp;

struct QrCase {
  int m, n, nb;
};

struct QrResult {
  std::vector<char> a, tau, q, qhq;  // this rank's pieces: the factored A, tau (LOCc), Q's first min(m, n) columns, Q^H Q
  double ns = 0;
};

// The whole matrix (rows x cols) from every rank's piece (blocks nb from (0, 0), lld its local rows), on every rank.
template <class T>
std::vector<T> whole_of(const std::vector<char>& piece, int rows, int cols, int nb, int nprow, int npcol) {
  using R = typename std::conditional_t<is_complex<T>::value, T, std::complex<T>>::value_type;
  const int myrow = g_rank % nprow, mycol = g_rank / nprow, zero = 0;
  const int lr = numroc_(&rows, &nb, &myrow, &zero, &nprow), lc = numroc_(&cols, &nb, &mycol, &zero, &npcol);
  std::vector<T> w(static_cast<std::size_t>(rows) * cols, T(0));
  const T* p = reinterpret_cast<const T*>(piece.data());
  for (int jl = 0; jl < lc; ++jl)
    for (int il = 0; il < lr; ++il)
      w[static_cast<std::size_t>((il / nb * nprow + myrow) * nb + il % nb) + static_cast<std::size_t>((jl / nb * npcol + mycol) * nb + jl % nb) * rows] =
          p[il + static_cast<std::size_t>(jl) * std::max(lr, 1)];
  const int count = static_cast<int>(w.size() * sizeof(T) / sizeof(R));  // one owner per entry: the sum is exact
  MPI_Allreduce(MPI_IN_PLACE, w.data(), count, sizeof(R) == 8 ? MPI_DOUBLE : MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return w;
}

// Geqrf, then Q's first min(m, n) columns by Ormqr (N) on the identity, on an nprow x npcol grid.
template <class T>
QrResult run_qr(MPI_Comm comm, int nprow, int npcol, const QrCase& c, int threads = 1) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, comm);
  const int k = std::min(c.m, c.n);
  const auto da = trn::blasmp::make_descriptor(g, c.m, c.n, c.nb, c.nb, 0, 0, Traits<T>::type);
  const auto dq = trn::blasmp::make_descriptor(g, c.m, k, c.nb, c.nb, 0, 0, Traits<T>::type);
  int lr, lc;
  auto A = local_part(global_matrix<T>(c.m, c.n, 41), c.m, c.n, c.nb, c.nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  std::vector<T> tau(static_cast<std::size_t>(std::max(lc, 1)) + 1, T(-3));
  std::vector<T> eye(static_cast<std::size_t>(c.m) * k, T(0));
  for (int i = 0; i < k; ++i) eye[static_cast<std::size_t>(i) * (c.m + 1)] = T(1);
  auto Q = local_part(eye, c.m, k, c.nb, c.nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  trn::blas::Settings s;
  s.host_threads = threads;
  smp::GeqrfArgs f;
  set_type<T>(f);
  f.m = c.m, f.n = c.n, f.a = A.data(), f.desc_a = &da, f.tau = tau.data();
  std::vector<char> work(smp::geqrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  trn::blas::CallReport rep;
  check(smp::geqrf(s, f, &rep) == 0, "geqrf returns 0");
  check(rep.profile.total_ns > 0, "geqrf has a modeled time");
  smp::OrmqrArgs o;
  set_type<T>(o);
  o.m = c.m, o.n = k, o.k = k, o.a = A.data(), o.desc_a = &da, o.tau = tau.data(), o.c = Q.data(), o.desc_c = &dq;
  std::vector<char> w2(smp::ormqr_workspace_bytes(o));
  o.work = w2.data(), o.work_bytes = w2.size();
  smp::ormqr(s, o);
  QrResult r;
  r.a = bytes_of(A);
  r.tau = bytes_of(std::vector<T>(tau.begin(), tau.begin() + trn::blasmp::numroc(k, c.nb, g.mycol, 0, npcol)));
  r.q = bytes_of(Q);
  r.ns = rep.profile.total_ns;
  // Q^H Q by Ormqr's adjoint path (T for real, C for complex data): [I; 0] up to rounding.
  o.trans = is_complex<T>::value ? trn::blas::COp::C : trn::blas::COp::T;
  smp::ormqr(s, o);
  r.qhq = bytes_of(Q);
  trn::blasmp::grid_destroy(g);
  return r;
}

template <class T>
void pgeqrf(const int* m, const int* n, T* a, const int* desc, T* tau, T* work, const int* lwork, int* info) {
  const int one = 1;
  if constexpr (std::is_same_v<T, float>) psgeqrf_(m, n, a, &one, &one, desc, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, double>) pdgeqrf_(m, n, a, &one, &one, desc, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) pcgeqrf_(m, n, a, &one, &one, desc, tau, work, lwork, info);
  else pzgeqrf_(m, n, a, &one, &one, desc, tau, work, lwork, info);
}
template <class T>
void pgels(const int* m, const int* n, const int* nrhs, T* a, const int* da, T* b, const int* db, T* work, const int* lwork,
           int* info) {
  const int one = 1;
  const char t = 'N';
  if constexpr (std::is_same_v<T, float>) psgels_(&t, m, n, nrhs, a, &one, &one, da, b, &one, &one, db, work, lwork, info);
  else if constexpr (std::is_same_v<T, double>) pdgels_(&t, m, n, nrhs, a, &one, &one, da, b, &one, &one, db, work, lwork, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) pcgels_(&t, m, n, nrhs, a, &one, &one, da, b, &one, &one, db, work, lwork, info);
  else pzgels_(&t, m, n, nrhs, a, &one, &one, da, b, &one, &one, db, work, lwork, info);
}

// A BLACS grid and a descriptor of an m x n matrix in nb blocks on it (lld: this process's local rows).
struct Blacs {
  int ctxt = 0, myrow = 0, mycol = 0;
  Blacs(int nprow, int npcol) {
    int pr, pc;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "C", nprow, npcol);
    Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  }
  ~Blacs() { Cblacs_gridexit(ctxt); }
  void desc(int* d, int m, int n, int nb, int lld) const {
    const int zero = 0;
    int info = 0;
    descinit_(d, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  }
};

// ScaLAPACK's p?geqrf on the same grid: this rank's factored A and tau.
template <class T>
QrResult run_qr_ref(int nprow, int npcol, const QrCase& c) {
  Blacs b(nprow, npcol);
  int lr, lc, info = 0;
  auto A = local_part(global_matrix<T>(c.m, c.n, 41), c.m, c.n, c.nb, c.nb, b.myrow, b.mycol, nprow, npcol, &lr, &lc);
  int desca[9];
  b.desc(desca, c.m, c.n, c.nb, std::max(lr, 1));
  const int k = std::min(c.m, c.n), zero = 0;
  std::vector<T> tau(static_cast<std::size_t>(std::max(lc, 1)) + static_cast<std::size_t>(c.nb)), work(1);
  int lwork = -1;
  pgeqrf<T>(&c.m, &c.n, A.data(), desca, tau.data(), work.data(), &lwork, &info);
  lwork = static_cast<int>(std::real(work[0])) + 1;
  work.assign(static_cast<std::size_t>(lwork), T(0));
  pgeqrf<T>(&c.m, &c.n, A.data(), desca, tau.data(), work.data(), &lwork, &info);
  check(info == 0, "p?geqrf info 0");
  QrResult r;
  r.a = bytes_of(A);
  r.tau = bytes_of(std::vector<T>(tau.begin(), tau.begin() + numroc_(&k, &c.nb, &b.mycol, &zero, &npcol)));
  return r;
}

// ||X||_F of a column-major rows x cols matrix.
template <class T>
double frob(const std::vector<T>& x) {
  double s = 0;
  for (const T& v : x) s += static_cast<double>(std::norm(v));
  return std::sqrt(s);
}

template <class T>
T conj_of(T v) {
  if constexpr (is_complex<T>::value) return std::conj(v); else return v;
}

// ||A - Q R||_F / ||A||_F and ||Q^H Q - I||_F (Q m x k, R = the k x n upper trapezoid of the factored A),
// in long double on the whole matrices (the test's own loops).
template <class T>
void residuals(const std::vector<T>& a0, const std::vector<T>& f, const std::vector<T>& q, const QrCase& c, double* res,
               double* orth) {
  const int m = c.m, n = c.n, k = std::min(m, n);
  std::vector<T> d(a0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::complex<long double> s = 0;
      for (int l = 0; l <= std::min(j, k - 1); ++l) {
        const std::complex<long double> ql(std::real(q[i + static_cast<std::size_t>(l) * m]), std::imag(q[i + static_cast<std::size_t>(l) * m]));
        const std::complex<long double> rl(std::real(f[l + static_cast<std::size_t>(j) * m]), std::imag(f[l + static_cast<std::size_t>(j) * m]));
        s += ql * rl;
      }
      const T& x = a0[i + static_cast<std::size_t>(j) * m];
      const std::complex<long double> e = std::complex<long double>(std::real(x), std::imag(x)) - s;
      if constexpr (is_complex<T>::value) d[i + static_cast<std::size_t>(j) * m] = T(static_cast<typename T::value_type>(e.real()), static_cast<typename T::value_type>(e.imag()));
      else d[i + static_cast<std::size_t>(j) * m] = static_cast<T>(e.real());
    }
  *res = frob(d) / frob(a0);
  long double o = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      std::complex<long double> s = i == j ? -1.0L : 0.0L;
      for (int l = 0; l < m; ++l) {
        const T a = conj_of(q[l + static_cast<std::size_t>(i) * m]), b = q[l + static_cast<std::size_t>(j) * m];
        s += std::complex<long double>(std::real(a), std::imag(a)) * std::complex<long double>(std::real(b), std::imag(b));
      }
      o += std::norm(s);
    }
  *orth = std::sqrt(static_cast<double>(o));
}

template <class T>
void qr_case(const QrCase& c) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const int k = std::min(c.m, c.n);
  const double u = Traits<T>::u;
  const std::string what = std::string(Traits<T>::name) + "geqrf/ormqr " + std::to_string(c.m) + "x" + std::to_string(c.n) +
                           " nb " + std::to_string(c.nb);
  const QrResult x = run_qr<T>(MPI_COMM_WORLD, nprow, npcol, c);
  const QrResult r = run_qr_ref<T>(nprow, npcol, c);
  const double bound = 16.0 * (c.m + c.n) * u;
  const double ef = rel_error<T>(x.a, r.a) / bound, et = rel_error<T>(x.tau, r.tau) / bound;
  check(ef <= 1.0, what + ": R and reflectors vs p?geqrf, error / bound " + std::to_string(ef));
  check(et <= 1.0, what + ": tau vs p?geqrf, error / bound " + std::to_string(et));
  const auto a0 = global_matrix<T>(c.m, c.n, 41);
  const auto f = whole_of<T>(x.a, c.m, c.n, c.nb, nprow, npcol), q = whole_of<T>(x.q, c.m, k, c.nb, nprow, npcol);
  double res = 0, orth = 0;
  residuals(a0, f, q, c, &res, &orth);
  const double hi = 16.0 * (c.m + c.n) * u, lo = u / 64;
  check(res > lo && res <= hi, what + ": ||A - QR|| / ||A|| = " + std::to_string(res / u) + " u outside (1/64, 16 (m + n)) u");
  check(orth > lo && orth <= hi, what + ": ||Q^H Q - I|| = " + std::to_string(orth / u) + " u outside (1/64, 16 (m + n)) u");
  const auto qhq = whole_of<T>(x.qhq, c.m, k, c.nb, nprow, npcol);
  double dev = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < c.m; ++i) dev += std::norm(qhq[i + static_cast<std::size_t>(j) * c.m] - T(i == j ? 1 : 0));
  dev = std::sqrt(dev);
  check(dev > lo && dev <= hi, what + ": Ormqr (adjoint) Q^H Q = [I; 0] within " + std::to_string(dev / u) + " u, outside (1/64, 16 (m + n)) u");
  // Determinism on this grid: 2 host threads give the 1-thread bits.
  const QrResult x2 = run_qr<T>(MPI_COMM_WORLD, nprow, npcol, c, 2);
  check(x2.a == x.a && x2.tau == x.tau && x2.q == x.q, what + ": 2 host threads give the 1-thread bits on this grid");
  double slowest = 0;
  MPI_Allreduce(&x.ns, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("%-40s on %dx%d: vs p?geqrf factor %.3g tau %.3g of bound; ||A-QR||/||A|| %.3g u, ||Q^HQ-I|| %.3g u; modeled geqrf %.1f us\n",
                what.c_str(), nprow, npcol, ef, et, res / u, orth / u, slowest * 1e-3);
}

// The 1 x 1 grid's bits are trnsolver's single-device geqrf with qr_block_size = nb: the same panels
// (trnsolver's panel step) and GEMMs. S, C (fp32-mode GEMMs, each element its own accumulation): a 1 x P
// grid (no column sum) gives the 1 x 1 grid's bits too. D, Z: not asserted -- the Ozaki GEMM's slice
// count and balancing follow the exponents of the whole operands (trnblas ozaki.cpp plan_slices), so a
// rank's subset of columns may be sliced differently (docs/scale-out.md 6.3).
template <class T>
void qr_bits(const QrCase& c) {
  const std::string what = std::string(Traits<T>::name) + "geqrf " + std::to_string(c.m) + "x" + std::to_string(c.n) + " nb " +
                           std::to_string(c.nb);
  const QrResult one = run_qr<T>(MPI_COMM_SELF, 1, 1, c);
  if (Traits<T>::u > 1e-10) {
    const QrResult row = run_qr<T>(MPI_COMM_WORLD, 1, g_size, c);
    check(same_piece<T>(one.a, row.a, c.m, c.n, c.nb, 1, g_size), what + ": 1 x P grid's factor bits equal the 1 x 1 grid's");
  }
  auto whole = global_matrix<T>(c.m, c.n, 41);
  std::vector<T> tau(static_cast<std::size_t>(std::min(c.m, c.n)));
  trn::solver::Settings s;
  s.qr_block_size = c.nb;
  trn::solver::geqrf(s, c.m, c.n, whole.data(), c.m, tau.data());
  check(bytes_of(whole) == one.a, what + ": the 1 x 1 grid's factor bits equal trnsolver's single-device geqrf (qr_block_size = nb)");
  check(bytes_of(tau) == one.tau, what + ": the 1 x 1 grid's tau bits equal trnsolver's single-device geqrf");
  if (g_rank == 0)
    std::printf("%-40s: 1 x 1 bits equal trnsolver's single-device geqrf%s\n", what.c_str(),
                Traits<T>::u > 1e-10 ? (", and 1 x " + std::to_string(g_size) + "'s equal 1 x 1's").c_str() : "");
}

// Gels against ScaLAPACK's p?gels (trans N, m >= n) on the same grid: the solution within its bound.
template <class T>
void gels_case(int m, int n, int nrhs, int nb) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const std::string what = std::string(Traits<T>::name) + "gels " + std::to_string(m) + "x" + std::to_string(n) + " nrhs " +
                           std::to_string(nrhs);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const auto da = trn::blasmp::make_descriptor(g, m, n, nb, nb, 0, 0, Traits<T>::type);
  const auto db = trn::blasmp::make_descriptor(g, m, nrhs, nb, nb, 0, 0, Traits<T>::type);
  int lr, lc;
  auto A = local_part(global_matrix<T>(m, n, 43), m, n, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  auto B = local_part(global_matrix<T>(m, nrhs, 44), m, nrhs, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  auto Ar = A, Br = B;
  smp::GelsArgs x;
  set_type<T>(x);
  x.m = m, x.n = n, x.nrhs = nrhs, x.a = A.data(), x.desc_a = &da, x.b = B.data(), x.desc_b = &db;
  std::vector<char> work(smp::gels_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  const int info = smp::gels(trn::blas::Settings{}, x);
  check_all_ranks(info, 0, what + ": info 0");
  trn::blasmp::grid_destroy(g);
  {
    Blacs b(nprow, npcol);
    int desca[9], descb[9], rinfo = 0, lwork = -1;
    b.desc(desca, m, n, nb, std::max(lr, 1));
    b.desc(descb, m, nrhs, nb, std::max(lr, 1));
    std::vector<T> w(1);
    pgels<T>(&m, &n, &nrhs, Ar.data(), desca, Br.data(), descb, w.data(), &lwork, &rinfo);
    lwork = static_cast<int>(std::real(w[0])) + 1;
    w.assign(static_cast<std::size_t>(lwork), T(0));
    pgels<T>(&m, &n, &nrhs, Ar.data(), desca, Br.data(), descb, w.data(), &lwork, &rinfo);
  }
  // The solution: B's first n rows.
  const auto X = whole_of<T>(bytes_of(B), m, nrhs, nb, nprow, npcol), Xr = whole_of<T>(bytes_of(Br), m, nrhs, nb, nprow, npcol);
  double err = 0, big = 0;
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < n; ++i) {
      err = std::max(err, static_cast<double>(std::abs(X[i + static_cast<std::size_t>(j) * m] - Xr[i + static_cast<std::size_t>(j) * m])));
      big = std::max(big, static_cast<double>(std::abs(Xr[i + static_cast<std::size_t>(j) * m])));
    }
  const double e = err / big / (256.0 * (m + n) * Traits<T>::u);
  check(e <= 1.0, what + ": solution vs p?gels, error / bound " + std::to_string(e));
  if (g_rank == 0) std::printf("%-40s on %dx%d: solution vs p?gels %.3g of bound\n", what.c_str(), nprow, npcol, e);
}

template <class T>
void porgqr(const int* m, const int* n, const int* k, T* a, const int* desc, const T* tau, T* work, const int* lwork, int* info) {
  const int one = 1;
  if constexpr (std::is_same_v<T, float>) psorgqr_(m, n, k, a, &one, &one, desc, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, double>) pdorgqr_(m, n, k, a, &one, &one, desc, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) pcungqr_(m, n, k, a, &one, &one, desc, tau, work, lwork, info);
  else pzungqr_(m, n, k, a, &one, &one, desc, tau, work, lwork, info);
}

// Orgqr (m >= n >= k) against ScaLAPACK's p?geqrf + p?orgqr (p?ungqr) on the same grid: Q within
// 16 (m + n) u; ||Q^H Q - I|| inside (u / 64, 16 (m + n) u] when k = n; with k = n = min(m, n) its bits
// equal Ormqr's on the identity (run_qr's Q: Orgqr is that Ormqr).
template <class T>
void orgqr_case(const QrCase& c, int k) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const double u = Traits<T>::u, bound = 16.0 * (c.m + c.n) * u;
  const std::string what = std::string(Traits<T>::name) + "orgqr " + std::to_string(c.m) + "x" + std::to_string(c.n) + " k " +
                           std::to_string(k) + " nb " + std::to_string(c.nb);
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const auto da = trn::blasmp::make_descriptor(g, c.m, c.n, c.nb, c.nb, 0, 0, Traits<T>::type);
  int lr, lc;
  auto A = local_part(global_matrix<T>(c.m, c.n, 41), c.m, c.n, c.nb, c.nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  auto Ar = A;
  std::vector<T> tau(static_cast<std::size_t>(std::max(lc, 1)) + static_cast<std::size_t>(c.nb), T(0)), taur = tau;
  smp::GeqrfArgs f;
  set_type<T>(f);
  f.m = c.m, f.n = c.n, f.a = A.data(), f.desc_a = &da, f.tau = tau.data();
  std::vector<char> work(smp::geqrf_workspace_bytes(f));
  f.work = work.data(), f.work_bytes = work.size();
  smp::geqrf(trn::blas::Settings{}, f);
  smp::OrgqrArgs o;
  set_type<T>(o);
  o.m = c.m, o.n = c.n, o.k = k, o.a = A.data(), o.desc_a = &da, o.tau = tau.data();
  work.assign(smp::orgqr_workspace_bytes(o), 0);
  o.work = work.data(), o.work_bytes = work.size();
  trn::blas::CallReport rep;
  smp::orgqr(trn::blas::Settings{}, o, &rep);
  check(rep.profile.total_ns > 0 && rep.profile.link_transfers > 0, what + ": a modeled time with its link transfers");
  // The local copy of A and the identity are in the trace (issue #31): DMA copies of the local block
  // (HBM -> SBUF -> HBM: twice its bytes read and written) before the identity's host step, which
  // writes the whole block (da.lld x the local columns).
  {
    const auto block = static_cast<std::int64_t>(da.lld * da.local_cols() * static_cast<std::int64_t>(sizeof(T)));
    std::int64_t copied_in = 0, copied_out = 0, identity_written = -1;
    for (const trn::Instruction& ins : rep.trace.instructions) {
      if (ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == "trnsolverMp.orgqr.identity") {
        identity_written = ins.bytes_written;
        break;
      }
      if (ins.opcode == trn::Opcode::dma_copy) copied_in += ins.bytes_read, copied_out += ins.bytes_written;
    }
    check(block == 0 ? identity_written == -1 && copied_in == 0 : identity_written == block && copied_in == 2 * block && copied_out == 2 * block,
          what + ": the trace's copy of A (" + std::to_string(copied_in) + " / " + std::to_string(copied_out) + " bytes) and identity (" +
              std::to_string(identity_written) + " bytes) of the " + std::to_string(block) + "-byte block");
  }
  trn::blasmp::grid_destroy(g);
  {
    Blacs b(nprow, npcol);
    int desca[9], info = 0, lwork = -1;
    b.desc(desca, c.m, c.n, c.nb, std::max(lr, 1));
    std::vector<T> w(1);
    pgeqrf<T>(&c.m, &c.n, Ar.data(), desca, taur.data(), w.data(), &lwork, &info);
    lwork = static_cast<int>(std::real(w[0])) + 1;
    w.assign(static_cast<std::size_t>(lwork), T(0));
    pgeqrf<T>(&c.m, &c.n, Ar.data(), desca, taur.data(), w.data(), &lwork, &info);
    lwork = -1;
    porgqr<T>(&c.m, &c.n, &k, Ar.data(), desca, taur.data(), w.data(), &lwork, &info);
    lwork = static_cast<int>(std::real(w[0])) + 1;
    w.assign(static_cast<std::size_t>(lwork), T(0));
    porgqr<T>(&c.m, &c.n, &k, Ar.data(), desca, taur.data(), w.data(), &lwork, &info);
    check(info == 0, what + ": p?orgqr info 0");
  }
  const double e = rel_error<T>(bytes_of(A), bytes_of(Ar)) / bound;
  check(e <= 1.0, what + ": Q vs p?orgqr, error / bound " + std::to_string(e));
  double orth = 0;
  if (k == c.n) {
    const auto q = whole_of<T>(bytes_of(A), c.m, c.n, c.nb, nprow, npcol);
    long double o2 = 0;
    for (int j = 0; j < c.n; ++j)
      for (int i = 0; i < c.n; ++i) {
        std::complex<long double> sum = i == j ? -1.0L : 0.0L;
        for (int l = 0; l < c.m; ++l) {
          const T x = conj_of(q[l + static_cast<std::size_t>(i) * c.m]), y = q[l + static_cast<std::size_t>(j) * c.m];
          sum += std::complex<long double>(std::real(x), std::imag(x)) * std::complex<long double>(std::real(y), std::imag(y));
        }
        o2 += std::norm(sum);
      }
    orth = std::sqrt(static_cast<double>(o2));
    check(orth > u / 64 && orth <= bound, what + ": ||Q^H Q - I|| = " + std::to_string(orth / u) + " u outside (1/64, 16 (m + n)) u");
    const QrResult x = run_qr<T>(MPI_COMM_WORLD, nprow, npcol, c);
    check(bytes_of(A) == x.q, what + ": Orgqr's bits equal Ormqr's on the identity");
  }
  if (g_rank == 0)
    std::printf("%-40s on %dx%d: Q vs p?orgqr %.3g of bound; ||Q^HQ-I|| %.3g u; modeled %.1f us\n", what.c_str(), nprow, npcol, e,
                orth / u, rep.profile.total_ns * 1e-3);
}

// Geqrf + Ormqr (D) and Gels (Z) through the C API equal the C++ API's bits.
void capi_qr_equals_cpp() {
  Api api;
  const int m = 44, n = 30, nb = 8, nrhs = 2;
  auto da = api.desc(TRN_R_64F, m, n, nb), dc = api.desc(TRN_R_64F, m, nrhs, nb);
  int lr, lc;
  auto A = local_part(global_matrix<double>(m, n, 51), m, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  std::vector<double> tau(static_cast<std::size_t>(std::max(lc, 1)), 0.0), tau2 = tau;  // LOCc(n)
  auto C = local_part(global_matrix<double>(m, nrhs, 52), m, nrhs, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto A2 = A, C2 = C;
  size_t wd = 0, wh = 0;
  check_all_ranks(trnsolverMpGeqrf_bufferSize(api.h, m, n, A.data(), 1, 1, da, TRN_R_64F, &wd, &wh), TRNSOLVER_STATUS_SUCCESS,
                  "Geqrf_bufferSize");
  std::vector<char> work(wd);
  int info = -99;
  check_all_ranks(trnsolverMpGeqrf(api.h, m, n, A.data(), 1, 1, da, tau.data(), TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Geqrf");
  check_all_ranks(info, 0, "Geqrf info");
  check_all_ranks(trnsolverMpOrmqr_bufferSize(api.h, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, m, nrhs, n, A.data(), 1, 1, da, tau.data(),
                                              C.data(), 1, 1, dc, TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Ormqr_bufferSize");
  work.assign(wd, 0);
  info = -99;
  check_all_ranks(trnsolverMpOrmqr(api.h, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, m, nrhs, n, A.data(), 1, 1, da, tau.data(), C.data(),
                                   1, 1, dc, TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Ormqr");
  check_all_ranks(info, 0, "Ormqr info");
  trnProfile_t prof{};
  check(trnsolverMpGetLastProfile(api.h, &prof) == TRNSOLVER_STATUS_SUCCESS && prof.total_ns > 0, "GetLastProfile after Ormqr");
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, api.nprow, api.npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const auto ca = trn::blasmp::make_descriptor(g, m, n, nb, nb, 0, 0, TRN_R_64F);
  const auto cc = trn::blasmp::make_descriptor(g, m, nrhs, nb, nb, 0, 0, TRN_R_64F);
  smp::GeqrfArgs f;
  f.fp64 = true, f.m = m, f.n = n, f.a = A2.data(), f.desc_a = &ca, f.tau = tau2.data();
  std::vector<char> w2(smp::geqrf_workspace_bytes(f));
  f.work = w2.data(), f.work_bytes = w2.size();
  smp::geqrf(trn::blas::Settings{}, f);
  smp::OrmqrArgs o;
  o.fp64 = true, o.trans = trn::blas::COp::T, o.m = m, o.n = nrhs, o.k = n, o.a = A2.data(), o.desc_a = &ca, o.tau = tau2.data();
  o.c = C2.data(), o.desc_c = &cc;
  std::vector<char> w3(smp::ormqr_workspace_bytes(o));
  o.work = w3.data(), o.work_bytes = w3.size();
  smp::ormqr(trn::blas::Settings{}, o);
  check(A == A2 && tau == tau2 && C == C2, "the C API's Geqrf / Ormqr give the C++ API's bits");
  // Orgqr (k = 20 < n): the C API's Q equals the C++ API's bits.
  check_all_ranks(trnsolverMpOrgqr_bufferSize(api.h, m, n, 20, A.data(), 1, 1, da, tau.data(), TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Orgqr_bufferSize");
  work.assign(wd, 0);
  info = -99;
  check_all_ranks(trnsolverMpOrgqr(api.h, m, n, 20, A.data(), 1, 1, da, tau.data(), TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Orgqr");
  check_all_ranks(info, 0, "Orgqr info");
  smp::OrgqrArgs og;
  og.fp64 = true, og.m = m, og.n = n, og.k = 20, og.a = A2.data(), og.desc_a = &ca, og.tau = tau2.data();
  std::vector<char> w4(smp::orgqr_workspace_bytes(og));
  og.work = w4.data(), og.work_bytes = w4.size();
  smp::orgqr(trn::blas::Settings{}, og);
  check(A == A2, "the C API's Orgqr gives the C++ API's bits");
  trn::blasmp::grid_destroy(g);
  for (auto d : {da, dc}) trnsolverMpDestroyMatrixDesc(d);
}

// Bad input: one status on every rank (no hang), info = -position where the argument is illegal,
// NOT_SUPPORTED for the unsupported shapes, nothing written; a rank-deficient Gels: info on every rank.
void capi_qr_bad_input() {
  Api api;
  const int m = 24, n = 16, nb = 8;
  auto da = api.desc(TRN_R_64F, m, n, nb), db = api.desc(TRN_R_64F, m, 1, nb);
  int lr, lc;
  auto whole = global_matrix<double>(m, n, 53);
  for (int i = 0; i < m; ++i) whole[static_cast<std::size_t>(i + 9 * m)] = 0;  // column 10 (1-based) zero: R(10, 10) = 0
  const auto A0 = local_part(whole, m, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto A = A0;
  std::vector<double> tau(static_cast<std::size_t>(std::max(lc, 1)), 5.0), B(static_cast<std::size_t>(std::max(lr, 1)), 3.0);
  const auto tau0 = tau, B0 = B;
  size_t wd = 0, wh = 0;
  trnsolverMpGeqrf_bufferSize(api.h, m, n, A.data(), 1, 1, da, TRN_R_64F, &wd, &wh);
  std::vector<char> work(wd + 64);
  const bool last = g_rank == g_size - 1;
  auto geqrf = [&](int64_t mm, int64_t ja, trnDataType_t ct, size_t ws, int* info) {
    return trnsolverMpGeqrf(api.h, mm, n, A.data(), 1, ja, da, tau.data(), ct, work.data(), ws, nullptr, 0, info);
  };
  int info = 99;
  check_all_ranks(geqrf(last ? m + 1 : m, 1, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Geqrf: one rank's M differs -> INVALID_VALUE everywhere");
  check_all_ranks(info, 99, "Geqrf: info untouched when the ranks disagree");
  check_all_ranks(geqrf(last ? -1 : m, 1, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Geqrf: one rank's M < 0 -> INVALID_VALUE everywhere");
  check(info == (last ? -1 : 99), "Geqrf: info = -1 on the rank whose M is illegal (this rank: " + std::to_string(info) + ")");
  info = 99;
  check_all_ranks(geqrf(m, 1, TRN_R_32F, wd, &info), TRNSOLVER_STATUS_INVALID_VALUE, "Geqrf: computeType not the descriptor's");
  check_all_ranks(info, -8, "Geqrf: info = -8 (computeType)");
  check_all_ranks(geqrf(m, 2, TRN_R_64F, wd, &info), TRNSOLVER_STATUS_NOT_SUPPORTED, "Geqrf: JA = 2 -> NOT_SUPPORTED everywhere");
  check_all_ranks(geqrf(m, 1, TRN_R_64F, last && wd > 0 ? wd - 1 : wd, &info),
                  g_size == 1 && wd == 0 ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_INVALID_VALUE,
                  "Geqrf: a short workspace on one rank -> INVALID_VALUE everywhere");
  auto ormqr = [&](trnblasSideMode_t side, trnblasOperation_t op, int64_t k, int* inf) {
    return trnsolverMpOrmqr(api.h, side, op, m, 1, k, A.data(), 1, 1, da, tau.data(), B.data(), 1, 1, db, TRN_R_64F, work.data(),
                            work.size(), nullptr, 0, inf);
  };
  info = 99;
  check_all_ranks(ormqr(TRNBLAS_SIDE_RIGHT, TRNBLAS_OP_N, 1, &info), TRNSOLVER_STATUS_NOT_SUPPORTED,
                  "Ormqr: side right (K <= N) -> NOT_SUPPORTED everywhere");
  check_all_ranks(ormqr(TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, m + 1, &info), TRNSOLVER_STATUS_INVALID_VALUE, "Ormqr: K > M -> INVALID_VALUE");
  check_all_ranks(info, -5, "Ormqr: info = -5 (K)");
  check_all_ranks(ormqr(TRNBLAS_SIDE_LEFT, TRNBLAS_OP_C, n, &info), TRNSOLVER_STATUS_INVALID_VALUE,
                  "Ormqr: trans C on real data -> INVALID_VALUE everywhere");
  check_all_ranks(info, -2, "Ormqr: info = -2 (trans)");
  auto gels = [&](trnblasOperation_t op, int64_t mm, int64_t nn, int* inf) {
    return trnsolverMpGels(api.h, op, mm, nn, 1, A.data(), 1, 1, da, B.data(), 1, 1, db, TRN_R_64F, work.data(), work.size(),
                           nullptr, 0, inf);
  };
  check_all_ranks(gels(TRNBLAS_OP_T, m, n, &info), TRNSOLVER_STATUS_NOT_SUPPORTED, "Gels: trans T -> NOT_SUPPORTED everywhere");
  check_all_ranks(gels(TRNBLAS_OP_N, n, m, &info), TRNSOLVER_STATUS_NOT_SUPPORTED, "Gels: M < N -> NOT_SUPPORTED everywhere");
  trnsolverMpOrgqr_bufferSize(api.h, m, n, n, A.data(), 1, 1, da, tau.data(), TRN_R_64F, &wd, &wh);
  if (wd > work.size()) work.resize(wd);
  auto orgqr = [&](int64_t mm, int64_t nn, int64_t k, int64_t ia, int* inf) {
    return trnsolverMpOrgqr(api.h, mm, nn, k, A.data(), ia, 1, da, tau.data(), TRN_R_64F, work.data(), work.size(), nullptr, 0, inf);
  };
  info = 99;
  check_all_ranks(orgqr(n - 1, n, 1, 1, &info), TRNSOLVER_STATUS_INVALID_VALUE, "Orgqr: n > m -> INVALID_VALUE everywhere");
  check_all_ranks(info, -2, "Orgqr: info = -2 (n)");
  check_all_ranks(orgqr(m, n, n + 1, 1, &info), TRNSOLVER_STATUS_INVALID_VALUE, "Orgqr: k > n -> INVALID_VALUE everywhere");
  check_all_ranks(info, -3, "Orgqr: info = -3 (k)");
  info = 99;
  check_all_ranks(orgqr(m, n, last ? 2 : 1, 1, &info), g_size == 1 ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_INVALID_VALUE,
                  "Orgqr: one rank's k differs -> INVALID_VALUE everywhere");
  if (g_size > 1) check_all_ranks(info, 99, "Orgqr: info untouched when the ranks disagree");
  A = A0, tau = tau0;
  check_all_ranks(orgqr(m, n, 1, 2, &info), TRNSOLVER_STATUS_NOT_SUPPORTED, "Orgqr: ia = 2 -> NOT_SUPPORTED everywhere");
  check_all_ranks(trnsolverMpOrgqr(api.h, m, n, 1, A.data(), 1, 1, da, tau.data(), TRN_R_64F, work.data(),
                                   last ? 1 : work.size(), nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Orgqr: a short workspace on one rank -> INVALID_VALUE everywhere");
  int same = A == A0 && tau == tau0 && B == B0;
  check_all_ranks(same, 1, "failing Geqrf / Ormqr / Gels calls wrote neither A, tau nor B");
  // Rank deficient: R(10, 10) is exactly zero -> info 10 on every rank, B untouched.
  trnsolverMpGels_bufferSize(api.h, TRNBLAS_OP_N, m, n, 1, A.data(), 1, 1, da, B.data(), 1, 1, db, TRN_R_64F, &wd, &wh);
  work.assign(wd, 0);
  info = 99;
  check_all_ranks(trnsolverMpGels(api.h, TRNBLAS_OP_N, m, n, 1, A.data(), 1, 1, da, B.data(), 1, 1, db, TRN_R_64F, work.data(),
                                  wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Gels of a rank-deficient matrix returns SUCCESS");
  check_all_ranks(info, 10, "Gels: info = 10 (R(10, 10) = 0) on every rank");
  same = B == B0;
  check_all_ranks(same, 1, "a rank-deficient Gels leaves B untouched");
  for (auto d : {da, db}) trnsolverMpDestroyMatrixDesc(d);
}

}  // namespace

void run_qr_tests() {
  capi_qr_equals_cpp();
  capi_qr_bad_input();
  qr_case<double>({60, 40, 8});
  qr_case<double>({40, 56, 8});
  qr_case<float>({52, 36, 8});
  qr_case<std::complex<double>>({44, 30, 8});
  qr_case<std::complex<float>>({36, 36, 4});
  qr_bits<double>({70, 50, 16});
  qr_bits<float>({40, 30, 8});
  qr_bits<std::complex<double>>({36, 28, 8});
  qr_bits<std::complex<float>>({30, 20, 4});
  gels_case<double>(50, 30, 2, 8);
  gels_case<std::complex<float>>(40, 24, 1, 8);
  orgqr_case<double>({60, 40, 8}, 40);
  orgqr_case<double>({50, 36, 8}, 20);
  orgqr_case<float>({40, 40, 8}, 40);
  orgqr_case<std::complex<double>>({44, 30, 8}, 30);
  orgqr_case<std::complex<float>>({36, 28, 4}, 16);
}

}  // namespace mpitest
