// libFuzzer harness of libtrnsolver_lapack.so (trnsolver/lapack_abi, issue #27): the Fortran LAPACK
// entry points called with fuzzed sizes, leading dimensions, LWORK, option letters and matrices, in
// the layout of fuzz_input.hpp. No LAPACK is linked: a call the shim passes through finds no next
// library and must come back as TRNSOLVER_LAPACK_UNANSWERED, never abort. Invariants: a rejected call
// (INFO < 0) is -position of one of the routine's arguments and leaves every output untouched; an
// answered call's INFO lies in [0, n]; every buffer is sized for what LAPACK may legally write with
// these arguments (a legal call larger than kCap elements is not made).
#include <algorithm>
#include <complex>
#include <cstring>
#include <cstdint>
#include <vector>

#include "fuzz_input.hpp"
#include "trnsolver_lapack.h"

using trnfuzz::require;

extern "C" {
void dpotrf_(const char*, const int*, double*, const int*, int*, size_t);
void spotrs_(const char*, const int*, const int*, const float*, const int*, float*, const int*, int*, size_t);
void zpotri_(const char*, const int*, void*, const int*, int*, size_t);
void dlauum_(const char*, const int*, double*, const int*, int*, size_t);
void strtri_(const char*, const char*, const int*, float*, const int*, int*, size_t, size_t);
void ztrtri_(const char*, const char*, const int*, void*, const int*, int*, size_t, size_t);
void ctrtri_(const char*, const char*, const int*, void*, const int*, int*, size_t, size_t);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void cgetrs_(const char*, const int*, const int*, const void*, const int*, const int*, void*, const int*, int*, size_t);
void sgesv_(const int*, const int*, float*, const int*, int*, float*, const int*, int*);
void zgeqrf_(const int*, const int*, void*, const int*, void*, void*, const int*, int*);
void dorgqr_(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*, int*);
void sormqr_(const char*, const char*, const int*, const int*, const int*, const float*, const int*, const float*,
             float*, const int*, float*, const int*, int*, size_t, size_t);
void dgels_(const char*, const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
            const int*, int*, size_t);
void zgels_(const char*, const int*, const int*, const int*, void*, const int*, void*, const int*, void*, const int*,
            int*, size_t);
void dsytrf_(const char*, const int*, double*, const int*, int*, double*, const int*, int*, size_t);
void dsytrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*, const int*, int*,
             size_t);
// eigen and SVD families (eigen_fortran.cpp, svd_fortran.cpp)
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*, const int*,
             int*, size_t, size_t);
void ssyev_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*, int*, size_t, size_t);
void zheevd_(const char*, const char*, const int*, void*, const int*, double*, void*, const int*, double*, const int*,
             int*, const int*, int*, size_t, size_t);
void dsygvd_(const int*, const char*, const char*, const int*, double*, const int*, double*, const int*, double*,
             double*, const int*, int*, const int*, int*, size_t, size_t);
void chegv_(const int*, const char*, const char*, const int*, void*, const int*, void*, const int*, float*, void*,
            const int*, float*, int*, size_t, size_t);
void dgesvd_(const char*, const char*, const int*, const int*, double*, const int*, double*, double*, const int*,
             double*, const int*, double*, const int*, int*, size_t, size_t);
void zgesdd_(const char*, const int*, const int*, void*, const int*, double*, void*, const int*, void*, const int*,
             void*, const int*, double*, int*, int*, size_t);
void dgesvdx_(const char*, const char*, const char*, const int*, const int*, double*, const int*, const double*,
              const double*, const int*, const int*, int*, double*, double*, const int*, double*, const int*, double*,
              const int*, int*, int*, size_t, size_t, size_t);
void zgesvdx_(const char*, const char*, const char*, const int*, const int*, void*, const int*, const double*,
              const double*, const int*, const int*, int*, double*, void*, const int*, void*, const int*, void*,
              const int*, double*, int*, int*, size_t, size_t, size_t);
void dsyevr_(const char*, const char*, const char*, const int*, double*, const int*, const double*, const double*,
             const int*, const int*, const double*, int*, double*, double*, const int*, int*, double*, const int*, int*,
             const int*, int*, size_t, size_t, size_t);
void cheevx_(const char*, const char*, const char*, const int*, void*, const int*, const float*, const float*,
             const int*, const int*, const float*, int*, float*, void*, const int*, void*, const int*, float*, int*,
             int*, int*, size_t, size_t, size_t);
