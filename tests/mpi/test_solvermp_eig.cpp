// trnsolverMp Syevd / Sygvd (C++ API) under MPI (ctest label mpi, 1, 2, 4 ranks), real symmetric (S, D)
// and complex Hermitian (C, Z): against ScaLAPACK's p?syevd / p?heevd (and p?potrf + p?sygst / p?hegst +
// p?syevd / p?heevd for Sygvd) on the same BLACS grid (oracle only): eigenvalues within 16 n u ||A|| of
// ScaLAPACK's; the residual ||A Z - Z Lambda|| / ||A|| (Sygvd: ||A Z - B Z Lambda|| / (||A|| ||Z||)) and
// ||Z^H Z - I|| (Sygvd: ||Z^H B Z - I||) inside a two-sided bound (above u / 64: the products were
// formed; below 16 n u, Sygvd 64 n u kappa-scaled); the same bits for 1 and 2 host threads; the
// distributed algorithm forced on 1 x 1 against trnsolver's single-device syevd / heevd within the bound,
// the default 1 x 1 path (the single-device driver) bit for bit with syevd / sygvd / heevd / hegvd; a B
// that is not positive definite gives info n + i on every rank; the C API's statuses on every rank.
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "mpi_util.hpp"
#include "solvermp_util.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solvermp/plan.hpp"
#include "trn/solvermp/solvermp.hpp"

extern "C" {  // ScaLAPACK (oracle)
void pssyevd_(const char*, const char*, const int*, float*, const int*, const int*, const int*, float*, float*, const int*,
              const int*, const int*, float*, const int*, int*, const int*, int*);
void pdsyevd_(const char*, const char*, const int*, double*, const int*, const int*, const int*, double*, double*,
              const int*, const int*, const int*, double*, const int*, int*, const int*, int*);
void pspotrf_(const char*, const int*, float*, const int*, const int*, const int*, int*);
void pdpotrf_(const char*, const int*, double*, const int*, const int*, const int*, int*);
void pssygst_(const int*, const char*, const int*, float*, const int*, const int*, const int*, const float*, const int*,
              const int*, const int*, float*, int*);
void pdsygst_(const int*, const char*, const int*, double*, const int*, const int*, const int*, const double*, const int*,
              const int*, const int*, double*, int*);
void pcheevd_(const char*, const char*, const int*, std::complex<float>*, const int*, const int*, const int*, float*,
              std::complex<float>*, const int*, const int*, const int*, std::complex<float>*, const int*, float*, const int*,
              int*, const int*, int*);
void pzheevd_(const char*, const char*, const int*, std::complex<double>*, const int*, const int*, const int*, double*,
              std::complex<double>*, const int*, const int*, const int*, std::complex<double>*, const int*, double*,
              const int*, int*, const int*, int*);
void pcpotrf_(const char*, const int*, std::complex<float>*, const int*, const int*, const int*, int*);
void pzpotrf_(const char*, const int*, std::complex<double>*, const int*, const int*, const int*, int*);
void pchegst_(const int*, const char*, const int*, std::complex<float>*, const int*, const int*, const int*,
              const std::complex<float>*, const int*, const int*, const int*, float*, int*);
void pzhegst_(const int*, const char*, const int*, std::complex<double>*, const int*, const int*, const int*,
              const std::complex<double>*, const int*, const int*, const int*, double*, int*);
}