// The harness's own XERBLA (as LAPACK's test programs): counts, never stops.
void xerbla_(const char*, const int*, size_t) { trnfuzz::reach("xerbla"); }
}

namespace {

constexpr std::int64_t kCap = 4096;  // elements of the largest buffer a legal call may get (one emulator call stays ~ms)

int dim(trnfuzz::Input& in) { return static_cast<int>(in.size(9, false)); }
// The length of a pivot, tau or work vector of v entries: a legal call with buffers within kCap never
// needs more than kCap, an illegal one writes none (v may be negative or near INT32_MAX).
std::size_t count(std::int64_t v) { return static_cast<std::size_t>(std::clamp<std::int64_t>(v, 1, kCap)); }
// LWORK: mostly a small multiple of 8 (around the minimum), sometimes negative or huge.
int work_length(trnfuzz::Input& in) {
  const int v = dim(in);
  return v > 0 && v < 1000 ? v * 8 : v;
}
char letter(trnfuzz::Input& in, const char* valid) {
  const std::uint8_t sel = in.byte();
  return sel < 220 ? valid[sel % std::char_traits<char>::length(valid)] : static_cast<char>(sel);
}

// A column-major rows x cols buffer with leading dimension ld (ld, cols clamped to >= 1): the elements
// a legal call may touch. Empty when it would exceed kCap (the call is then not made).
template <class T>
std::vector<T> buffer(trnfuzz::Input& in, std::int64_t ld, std::int64_t cols) {
  const std::int64_t n = std::max<std::int64_t>(1, ld) * std::max<std::int64_t>(1, cols);
  if (n > kCap || ld > kCap || cols > kCap) return {};
  std::vector<T> b(static_cast<std::size_t>(n));
  for (auto& x : b) x = T(in.value());
  return b;
}

// A call's INFO: rejected (-position among `positions`, outputs unchanged), unanswered (the shim passed
// it on and no library followed), or an answer in [0, limit].
template <class Out>
void check(const char* what, int info, std::initializer_list<int> positions, int limit, const Out& out, const Out& out0,
           bool may_pass) {
  if (info < 0 && info != TRNSOLVER_LAPACK_UNANSWERED) {
    bool known = false;
    for (int p : positions) known = known || info == -p;
    require(known, what);
    require(std::memcmp(out.data(), out0.data(), out.size() * sizeof out[0]) == 0, "a rejected call wrote its output");
    trnfuzz::reach("rejected");
    return;
  }
  if (info == TRNSOLVER_LAPACK_UNANSWERED) {
    require(may_pass, "a call the shim answers came back unanswered");
    trnfuzz::reach("unanswered");
    return;
  }
  require(info <= limit, what);
  trnfuzz::reach("answered");
}

void fuzz_cholesky(trnfuzz::Input& in) {
  const char uplo = letter(in, "ULul");
  const int n = dim(in), lda = dim(in), nrhs = dim(in), ldb = dim(in);
  int info = 0;
  switch (in.byte() % 4) {
    case 0: {
      auto a = buffer<double>(in, lda, n);
      if (a.empty()) return;
      const auto a0 = a;
      dpotrf_(&uplo, &n, a.data(), &lda, &info, 1);
      check("dpotrf info", info, {1, 2, 4}, n, a, a0, false);
      break;
    }
    case 1: {
      auto a = buffer<float>(in, lda, n);
      auto b = buffer<float>(in, ldb, nrhs);
      if (a.empty() || b.empty()) return;
      const auto b0 = b;
      spotrs_(&uplo, &n, &nrhs, a.data(), &lda, b.data(), &ldb, &info, 1);
      check("spotrs info", info, {1, 2, 3, 5, 7}, 0, b, b0, false);
      break;
    }
    case 2: {
      auto a = buffer<std::complex<double>>(in, lda, n);
      if (a.empty()) return;
      const auto a0 = a;
      zpotri_(&uplo, &n, a.data(), &lda, &info, 1);
      check("zpotri info", info, {1, 2, 4}, n, a, a0, false);
      break;
    }
    default: {
      auto a = buffer<double>(in, lda, n);
      if (a.empty()) return;
      const auto a0 = a;
      dlauum_(&uplo, &n, a.data(), &lda, &info, 1);
      check("dlauum info", info, {1, 2, 4}, 0, a, a0, false);
    }
  }
}

// An answered TRTRI wrote only its triangle: the other one, a unit diagonal and rows n .. lda - 1 keep
// their values (bytes).
template <class T>
void trtri_kept_outside(char uplo, char diag, int n, int lda, const std::vector<T>& a, const std::vector<T>& a0) {
  const bool lower = uplo == 'L' || uplo == 'l', unit = diag == 'U' || diag == 'u';
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < lda; ++i) {
      const auto k = static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * static_cast<std::size_t>(lda);
      if (!(i < n && (lower ? i >= j : i <= j) && !(unit && i == j)))
        require(std::memcmp(&a[k], &a0[k], sizeof a[k]) == 0, "TRTRI wrote outside its triangle");
    }
}

void fuzz_trtri(trnfuzz::Input& in) {
  const char uplo = letter(in, "UL"), diag = letter(in, "NU");
  const int n = dim(in), lda = dim(in);
  int info = 0;
  const auto run_complex = [&](auto zero, auto routine, const char* what) {
    auto a = buffer<decltype(zero)>(in, lda, n);
    if (a.empty()) return;
    const auto a0 = a;
    routine(&uplo, &diag, &n, a.data(), &lda, &info, 1, 1);
    check(what, info, {1, 2, 3, 5}, n, a, a0, false);
    if (info >= 0) trtri_kept_outside(uplo, diag, n, lda, a, a0);
  };
  switch (in.byte() % 3) {
    case 0: {
      auto a = buffer<float>(in, lda, n);
      if (a.empty()) return;
      const auto a0 = a;
      strtri_(&uplo, &diag, &n, a.data(), &lda, &info, 1, 1);
      check("strtri info", info, {1, 2, 3, 5}, n, a, a0, false);
      break;
    }
    case 1: run_complex(std::complex<double>(), ztrtri_, "ztrtri info"); break;
    default: run_complex(std::complex<float>(), ctrtri_, "ctrtri info");
  }
}

void fuzz_lu(trnfuzz::Input& in) {
  const int m = dim(in), n = dim(in), lda = dim(in), nrhs = dim(in), ldb = dim(in);
  std::vector<int> ipiv(count(std::min(m, n)));
  int info = 0;
  switch (in.byte() % 3) {
    case 0: {
      auto a = buffer<double>(in, lda, n);
      if (a.empty()) return;
      const auto a0 = a;
      dgetrf_(&m, &n, a.data(), &lda, ipiv.data(), &info);
      check("dgetrf info", info, {1, 2, 4}, std::min(m, n), a, a0, false);
      break;
    }
    case 1: {  // pivots: fuzzed, in range mostly (out of range: passed on, unanswered here)
      const char trans = letter(in, "NTC");
      auto a = buffer<std::complex<float>>(in, lda, n);
      auto b = buffer<std::complex<float>>(in, ldb, nrhs);
      if (a.empty() || b.empty()) return;
      ipiv.resize(count(n));
      for (std::size_t i = 0; i < ipiv.size(); ++i) ipiv[i] = in.flag(8) ? in.byte() - 8 : static_cast<int>(i + 1);
      const auto b0 = b;
      cgetrs_(&trans, &n, &nrhs, a.data(), &lda, ipiv.data(), b.data(), &ldb, &info, 1);
      check("cgetrs info", info, {1, 2, 3, 5, 8}, 0, b, b0, true);
      break;
    }
    default: {
      ipiv.resize(count(n));
      auto a = buffer<float>(in, lda, n);
      auto b = buffer<float>(in, ldb, nrhs);
      if (a.empty() || b.empty()) return;
      const auto b0 = b;
      sgesv_(&n, &nrhs, a.data(), &lda, ipiv.data(), b.data(), &ldb, &info);
      check("sgesv info", info, {1, 2, 4, 7}, n, b, b0, false);
    }
  }
}