namespace mpitest {

namespace {

namespace smp = trn::solvermp;

// The real type of T (the eigenvalues'), and T widened to fp64 (the checks' arithmetic).
template <class T>
using RealOf = decltype(std::real(T{}));
template <class T>
using Wide = std::conditional_t<is_complex<T>::value, std::complex<double>, double>;
inline double conj_of(double x) { return x; }
inline std::complex<double> conj_of(std::complex<double> x) { return std::conj(x); }

// A symmetric (Hermitian) test matrix (the hash's (G + G^H) / 2), and a positive definite one (+ n I).
template <class T>
std::vector<T> symmetric(int n, unsigned seed, double shift) {
  const auto g = global_matrix<T>(n, n, seed);
  std::vector<T> s(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      s[i + static_cast<std::size_t>(j) * n] = static_cast<T>(
          0.5 * (Wide<T>(g[i + static_cast<std::size_t>(j) * n]) + conj_of(Wide<T>(g[j + static_cast<std::size_t>(i) * n]))) +
          (i == j ? shift : 0.0));
  return s;
}

// The whole n x n matrix widened to fp64 from every rank's piece (nb blocks from (0, 0), lld local rows).
template <class T>
std::vector<Wide<T>> whole(const std::vector<T>& piece, int n, int nb, int nprow, int npcol) {
  const int myrow = g_rank % nprow, mycol = g_rank / nprow, zero = 0;
  const int lr = numroc_(&n, &nb, &myrow, &zero, &nprow), lc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  std::vector<Wide<T>> w(static_cast<std::size_t>(n) * n, 0.0);
  for (int jl = 0; jl < lc; ++jl)
    for (int il = 0; il < lr; ++il)
      w[static_cast<std::size_t>((il / nb * nprow + myrow) * nb + il % nb) + static_cast<std::size_t>((jl / nb * npcol + mycol) * nb + jl % nb) * n] =
          Wide<T>(piece[il + static_cast<std::size_t>(jl) * std::max(lr, 1)]);
  const int doubles = n * n * static_cast<int>(sizeof(Wide<T>) / sizeof(double));
  MPI_Allreduce(MPI_IN_PLACE, w.data(), doubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);  // one owner per entry: exact
  return w;
}

template <class W>
double max_abs(const std::vector<W>& a) {
  double m = 0;
  for (W v : a) m = std::max(m, std::abs(v));
  return m;
}

// max |(op(X) Y)_ij - R_ij| for n x n column-major X, Y, R (op: X^H when adjoint_x).
template <class W>
double product_error(const std::vector<W>& x, const std::vector<W>& y, const std::vector<W>& r, int n, bool adjoint_x) {
  double e = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      W s = 0;
      for (int k = 0; k < n; ++k)
        s += (adjoint_x ? conj_of(x[k + static_cast<std::size_t>(i) * n]) : x[i + static_cast<std::size_t>(k) * n]) * y[k + static_cast<std::size_t>(j) * n];
      e = std::max(e, std::abs(s - r[i + static_cast<std::size_t>(j) * n]));
    }
  return e;
}

template <class T>
struct EigResult {
  int info = -1;
  std::vector<double> d;   // eigenvalues
  std::vector<Wide<T>> z;  // the whole Z (fp64)
  std::vector<char> zbits, dbits;
  double ns = 0;
};

// Syevd (b == nullptr) or Sygvd (B given) through the C++ API on an nprow x npcol grid.
template <class T>
EigResult<T> run_eig(int nprow, int npcol, int n, int nb, char uplo, const std::vector<T>& A, const std::vector<T>* B,
                  int threads = 1, bool one_device_path = false) {
  trn::blasmp::Grid g;
  trn::blasmp::grid_create(g, nprow, npcol, trn::blasmp::GridLayout::col_major, MPI_COMM_WORLD);
  const auto da = trn::blasmp::make_descriptor(g, n, n, nb, nb, 0, 0, Traits<T>::type);
  int lr, lc;
  auto a = local_part(A, n, n, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc);
  std::vector<T> b = B != nullptr ? local_part(*B, n, n, nb, nb, g.myrow, g.mycol, nprow, npcol, &lr, &lc) : std::vector<T>{};
  std::vector<T> z(a.size(), T(-7));
  std::vector<RealOf<T>> d(static_cast<std::size_t>(n), RealOf<T>(-7));
  trn::blas::Settings s;
  s.host_threads = threads;
  smp::SygvdArgs x;
  set_type<T>(x);
  x.uplo = uplo == 'L' ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
  x.n = n, x.a = a.data(), x.desc_a = &da, x.d = d.data(), x.z = z.data(), x.desc_z = &da;
  x.b = b.data(), x.desc_b = &da;
  x.one_device_path = one_device_path;
  const bool gv = B != nullptr;
  std::vector<char> work(gv ? smp::sygvd_workspace_bytes(x) : smp::syevd_workspace_bytes(x));
  x.work = work.data(), x.work_bytes = work.size();
  trn::blas::CallReport rep;
  EigResult<T> r;
  r.info = gv ? smp::sygvd(s, x, &rep) : smp::syevd(s, x, &rep);
  r.ns = rep.profile.total_ns;
  r.d.assign(d.begin(), d.end());
  r.z = whole(z, n, nb, nprow, npcol);
  r.zbits = bytes_of(z), r.dbits = bytes_of(d);
  trn::blasmp::grid_destroy(g);
  return r;
}

// p?syevd / p?heevd on this rank's piece a (descriptor desc) into w: the workspace query, then the call.
template <class T>
int scalapack_eig(int n, std::vector<T>& a, const int* desc, std::vector<RealOf<T>>& w) {
  const int one = 1;
  std::vector<T> z(a.size()), q(1);
  std::vector<RealOf<T>> rq(1);
  int lwork = -1, lrwork = -1, liwork = -1, iq = 0, info = 0;
  const auto call = [&](T* work, RealOf<T>* rwork, int* iwork) {
    if constexpr (std::is_same_v<T, float>)
      pssyevd_("V", "L", &n, a.data(), &one, &one, desc, w.data(), z.data(), &one, &one, desc, work, &lwork, iwork, &liwork, &info);
    else if constexpr (std::is_same_v<T, double>)
      pdsyevd_("V", "L", &n, a.data(), &one, &one, desc, w.data(), z.data(), &one, &one, desc, work, &lwork, iwork, &liwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      pcheevd_("V", "L", &n, a.data(), &one, &one, desc, w.data(), z.data(), &one, &one, desc, work, &lwork, rwork, &lrwork, iwork,
               &liwork, &info);
    else
      pzheevd_("V", "L", &n, a.data(), &one, &one, desc, w.data(), z.data(), &one, &one, desc, work, &lwork, rwork, &lrwork, iwork,
               &liwork, &info);
  };
  call(q.data(), rq.data(), &iq);
  lwork = static_cast<int>(std::real(q[0])) * 2 + 1000, lrwork = static_cast<int>(rq[0]) * 2 + 1000, liwork = iq * 2 + 100;
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<RealOf<T>> rwork(static_cast<std::size_t>(lrwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  call(work.data(), rwork.data(), iwork.data());
  return info;
}

// p?potrf + p?sygst / p?hegst (itype 1, lower) on this rank's pieces: a becomes L^-1 A L^-H.
template <class T>
void scalapack_reduce(int n, std::vector<T>& a, std::vector<T>& b, const int* desc) {
  const int one = 1;
  int info = 0;
  RealOf<T> scale = 1;
  if constexpr (std::is_same_v<T, float>)
    pspotrf_("L", &n, b.data(), &one, &one, desc, &info), pssygst_(&one, "L", &n, a.data(), &one, &one, desc, b.data(), &one, &one, desc, &scale, &info);
  else if constexpr (std::is_same_v<T, double>)
    pdpotrf_("L", &n, b.data(), &one, &one, desc, &info), pdsygst_(&one, "L", &n, a.data(), &one, &one, desc, b.data(), &one, &one, desc, &scale, &info);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    pcpotrf_("L", &n, b.data(), &one, &one, desc, &info), pchegst_(&one, "L", &n, a.data(), &one, &one, desc, b.data(), &one, &one, desc, &scale, &info);
  else
    pzpotrf_("L", &n, b.data(), &one, &one, desc, &info), pzhegst_(&one, "L", &n, a.data(), &one, &one, desc, b.data(), &one, &one, desc, &scale, &info);
  check(info == 0, "ScaLAPACK p?potrf + p?sygst / p?hegst info 0");
}

// ScaLAPACK on the same grid: p?syevd's (p?heevd's) eigenvalues of A, or (B given) after p?potrf + p?sygst.
template <class T>
std::vector<double> scalapack_eigenvalues(int nprow, int npcol, int n, int nb, std::vector<T> A, const std::vector<T>* B) {
  int ctxt, pr, pc, myrow, mycol;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "C", nprow, npcol);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myrow, &mycol);
  int lr, lc, desc[9], info = 0;
  auto a = local_part(A, n, n, nb, nb, myrow, mycol, nprow, npcol, &lr, &lc);
  const int zero = 0, lld = std::max(lr, 1);
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  if (B != nullptr) {
    auto b = local_part(*B, n, n, nb, nb, myrow, mycol, nprow, npcol, &lr, &lc);
    scalapack_reduce<T>(n, a, b, desc);
  }
  std::vector<RealOf<T>> w(static_cast<std::size_t>(n));
  check(scalapack_eig<T>(n, a, desc, w) == 0, "ScaLAPACK p?syevd / p?heevd info 0");
  Cblacs_gridexit(ctxt);
  return std::vector<double>(w.begin(), w.end());
}

// trnsolver's single-device syevd / heevd (itype 0) or sygvd / hegvd (itype 1) on the whole matrices.
template <class T>
int single_device(int itype, char uplo, int n, std::vector<T>& a, std::vector<T>* b, std::vector<RealOf<T>>& w) {
  trn::solver::Settings ss;
  const trn::blas::Uplo ul = uplo == 'L' ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
  w.assign(static_cast<std::size_t>(n), RealOf<T>(0));
  if constexpr (is_complex<T>::value)
    return itype == 0 ? trn::solver::heevd(ss, true, ul, n, a.data(), n, w.data())
                      : trn::solver::hegvd(ss, itype, true, ul, n, a.data(), n, b->data(), n, w.data());
  else
    return itype == 0 ? trn::solver::syevd(ss, true, ul, n, a.data(), n, w.data())
                      : trn::solver::sygvd(ss, itype, true, ul, n, a.data(), n, b->data(), n, w.data());
}

// A with what the eigensolvers must not read poisoned: the triangle other than uplo, and (Hermitian) the
// diagonal's imaginary parts.
template <class T>
std::vector<T> poisoned(const std::vector<T>& A, int n, char uplo) {
  std::vector<T> tri(A);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (uplo == 'L' ? i < j : i > j) tri[i + static_cast<std::size_t>(j) * n] = T(1e3);
      if constexpr (is_complex<T>::value)
        if (i == j) tri[i + static_cast<std::size_t>(j) * n] = T(std::real(A[i + static_cast<std::size_t>(j) * n]), RealOf<T>(1e3));
    }
  return tri;
}

template <class T>
std::string eig_tag(const char* real_name, const char* herm_name, int n) {
  return std::string(Traits<T>::name) + (is_complex<T>::value ? herm_name : real_name) + " n=" + std::to_string(n);
}

template <class T>
void syevd_case(int n, int nb, char uplo) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const double u = Traits<T>::u, bound = 16.0 * n * u;
  const std::string tag = eig_tag<T>("syevd", "heevd", n) + " nb=" + std::to_string(nb) + " " + uplo;
  const auto A = symmetric<T>(n, 17u + static_cast<unsigned>(n), 0.0);
  const std::vector<T> tri = poisoned<T>(A, n, uplo);  // only the uplo triangle is read
  const EigResult<T> r = run_eig<T>(nprow, npcol, n, nb, uplo, tri, nullptr);
  check_all_ranks(r.info, 0, tag + ": info");
  std::vector<Wide<T>> a(A.begin(), A.end());
  const double anorm = max_abs(a);
  const auto ref = scalapack_eigenvalues<T>(nprow, npcol, n, nb, A, nullptr);
  double ev = 0;
  for (int i = 0; i < n; ++i) ev = std::max(ev, std::fabs(r.d[static_cast<std::size_t>(i)] - ref[static_cast<std::size_t>(i)]));
  check(ev <= bound * anorm, tag + ": eigenvalues vs ScaLAPACK " + std::to_string(ev / anorm / u) + " u");
  std::vector<Wide<T>> zl(r.z);  // Z Lambda
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) zl[i + static_cast<std::size_t>(j) * n] *= r.d[static_cast<std::size_t>(j)];
  const double res = product_error(a, r.z, zl, n, false) / anorm;
  std::vector<Wide<T>> eye(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) eye[i + static_cast<std::size_t>(i) * n] = 1.0;
  const double orth = product_error(r.z, r.z, eye, n, true);
  check(res <= bound && res > u / 64, tag + ": ||A Z - Z L|| / ||A|| = " + std::to_string(res / u) + " u");
  check(orth <= bound && orth > u / 64, tag + ": ||Z^H Z - I|| = " + std::to_string(orth / u) + " u");
  check(r.ns > 0, tag + ": a modeled time");
  if (g_rank == 0)
    std::printf("%-28s on %dx%d: eigenvalues vs p?%s %.3g u||A||, ||AZ-ZL||/||A|| %.3g u, ||Z^HZ-I|| %.3g u (bound %.0f u); modeled %.1f us\n",
                tag.c_str(), nprow, npcol, is_complex<T>::value ? "heevd" : "syevd", ev / anorm / u, res / u, orth / u, bound / u,
                r.ns * 1e-3);
  const EigResult<T> r2 = run_eig<T>(nprow, npcol, n, nb, uplo, tri, nullptr, 2);  // host threads change no bit
  check(r2.zbits == r.zbits && r2.dbits == r.dbits, tag + ": the same bits for 1 and 2 host threads");
  if (g_size == 1) {  // the 1 x 1 distributed algorithm's eigenvalues against the single-device driver: within the bound
    std::vector<T> a1(tri);
    std::vector<RealOf<T>> w;
    single_device<T>(0, uplo, n, a1, nullptr, w);
    double e1 = 0;
    for (int i = 0; i < n; ++i) e1 = std::max(e1, std::fabs(double(w[static_cast<std::size_t>(i)]) - r.d[static_cast<std::size_t>(i)]));
    check(e1 <= bound * anorm, tag + ": 1 x 1 distributed vs single-device eigenvalues " + std::to_string(e1 / anorm / u) + " u");
    // The default 1 x 1 path is the single-device driver: its bits (D and Z).
    const EigResult<T> r1 = run_eig<T>(1, 1, n, nb, uplo, tri, nullptr, 1, true);
    check(r1.dbits == bytes_of(w) && r1.zbits == bytes_of(a1), tag + ": 1 x 1 equals trnsolver's single-device driver bit for bit");
  }
}