void fuzz_qr(trnfuzz::Input& in) {
  const int m = dim(in), n = dim(in), k = dim(in), lda = dim(in), ldc = dim(in);
  const int lwork = in.flag(4) ? -1 : work_length(in);
  const int wlen = std::max(1, lwork);
  if (wlen > kCap) return;
  int info = 0;
  switch (in.byte() % 4) {
    case 0: {
      auto a = buffer<std::complex<double>>(in, lda, n);
      if (a.empty()) return;
      std::vector<std::complex<double>> tau(count(std::min(m, n)));
      std::vector<std::complex<double>> work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      zgeqrf_(&m, &n, a.data(), &lda, tau.data(), work.data(), &lwork, &info);
      check("zgeqrf info", info, {1, 2, 4, 7}, 0, a, a0, false);
      break;
    }
    case 1: {
      auto a = buffer<double>(in, lda, n);
      if (a.empty()) return;
      std::vector<double> tau(count(k), 1.5), work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      dorgqr_(&m, &n, &k, a.data(), &lda, tau.data(), work.data(), &lwork, &info);
      check("dorgqr info", info, {1, 2, 3, 5, 8}, 0, a, a0, false);
      break;
    }
    case 2: {
      const char side = letter(in, "LR"), trans = letter(in, "NT");
      auto a = buffer<float>(in, lda, k);
      auto c = buffer<float>(in, ldc, n);
      if (a.empty() || c.empty()) return;
      std::vector<float> tau(count(k), 1.25f), work(static_cast<std::size_t>(wlen));
      const auto c0 = c;
      sormqr_(&side, &trans, &m, &n, &k, a.data(), &lda, tau.data(), c.data(), &ldc, work.data(), &lwork, &info, 1, 1);
      check("sormqr info", info, {1, 2, 3, 4, 5, 7, 10, 12}, 0, c, c0, false);
      break;
    }
    default: {  // data LAPACK would rescale is passed on: unanswered here (M < N is answered: LQ)
      const auto run_gels = [&](auto zero, auto routine, const char* letters, const char* what) {
        using T = decltype(zero);
        const char trans = letter(in, letters);
        auto a = buffer<T>(in, lda, n);
        auto b = buffer<T>(in, ldc, k);
        if (a.empty() || b.empty()) return;
        std::vector<T> work(static_cast<std::size_t>(wlen));
        const auto b0 = b;
        routine(&trans, &m, &n, &k, a.data(), &lda, b.data(), &ldc, work.data(), &lwork, &info, 1);
        check(what, info, {1, 2, 3, 4, 6, 8, 10}, std::min(m, n), b, b0, true);
      };
      if (in.flag())
        run_gels(0.0, dgels_, "NT", "dgels info");
      else
        run_gels(std::complex<double>(), zgels_, "NC", "zgels info");
    }
  }
}

void fuzz_sytrf(trnfuzz::Input& in) {
  const char uplo = letter(in, "UL");
  const int n = dim(in), lda = dim(in), nrhs = dim(in), ldb = dim(in);
  const int lwork = in.flag(4) ? -1 : work_length(in);
  if (lwork > kCap) return;
  std::vector<int> ipiv(count(n));
  std::vector<double> work(count(lwork));
  auto a = buffer<double>(in, lda, n);
  auto b = buffer<double>(in, ldb, nrhs);
  if (a.empty() || b.empty()) return;
  int info = 0;
  const auto a0 = a;
  dsytrf_(&uplo, &n, a.data(), &lda, ipiv.data(), work.data(), &lwork, &info, 1);
  check("dsytrf info", info, {1, 2, 4, 7}, n, a, a0, false);
  if (info != 0 || lwork == -1) return;
  const auto b0 = b;
  dsytrs_(&uplo, &n, &nrhs, a.data(), &lda, ipiv.data(), b.data(), &ldb, &info, 1);
  check("dsytrs info", info, {1, 2, 3, 5, 8}, 0, b, b0, false);
}