template <class T>
void sygvd_case(int n, int nb, char uplo) {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const double u = Traits<T>::u;
  const std::string tag = eig_tag<T>("sygvd", "hegvd", n) + " " + uplo;
  const auto A = symmetric<T>(n, 29u, 0.0), B = symmetric<T>(n, 31u, double(n));
  const std::vector<T> tri = poisoned<T>(A, n, uplo), btri = poisoned<T>(B, n, uplo);  // only the uplo triangles are read
  const EigResult<T> r = run_eig<T>(nprow, npcol, n, nb, uplo, tri, &btri);
  check_all_ranks(r.info, 0, tag + ": info");
  const std::vector<Wide<T>> a(A.begin(), A.end()), b(B.begin(), B.end());
  // B = M + n I with |m_ij| <= 1 is well conditioned (its eigenvalues near n +- 2 sqrt(n) for the hash's
  // entries): the bound is 64 n u, kappa(B) a small constant here.
  const double anorm = max_abs(a), bound = 64.0 * n * u;
  const auto ref = scalapack_eigenvalues<T>(nprow, npcol, n, nb, A, &B);
  double ev = 0;
  for (int i = 0; i < n; ++i) ev = std::max(ev, std::fabs(r.d[static_cast<std::size_t>(i)] - ref[static_cast<std::size_t>(i)]));
  check(ev <= bound * anorm, tag + ": eigenvalues vs ScaLAPACK p?sygst + p?syevd (p?hegst + p?heevd) " + std::to_string(ev / anorm / u) + " u");
  std::vector<Wide<T>> bz(static_cast<std::size_t>(n) * n, 0.0), bzl;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) bz[i + static_cast<std::size_t>(j) * n] += b[i + static_cast<std::size_t>(k) * n] * r.z[k + static_cast<std::size_t>(j) * n];
  bzl = bz;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) bzl[i + static_cast<std::size_t>(j) * n] *= r.d[static_cast<std::size_t>(j)];
  const double znorm = max_abs(r.z);
  const double res = product_error(a, r.z, bzl, n, false) / (anorm * znorm);
  std::vector<Wide<T>> eye(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) eye[i + static_cast<std::size_t>(i) * n] = 1.0;
  const double orth = product_error(r.z, bz, eye, n, true);
  check(res <= bound && res > u / 64, tag + ": ||A Z - B Z L|| / (||A|| ||Z||) = " + std::to_string(res / u) + " u");
  check(orth <= bound && orth > u / 64, tag + ": ||Z^H B Z - I|| = " + std::to_string(orth / u) + " u");
  if (g_rank == 0)
    std::printf("%-28s on %dx%d: eigenvalues vs p?%sgst+p?%sevd %.3g u||A||, ||AZ-BZL|| %.3g u, ||Z^HBZ-I|| %.3g u (bound %.0f u)\n",
                tag.c_str(), nprow, npcol, is_complex<T>::value ? "he" : "sy", is_complex<T>::value ? "he" : "sy", ev / anorm / u,
                res / u, orth / u, bound / u);
  if (g_size == 1) {  // the default 1 x 1 path: trnsolver's single-device sygvd / hegvd bit for bit
    std::vector<T> a1(tri), b1(btri);
    std::vector<RealOf<T>> w;
    single_device<T>(1, uplo, n, a1, &b1, w);
    const EigResult<T> r1 = run_eig<T>(1, 1, n, nb, uplo, tri, &btri, 1, true);
    check(r1.dbits == bytes_of(w) && r1.zbits == bytes_of(a1), tag + ": 1 x 1 equals trnsolver's single-device driver bit for bit");
  }
  // B not positive definite (its (3, 3) entry -n^2): info n + 3 on every rank, D untouched.
  auto bad = B;
  bad[2 + 2 * static_cast<std::size_t>(n)] = static_cast<T>(-double(n) * n);
  const EigResult<T> rb = run_eig<T>(nprow, npcol, n, nb, uplo, A, &bad);
  check_all_ranks(rb.info, n + 3, tag + ": info n + 3 for a B that is not positive definite");
  check(rb.d[0] == -7.0, tag + ": D untouched when B is not positive definite");
}