// The selective drivers ?SYEVR (real, fp64) and ?HEEVX (complex, fp32): RANGE, VL/VU, IL/IU fuzzed. Z gets
// ldz x n (M <= n), W n, ISUPPZ 2n, IFAIL n, RWORK 7n, IWORK max(LIWORK, 5n).
void fuzz_select(trnfuzz::Input& in, bool mrrr) {
  const char jobz = letter(in, "VNvn"), range = letter(in, "AVIavi"), uplo = letter(in, "ULul");
  const int n = dim(in), lda = dim(in), ldz = dim(in), il = dim(in), iu = dim(in);
  const float vl = in.value(), vu = in.value(), abstol = 0;
  const int lwork = in.flag(4) ? -1 : work_length(in), liwork = in.flag(4) ? -1 : work_length(in) / 2;
  const std::int64_t nn = std::max(1, n);
  if (n > kCap || 7 * nn > kCap || std::max({1, lwork, liwork}) > kCap) return;
  std::vector<int> iwork(static_cast<std::size_t>(std::max<std::int64_t>({1, liwork, 5 * nn}))), isuppz(count(2 * nn)),
      ifail(count(nn));
  int m = -7, info = 0;
  if (mrrr) {
    auto a = buffer<double>(in, lda, n);
    auto z = buffer<double>(in, ldz, n);
    if (a.empty() || z.empty()) return;
    std::vector<double> w(static_cast<std::size_t>(nn), -7.0), work(static_cast<std::size_t>(std::max(1, lwork)));
    const double dvl = vl, dvu = vu, dabstol = abstol;
    const auto z0 = z;
    dsyevr_(&jobz, &range, &uplo, &n, a.data(), &lda, &dvl, &dvu, &il, &iu, &dabstol, &m, w.data(), z.data(), &ldz,
            isuppz.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1, 1);
    check("dsyevr info", info, {1, 2, 3, 4, 6, 8, 9, 10, 15, 18, 20}, 0, z, z0, true);
  } else {
    auto a = buffer<std::complex<float>>(in, lda, n);
    auto z = buffer<std::complex<float>>(in, ldz, n);
    if (a.empty() || z.empty()) return;
    std::vector<float> w(static_cast<std::size_t>(nn), -7.0f), rwork(static_cast<std::size_t>(7 * nn));
    std::vector<std::complex<float>> work(static_cast<std::size_t>(std::max(1, lwork)));
    const auto z0 = z;
    cheevx_(&jobz, &range, &uplo, &n, a.data(), &lda, &vl, &vu, &il, &iu, &abstol, &m, w.data(), z.data(), &ldz,
            work.data(), &lwork, rwork.data(), iwork.data(), ifail.data(), &info, 1, 1, 1);
    check("cheevx info", info, {1, 2, 3, 4, 6, 8, 9, 10, 15, 17}, 0, z, z0, true);
  }
  if (info == 0 && lwork != -1 && liwork != -1) require(m >= 0 && m <= std::max(n, 0), "M outside [0, N]");
  trnfuzz::reach("selective driver called");
}

// Symmetric / Hermitian eigen drivers: standard (?SYEV, ?SYEVD, ?HEEVD) and generalized (?SYGVD, ?HEGV).
// INFO of an answer: 0, or N + i (B not positive definite); Inf/NaN in the data is passed on.
void fuzz_eigen(trnfuzz::Input& in) {
  const char jobz = letter(in, "VNvn"), uplo = letter(in, "ULul");
  const int n = dim(in), lda = dim(in), ldb = dim(in), itype = in.flag(8) ? dim(in) : 1 + in.byte() % 3;
  const int lwork = in.flag(4) ? -1 : work_length(in), liwork = in.flag(4) ? -1 : work_length(in) / 4;
  const int lrwork = in.flag(4) ? -1 : work_length(in);
  const int wlen = std::max({1, lwork, lrwork, liwork});
  if (wlen > kCap) return;
  std::vector<int> iwork(static_cast<std::size_t>(wlen));
  std::vector<double> w(static_cast<std::size_t>(std::max(1, std::min(n, int{kCap}))), -7.0),
      rwork(static_cast<std::size_t>(wlen));
  if (n > kCap) return;
  int info = 0;
  switch (in.byte() % 5) {
    case 0: {
      auto a = buffer<double>(in, lda, n);
      if (a.empty()) return;
      std::vector<double> work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      dsyevd_(&jobz, &uplo, &n, a.data(), &lda, w.data(), work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
      check("dsyevd info", info, {1, 2, 3, 5, 8, 10}, 0, a, a0, true);
      break;
    }
    case 1: {
      auto a = buffer<float>(in, lda, n);
      if (a.empty()) return;
      std::vector<float> wf(w.size()), work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      ssyev_(&jobz, &uplo, &n, a.data(), &lda, wf.data(), work.data(), &lwork, &info, 1, 1);
      check("ssyev info", info, {1, 2, 3, 5, 8}, 0, a, a0, true);
      break;
    }
    case 2: {
      auto a = buffer<std::complex<double>>(in, lda, n);
      if (a.empty()) return;
      std::vector<std::complex<double>> work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      zheevd_(&jobz, &uplo, &n, a.data(), &lda, w.data(), work.data(), &lwork, rwork.data(), &lrwork, iwork.data(),
              &liwork, &info, 1, 1);
      check("zheevd info", info, {1, 2, 3, 5, 8, 10, 12}, 0, a, a0, true);
      break;
    }
    case 3: {
      auto a = buffer<double>(in, lda, n);
      auto b = buffer<double>(in, ldb, n);
      if (a.empty() || b.empty()) return;
      std::vector<double> work(static_cast<std::size_t>(wlen));
      const auto a0 = a;
      dsygvd_(&itype, &jobz, &uplo, &n, a.data(), &lda, b.data(), &ldb, w.data(), work.data(), &lwork, iwork.data(),
              &liwork, &info, 1, 1);
      check("dsygvd info", info, {1, 2, 3, 4, 6, 8, 11, 13}, 2 * std::max(n, 0), a, a0, true);
      break;
    }
    default: {
      auto a = buffer<std::complex<float>>(in, lda, n);
      auto b = buffer<std::complex<float>>(in, ldb, n);
      if (a.empty() || b.empty()) return;
      std::vector<std::complex<float>> work(static_cast<std::size_t>(wlen));
      std::vector<float> wf(w.size()), rw(count(3 * std::int64_t{n}));
      const auto a0 = a;
      chegv_(&itype, &jobz, &uplo, &n, a.data(), &lda, b.data(), &ldb, wf.data(), work.data(), &lwork, rw.data(),
             &info, 1, 1);
      check("chegv info", info, {1, 2, 3, 4, 6, 8, 11}, 2 * std::max(n, 0), a, a0, true);
    }
  }
}

// SVD drivers: ?GESVD (every job pair) and ?GESDD (every job), both orientations. U gets ldu x m, VT
// ldvt x n (what 'A' writes); an answer's INFO is 0 (the kit's non-convergence is passed on).
void fuzz_svd(trnfuzz::Input& in) {
  const char jobu = letter(in, "ASON"), jobvt = letter(in, "ASON");
  const int m = dim(in), n = dim(in), lda = dim(in), ldu = dim(in), ldvt = dim(in);
  const int wl = work_length(in);  // xGESDD's minimum is 3 mn^2 + ...: a larger multiple than work_length's
  const int lwork = in.flag(4) ? -1 : wl > 0 && wl < 10000 ? wl * 8 : wl;
  const std::int64_t mn = std::max(1, std::min(std::max(m, 0), std::max(n, 0))), mx = std::max({1, m, n});
  if (std::max<std::int64_t>(1, lwork) > kCap || mx > kCap) return;
  const std::int64_t lrwork = 5 * mn * mx + 7 * mn;  // xGESDD's largest LRWORK, 5 mn max(m, n) + 7 mn bounds it
  if (lrwork > kCap) return;
  std::vector<double> s(static_cast<std::size_t>(mn), -7.0), rwork(static_cast<std::size_t>(lrwork));
  std::vector<int> iwork(static_cast<std::size_t>(8 * mn));
  int info = 0;
  if (in.flag()) {
    auto a = buffer<double>(in, lda, n);
    auto u = buffer<double>(in, ldu, m);
    auto vt = buffer<double>(in, ldvt, n);
    if (a.empty() || u.empty() || vt.empty()) return;
    std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)));
    const auto s0 = s;
    dgesvd_(&jobu, &jobvt, &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
            &info, 1, 1);
    check("dgesvd info", info, {1, 2, 3, 4, 6, 9, 11, 13}, 0, s, s0, true);
  } else {
    auto a = buffer<std::complex<double>>(in, lda, n);
    auto u = buffer<std::complex<double>>(in, ldu, m);
    auto vt = buffer<std::complex<double>>(in, ldvt, n);
    if (a.empty() || u.empty() || vt.empty()) return;
    std::vector<std::complex<double>> work(static_cast<std::size_t>(std::max(1, lwork)));
    const auto s0 = s;
    zgesdd_(&jobu, &m, &n, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
            rwork.data(), iwork.data(), &info, 1);
    check("zgesdd info", info, {1, 2, 3, 5, 8, 10, 12}, 0, s, s0, true);
  }
}