// The C API with complex data (TRN_C_64F: the same entry points, as cuSOLVERMp's): Syevd gives the C++
// call's bits (D real); a complex descriptor with a real compute type is INVALID_VALUE and Sygvd itype 3
// NOT_SUPPORTED, on every rank, outputs untouched; Sygvd succeeds with info 0.
void capi_hermitian(const Api& api, int n, int nb) {
  using Z = std::complex<double>;
  const auto A = symmetric<Z>(n, 7u, 0.0), B = symmetric<Z>(n, 8u, double(n));
  int lr, lc;
  auto a = local_part(A, n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto b = local_part(B, n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  std::vector<Z> z(a.size(), Z(-7));
  std::vector<double> d(static_cast<std::size_t>(n), -7.0);
  trnsolverMpMatrixDescriptor_t dz = api.desc(TRN_C_64F, n, n, nb);
  size_t wd = 0, wh = 0;
  check_all_ranks(trnsolverMpSyevd_bufferSize(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, nullptr, 1, 1, dz, nullptr, nullptr, 1, 1, dz,
                                              TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd_bufferSize: a complex descriptor with a real compute type");
  check_all_ranks(trnsolverMpSyevd_bufferSize(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, nullptr, 1, 1, dz, nullptr, nullptr, 1, 1, dz,
                                              TRN_C_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Syevd_bufferSize C_64F");
  std::vector<char> work(wd);
  int info = -99;
  auto a0 = a;
  check_all_ranks(trnsolverMpSygvd(api.h, TRNSOLVER_EIG_TYPE_3, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1,
                                   dz, b.data(), 1, 1, dz, d.data(), z.data(), 1, 1, dz, TRN_C_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_NOT_SUPPORTED, "Sygvd C_64F itype 3 (cuSOLVERMp: itype 1 only)");
  check(d[0] == -7.0 && z[0] == Z(-7) && a0 == a, "Sygvd itype 3: outputs untouched");
  check_all_ranks(trnsolverMpSyevd(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1, dz, d.data(), z.data(), 1, 1, dz, TRN_C_64F,
                                   work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Syevd C_64F");
  check_all_ranks(info, 0, "Syevd C_64F info");
  const EigResult<Z> r = run_eig<Z>(api.nprow, api.npcol, n, nb, 'L', A, nullptr, 1, true);
  check(bytes_of(z) == r.zbits && bytes_of(d) == r.dbits, "C API Syevd C_64F equals the C++ call bit for bit");
  size_t gw = 0;
  check_all_ranks(trnsolverMpSygvd_bufferSize(api.h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, 1, 1,
                                              dz, 1, 1, dz, 1, 1, dz, TRN_C_64F, &gw, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Sygvd_bufferSize C_64F");
  std::vector<char> gwork(gw);
  a0 = a;
  check_all_ranks(trnsolverMpSygvd(api.h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1,
                                   dz, b.data(), 1, 1, dz, d.data(), z.data(), 1, 1, dz, TRN_C_64F, gwork.data(), gw, nullptr, 0,
                                   &info),
                  TRNSOLVER_STATUS_SUCCESS, "Sygvd C_64F");
  check_all_ranks(info, 0, "Sygvd C_64F info");
  trnsolverMpDestroyMatrixDesc(dz);
}

// The C API: Syevd through trnsolverMpSyevd gives the C++ call's bits; bad arguments give the status on
// every rank with D untouched (jobz, a workspace under the _bufferSize's, complex, itype 2, ranks that
// disagree on uplo).
void capi_eig() {
  const int n = 21, nb = 4;
  Api api;
  const auto A = symmetric<double>(n, 5u, 0.0), B = symmetric<double>(n, 6u, double(n));
  int lr, lc;
  auto a = local_part(A, n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  auto b = local_part(B, n, n, nb, nb, api.myrow, api.mycol, api.nprow, api.npcol, &lr, &lc);
  std::vector<double> z(a.size(), -7.0), d(static_cast<std::size_t>(n), -7.0);
  trnsolverMpMatrixDescriptor_t da = api.desc(TRN_R_64F, n, n, nb);
  size_t wd = 0, wh = 0;
  check_all_ranks(trnsolverMpSyevd_bufferSize(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, nullptr, 1, 1, da, nullptr, nullptr, 1, 1, da,
                                              TRN_R_64F, &wd, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Syevd_bufferSize");
  std::vector<char> work(wd);
  int info = -99;
  auto a0 = a;
  check_all_ranks(trnsolverMpSyevd(api.h, "X", TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1, da, d.data(), z.data(), 1, 1, da,
                                   TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd jobz \"X\"");
  check(info == -1 && d[0] == -7.0 && a0 == a, "Syevd jobz \"X\": info -1, D and A untouched");
  check_all_ranks(trnsolverMpSyevd(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1, da, d.data(), z.data(), 1, 1, da,
                                   TRN_R_64F, work.data(), wd - 1, nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd workspace one byte short");
  const trnblasFillMode_t mixed = g_rank == 0 ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  check_all_ranks(trnsolverMpSyevd(api.h, "V", g_size > 1 ? mixed : TRNBLAS_FILL_MODE_LOWER, g_size > 1 ? n : -1, a0.data(), 1, 1,
                                   da, d.data(), z.data(), 1, 1, da, TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd with ranks that disagree (or N < 0 on one rank)");
  check(d[0] == -7.0 && z[0] == -7.0, "Syevd: D and Z untouched after the errors");
  size_t cw = 0;
  check_all_ranks(trnsolverMpSyevd_bufferSize(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1, da, d.data(), z.data(), 1, 1,
                                              da, TRN_C_64F, &cw, &wh),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd_bufferSize with a compute type that is not the descriptor's");
  int position = 0;
  check_all_ranks(trnsolverMpSyevd_bufferSize(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, nullptr, 0, 1, da, nullptr, nullptr, 1, 1, da,
                                              TRN_R_64F, &cw, &wh),
                  TRNSOLVER_STATUS_INVALID_VALUE, "Syevd_bufferSize IA = 0");
  trnsolverMpGetLastErrorParameter(api.h, &position);
  check(position == 5, "Syevd_bufferSize IA = 0: position 5 (cuSOLVERMp's signature: d_A at 4)");
  check_all_ranks(trnsolverMpSygvd_bufferSize(api.h, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, 1,
                                              1, da, 1, 1, da, 1, 1, da, TRN_R_64F, &cw, &wh),
                  TRNSOLVER_STATUS_NOT_SUPPORTED, "Sygvd_bufferSize itype 2");
  check_all_ranks(trnsolverMpSyevd(api.h, "V", TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1, 1, da, d.data(), z.data(), 1, 1, da,
                                   TRN_R_64F, work.data(), wd, nullptr, 0, &info),
                  TRNSOLVER_STATUS_SUCCESS, "Syevd");
  check_all_ranks(info, 0, "Syevd info");
  const EigResult<double> r = run_eig<double>(api.nprow, api.npcol, n, nb, 'L', A, nullptr, 1, true);  // the C API's default path
  check(bytes_of(z) == r.zbits && bytes_of(d) == r.dbits, "C API Syevd equals the C++ call bit for bit");
  check_all_ranks(trnsolverMpSygvd_bufferSize(api.h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, 1,
                                              1, da, 1, 1, da, 1, 1, da, TRN_R_64F, &cw, &wh),
                  TRNSOLVER_STATUS_SUCCESS, "Sygvd_bufferSize");
  std::vector<char> gw(cw);
  a0 = a;
  check_all_ranks(trnsolverMpSygvd(api.h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, a0.data(), 1,
                                   1, da, b.data(), 1, 1, da, d.data(), z.data(), 1, 1, da, TRN_R_64F, gw.data(), cw, nullptr, 0,
                                   &info),
                  TRNSOLVER_STATUS_SUCCESS, "Sygvd");
  check_all_ranks(info, 0, "Sygvd info");
  capi_hermitian(api, n, nb);
  if (g_rank == 0) std::printf("C API Syevd / Sygvd on %dx%d: statuses, untouched outputs, C++ bits checked\n", api.nprow, api.npcol);
  trnsolverMpDestroyMatrixDesc(da);
}

// The Syevd / Sygvd plans (plan.hpp) against the slowest rank's modeled time of the same fp32 call (the
// distributed algorithm, also on 1 x 1): n 64, blocks 16, within [0.5, 1.5] (docs/scale-out.md 6.4: measured
// 0.93 .. 1.25 on 1, 2, 4 ranks).
void eig_plans_vs_traces() {
  int nprow, npcol;
  grid_shape(g_size, &nprow, &npcol);
  const int n = 64, nb = 16;
  namespace sm = trn::solvermp;
  for (const bool gv : {false, true}) {
    const auto A = symmetric<float>(n, 41u, 0.0), B = symmetric<float>(n, 43u, double(n));
    const EigResult<float> r = run_eig<float>(nprow, npcol, n, nb, 'L', A, gv ? &B : nullptr);
    double slowest = r.ns;
    MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const sm::FactorPlan plan =
        sm::plan_factor(trn::blas::Settings{}, gv ? sm::FactorKind::sygvd : sm::FactorKind::syevd, nprow, npcol, n, n, nb);
    const double ratio = plan.predicted_ns / slowest;
    if (g_rank == 0) std::printf("%s plan on %dx%d: predicted / modeled %.3f\n", gv ? "ssygvd" : "ssyevd", nprow, npcol, ratio);
    check(ratio >= 0.5 && ratio <= 1.5, "plan prediction within [0.5, 1.5] of the slowest rank's modeled time: " + plan.print());
  }
}

}  // namespace

void run_eig_tests() {
  eig_plans_vs_traces();
  capi_eig();
  syevd_case<double>(37, 8, 'L');
  syevd_case<double>(24, 4, 'U');
  syevd_case<float>(37, 8, 'L');
  sygvd_case<double>(29, 8, 'L');
  sygvd_case<double>(20, 4, 'U');
  sygvd_case<float>(29, 8, 'L');
  syevd_case<std::complex<double>>(29, 8, 'L');
  syevd_case<std::complex<double>>(20, 4, 'U');
  syevd_case<std::complex<float>>(29, 8, 'L');
  sygvd_case<std::complex<double>>(24, 8, 'L');
  sygvd_case<std::complex<float>>(20, 4, 'U');
}

}  // namespace mpitest