// ?GESVDX (D, Z): JOBU / JOBVT V or N, RANGE A / V / I (any byte sometimes), VL, VU, IL, IU from the
// grammar. U gets ldu x min(m, n), VT ldvt x n (NS <= min(m, n) rows). An answer: INFO 0, NS in
// [0, min(m, n)], S(1:NS) descending and non-negative.
void fuzz_gesvdx(trnfuzz::Input& in) {
  const char jobu = letter(in, "VN"), jobvt = letter(in, "VN"), range = letter(in, "AVI");
  const int m = dim(in), n = dim(in), lda = dim(in), ldu = dim(in), ldvt = dim(in), il = dim(in), iu = dim(in);
  const double vl = in.value(), vu = in.flag(4) ? vl : in.value();
  const int wl = work_length(in);
  const int lwork = in.flag(4) ? -1 : wl > 0 && wl < 10000 ? wl * 8 : wl;
  const std::int64_t mn = std::max(1, std::min(std::max(m, 0), std::max(n, 0))), mx = std::max({1, m, n});
  if (std::max<std::int64_t>(1, lwork) > kCap || mx > kCap) return;
  std::vector<double> s(static_cast<std::size_t>(mn), -7.0), rwork(static_cast<std::size_t>(17 * mn * mn));
  std::vector<int> iwork(static_cast<std::size_t>(12 * mn));
  int info = 0, ns = -5;
  const auto s0 = s;
  const auto answered = [&](const char* what) {
    if (info != 0) return;
    require(ns >= 0 && ns <= mn, what);
    for (int i = 0; i < ns; ++i) require(s[i] >= 0 && (i == 0 || s[i] <= s[i - 1]), "gesvdx S not descending");
    trnfuzz::reach("gesvdx answered");
  };
  if (in.flag()) {
    auto a = buffer<double>(in, lda, n);
    auto u = buffer<double>(in, ldu, mn);
    auto vt = buffer<double>(in, ldvt, n);
    if (a.empty() || u.empty() || vt.empty()) return;
    std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)));
    dgesvdx_(&jobu, &jobvt, &range, &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu,
             vt.data(), &ldvt, work.data(), &lwork, iwork.data(), &info, 1, 1, 1);
    check("dgesvdx info", info, {1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 15, 17, 19}, 0, s, s0, true);
    if (lwork != -1) answered("dgesvdx NS out of [0, min(m, n)]");
  } else {
    auto a = buffer<std::complex<double>>(in, lda, n);
    auto u = buffer<std::complex<double>>(in, ldu, mn);
    auto vt = buffer<std::complex<double>>(in, ldvt, n);
    if (a.empty() || u.empty() || vt.empty()) return;
    std::vector<std::complex<double>> work(static_cast<std::size_t>(std::max(1, lwork)));
    zgesvdx_(&jobu, &jobvt, &range, &m, &n, a.data(), &lda, &vl, &vu, &il, &iu, &ns, s.data(), u.data(), &ldu,
             vt.data(), &ldvt, work.data(), &lwork, rwork.data(), iwork.data(), &info, 1, 1, 1);
    check("zgesvdx info", info, {1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 15, 17, 19}, 0, s, s0, true);
    if (lwork != -1) answered("zgesvdx NS out of [0, min(m, n)]");
  }
}

}  // namespace

std::vector<trnfuzz::Floor> trnfuzz::floors() { return {{"answered", 100}, {"rejected", 60}, {"unanswered", 5}, {"selective driver called", 20}}; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  trnfuzz::Input in(data, size);
  for (int call = 0; call < 3 && !in.empty(); ++call) {
    switch (in.byte() % 7) {
      case 0: fuzz_cholesky(in); break;
      case 1: fuzz_trtri(in); break;
      case 2: fuzz_lu(in); break;
      case 3: fuzz_qr(in); break;
      case 4: {
        // One byte value in 8 of the eigen family goes to the selective drivers (?SYEVR / ?HEEVX).
        const std::uint8_t sel = in.byte();
        if (sel % 8 == 7)
          fuzz_select(in, sel % 16 == 7);
        else
          fuzz_eigen(in);
        break;
      }
      case 5: fuzz_svd(in); break;
      default: fuzz_sytrf(in);
    }
  }
  if (!in.empty()) fuzz_gesvdx(in);  // ?GESVDX: appended, earlier bytes keep their meaning
  return 0;
}
