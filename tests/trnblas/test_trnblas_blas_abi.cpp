// libtrnblas_blas.so called directly (linked, no LD_PRELOAD): the Fortran and CBLAS entry points
// against OpenBLAS, the TRNBLAS_COMPUTE / _TARGET / _NUMERICS environment, reference-BLAS INFO and
// reference-CBLAS parameter numbers seen by overriding xerbla_/cblas_xerbla, the default handlers'
// messages, netlib's corner cases and the call trace. The netlib test programs themselves run in
// run_netlib_blas.sh.
#include <cblas.h>  // OpenBLAS's header: CBLAS prototypes and enums; OpenBLAS itself is dlopen'ed
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "blas_reference.hpp"
#include "trnblas_blas.h"

extern "C" int RowMajorStrg;  // reference CBLAS's global, exported by the shim

namespace {

// What the overriding error handlers below saw.
struct Captured {
  int calls = 0;
  std::string name;      // xerbla_: srname; cblas_xerbla: rout
  int info = 0;
  int row_major = -1;    // RowMajorStrg during cblas_xerbla
  bool forward = false;  // also run the shim's default handler
};
Captured g_xerbla, g_cblas;

// The shim's own definition of `name` (its weak default handlers included), looked up in the shim.
void* shim_symbol(const char* name) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&sgemm_), &info) == 0) return nullptr;
  void* h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (h == nullptr) return nullptr;
  void* f = dlsym(h, name);
  dlclose(h);
  return f;
}

}  // namespace

// The program's own handlers: they override the shim's weak defaults (as a Fortran XERBLA would).
extern "C" void xerbla_(const char* srname, const int* info, size_t srname_len) {
  ++g_xerbla.calls;
  g_xerbla.name.assign(srname, strnlen(srname, srname_len));
  g_xerbla.info = *info;
  if (g_xerbla.forward)
    if (auto* f = reinterpret_cast<void (*)(const char*, const int*, size_t)>(shim_symbol("xerbla_")))
      f(srname, info, srname_len);
}

// Spelled as OpenBLAS's cblas.h declares it (netlib's has const char*; the ABI is the same).
extern "C" void cblas_xerbla(blasint info, char* rout, char*, ...) {
  ++g_cblas.calls;
  g_cblas.name = rout;
  g_cblas.info = info;
  g_cblas.row_major = RowMajorStrg;
  if (g_cblas.forward)
    if (auto* f = reinterpret_cast<void (*)(int, const char*, const char*, ...)>(shim_symbol("cblas_xerbla")))
      f(info, rout, "");
}

namespace {

// Test data and references (this executable links the shim only, not the trnblas C API).
using blastest::at;
using blastest::uniform_f;

// Double-double accumulation of a dot product (Ogita-Rump-Oishi Dot2): the fp64 GEMM reference.
struct DD {
  double hi = 0, lo = 0;
};
void dd_add_prod(DD& acc, double a, double b) {
  const double p = a * b, pe = std::fma(a, b, -p);
  const double s = acc.hi + p, bb = s - acc.hi;
  const double e = (acc.hi - (s - bb)) + (p - bb) + acc.lo + pe;
  acc.hi = s + e;
  acc.lo = e - (acc.hi - s);
}

// OpenBLAS, opened privately so that its symbols never compete with the shim's.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&cblas_ssyrk) ssyrk = nullptr;
  decltype(&cblas_dsyrk) dsyrk = nullptr;
  OpenBlas() {
    void* h = dlopen(TRNBLAS_TEST_OPENBLAS, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return;
    sgemm = reinterpret_cast<decltype(sgemm)>(dlsym(h, "cblas_sgemm"));
    dgemm = reinterpret_cast<decltype(dgemm)>(dlsym(h, "cblas_dgemm"));
    ssyrk = reinterpret_cast<decltype(ssyrk)>(dlsym(h, "cblas_ssyrk"));
    dsyrk = reinterpret_cast<decltype(dsyrk)>(dlsym(h, "cblas_dsyrk"));
    if (auto* threads = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"))) threads(1);
  }
  bool ok() const { return sgemm && dgemm && ssyrk && dsyrk; }
};
const OpenBlas& openblas() {
  static const OpenBlas o;
  return o;
}
#define REQUIRE_OPENBLAS() \
  if (!openblas().ok()) GTEST_SKIP() << "cannot dlopen OpenBLAS (" TRNBLAS_TEST_OPENBLAS ")"

// Sets an environment variable for one scope and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// Clears the configuration variables so that each test starts from the defaults.
struct DefaultEnv {
  ScopedEnv compute{"TRNBLAS_COMPUTE", nullptr}, target{"TRNBLAS_TARGET", nullptr},
      numerics{"TRNBLAS_NUMERICS", nullptr}, trace{"TRNBLAS_BLAS_TRACE", nullptr};
};

bool is_trans(char t) { return t != 'N' && t != 'n'; }

constexpr float kSentinel = -777.0f;

// Column-major storage with leading dimension ld >= rows, padding rows set to a sentinel.
template <class T>
std::vector<T> padded(int rows, int cols, int ld, std::uint64_t seed) {
  const auto v = uniform_f(static_cast<std::size_t>(ld) * cols, seed);
  std::vector<T> out(v.begin(), v.end());
  for (int j = 0; j < cols; ++j)
    for (int i = rows; i < ld; ++i) out[static_cast<std::size_t>(i + j * ld)] = T(kSentinel);
  return out;
}

// Componentwise GEMM bound for two fp32 (or two fp64) GEMMs: 2 (k + 2) u (|alpha| sum |a||b| + |beta||c|).
template <class T>
double gemm_bound(const std::vector<T>& A, int lda, bool ta, const std::vector<T>& B, int ldb, bool tb, int i, int j,
                  int k, double alpha, double beta, double c0) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  double absum = 0;
  for (int p = 0; p < k; ++p) absum += std::fabs(double(at(A, lda, ta, i, p)) * double(at(B, ldb, tb, p, j)));
  return 2.0 * (k + 2) * u * (std::fabs(alpha) * absum + std::fabs(beta * c0));
}

// One sgemm_ call, C = op(A) op(B), m x n x k, alpha 1, beta 0.
std::vector<float> sgemm_product(const std::vector<float>& A, const std::vector<float>& B, int m, int n, int k) {
  std::vector<float> C(static_cast<std::size_t>(m) * n, std::numeric_limits<float>::quiet_NaN());
  const float one = 1.0f, zero = 0.0f;
  sgemm_("N", "N", &m, &n, &k, &one, A.data(), &m, B.data(), &k, &zero, C.data(), &m, 1, 1);
  return C;
}

// ---- the symbols --------------------------------------------------------------------------------

TEST(TrnblasBlasAbi, EntryPointsResolveIntoTheShimAndHandlersIntoTheProgram) {
  for (const char* name : {"sgemm_", "dgemm_", "ssyrk_", "dsyrk_", "cblas_sgemm", "cblas_dgemm", "cblas_ssyrk",
                           "cblas_dsyrk", "strsm_", "dtrsm_", "strmm_", "dtrmm_", "ssymm_", "dsymm_", "ssyr2k_",
                           "dsyr2k_", "cblas_strsm", "cblas_dtrsm", "cblas_strmm", "cblas_dtrmm", "cblas_ssymm",
                           "cblas_dsymm", "cblas_ssyr2k", "cblas_dsyr2k", "cgemm_", "zgemm_", "cblas_cgemm", "cblas_zgemm",
                           "sdsdot_", "dsdot_", "cblas_sdsdot", "cblas_dsdot"}) {
    void* p = dlsym(RTLD_DEFAULT, name);
    ASSERT_NE(p, nullptr) << name;
    Dl_info info{};
    ASSERT_NE(dladdr(p, &info), 0) << name;
    EXPECT_NE(std::strstr(info.dli_fname, "libtrnblas_blas"), nullptr) << name << " resolves into " << info.dli_fname;
  }
  // (RowMajorStrg and CBLAS_CallFromC, data, live in the program by copy relocation; the shim
  // writes that copy, which CblasParameterNumbersFollowReferenceCblas observes.)
  // The program's xerbla_/cblas_xerbla win over the shim's weak defaults, which still exist.
  for (const char* name : {"xerbla_", "cblas_xerbla"}) {
    Dl_info info{};
    ASSERT_NE(dladdr(dlsym(RTLD_DEFAULT, name), &info), 0) << name;
    EXPECT_EQ(std::strstr(info.dli_fname, "libtrnblas_blas"), nullptr) << name << " resolves into " << info.dli_fname;
    EXPECT_NE(shim_symbol(name), nullptr) << name;
    EXPECT_NE(shim_symbol(name), dlsym(RTLD_DEFAULT, name)) << name;
  }
}

// ---- results against OpenBLAS -------------------------------------------------------------------

TEST(TrnblasBlasAbi, SgemmMatchesOpenBlasForEveryTransposeLetter) {
  REQUIRE_OPENBLAS();
  DefaultEnv env;
  const int m = 70, n = 45, k = 130;  // k crosses a 128-row K tile
  const float alpha = 0.75f, beta = -1.25f;
  for (char ta : {'N', 'n', 'T', 't', 'C', 'c'})
    for (char tb : {'N', 'n', 'T', 't', 'C', 'c'}) {
      const bool tra = is_trans(ta), trb = is_trans(tb);
      const int lda = (tra ? k : m) + 3, ldb = (trb ? n : k) + 2, ldc = m + 5;
      const auto A = padded<float>(tra ? k : m, tra ? m : k, lda, 1), B = padded<float>(trb ? n : k, trb ? k : n, ldb, 2);
      const auto C0 = padded<float>(m, n, ldc, 3);
      auto C = C0, R = C0;
      sgemm_(&ta, &tb, &m, &n, &k, &alpha, A.data(), &lda, B.data(), &ldb, &beta, C.data(), &ldc, 1, 1);
      openblas().sgemm(CblasColMajor, tra ? CblasTrans : CblasNoTrans, trb ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                       A.data(), lda, B.data(), ldb, beta, R.data(), ldc);
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
          const std::size_t x = static_cast<std::size_t>(i + j * ldc);
          ASSERT_LE(std::fabs(double(C[x]) - R[x]), gemm_bound(A, lda, tra, B, ldb, trb, i, j, k, alpha, beta, C0[x]))
              << ta << tb << " (" << i << "," << j << ")";
        }
        for (int i = m; i < ldc; ++i) ASSERT_EQ(C[static_cast<std::size_t>(i + j * ldc)], kSentinel) << "padding";
      }
    }
}

TEST(TrnblasBlasAbi, OzakiDgemmAndDsyrkMatchOpenBlas) {
  REQUIRE_OPENBLAS();
  DefaultEnv env;
  const int m = 33, n = 40, k = 50;
  const double alpha = 0.625, beta = 1.5;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'c'}) {
      const bool tra = is_trans(ta), trb = is_trans(tb);
      const int lda = tra ? k : m, ldb = trb ? n : k;
      const auto A = padded<double>(lda, tra ? m : k, lda, 4), B = padded<double>(ldb, trb ? k : n, ldb, 5);
      const auto C0 = padded<double>(m, n, m, 6);
      auto C = C0, R = C0;
      dgemm_(&ta, &tb, &m, &n, &k, &alpha, A.data(), &lda, B.data(), &ldb, &beta, C.data(), &m, 1, 1);
      openblas().dgemm(CblasColMajor, tra ? CblasTrans : CblasNoTrans, trb ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                       A.data(), lda, B.data(), ldb, beta, R.data(), m);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          const std::size_t x = static_cast<std::size_t>(i + j * m);
          ASSERT_LE(std::fabs(C[x] - R[x]), gemm_bound(A, lda, tra, B, ldb, trb, i, j, k, alpha, beta, C0[x]))
              << ta << tb << " (" << i << "," << j << ")";
        }
    }
  // DSYRK: only the uplo triangle is written.
  for (char uplo : {'U', 'l'})
    for (char trans : {'N', 'T'}) {
      const bool tr = is_trans(trans);
      const int lda = tr ? k : n;
      const auto A = padded<double>(lda, tr ? n : k, lda, 7);
      const auto C0 = padded<double>(n, n, n, 8);
      auto C = C0, R = C0;
      dsyrk_(&uplo, &trans, &n, &k, &alpha, A.data(), &lda, &beta, C.data(), &n, 1, 1);
      openblas().dsyrk(CblasColMajor, uplo == 'U' ? CblasUpper : CblasLower, tr ? CblasTrans : CblasNoTrans, n, k,
                       alpha, A.data(), lda, beta, R.data(), n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const std::size_t x = static_cast<std::size_t>(i + j * n);
          const bool in = uplo == 'U' ? i <= j : i >= j;
          if (!in) {
            ASSERT_EQ(C[x], C0[x]) << "other triangle written at (" << i << "," << j << ")";
            continue;
          }
          ASSERT_LE(std::fabs(C[x] - R[x]), gemm_bound(A, lda, tr, A, lda, !tr, i, j, k, alpha, beta, C0[x]))
              << uplo << trans << " (" << i << "," << j << ")";
        }
    }
}

TEST(TrnblasBlasAbi, CblasRowMajorMatchesOpenBlas) {
  REQUIRE_OPENBLAS();
  DefaultEnv env;
  const int M = 37, N = 70, K = 140;
  const float alpha = -0.5f, beta = 0.25f;
  for (CBLAS_TRANSPOSE ta : {CblasNoTrans, CblasTrans, CblasConjTrans})
    for (CBLAS_TRANSPOSE tb : {CblasNoTrans, CblasTrans, CblasConjTrans}) {
      // Row-major: element (r, c) at r * ld + c; op(A) is M x K, op(B) K x N, C M x N.
      const bool tra = ta != CblasNoTrans, trb = tb != CblasNoTrans;
      const int lda = (tra ? M : K) + 1, ldb = (trb ? K : N) + 2, ldc = N + 3;
      const auto A = uniform_f(static_cast<std::size_t>(tra ? K : M) * lda, 11);
      const auto B = uniform_f(static_cast<std::size_t>(trb ? N : K) * ldb, 12);
      const auto C0 = uniform_f(static_cast<std::size_t>(M) * ldc, 13);
      auto C = C0, R = C0;
      cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
      openblas().sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A.data(), lda, B.data(), ldb, beta, R.data(), ldc);
      for (int r = 0; r < M; ++r)
        for (int c = 0; c < ldc; ++c) {
          const std::size_t x = static_cast<std::size_t>(r * ldc + c);
          if (c >= N) {
            ASSERT_EQ(C[x], C0[x]) << "padding";
            continue;
          }
          // The row-major product read column-major is C^T = op(B)^T op(A)^T.
          const double bound = gemm_bound(B, ldb, trb, A, lda, tra, c, r, K, alpha, beta, C0[x]);
          ASSERT_LE(std::fabs(double(C[x]) - R[x]), bound) << ta << "," << tb << " (" << r << "," << c << ")";
        }
    }
  for (CBLAS_ORDER layout : {CblasRowMajor, CblasColMajor})
    for (CBLAS_UPLO uplo : {CblasUpper, CblasLower})
      for (CBLAS_TRANSPOSE trans : {CblasNoTrans, CblasTrans, CblasConjTrans}) {
        const bool tr = trans != CblasNoTrans;
        const bool row = layout == CblasRowMajor;
        // op(A) is N x K; stored (N x K or K x N) in the given layout.
        const int rows = tr ? K : N, cols = tr ? N : K;
        const int lda = (row ? cols : rows) + 1, ldc = N + 2;
        const auto A = uniform_f(static_cast<std::size_t>(row ? rows : cols) * lda, 14);
        const auto C0 = uniform_f(static_cast<std::size_t>(N) * ldc, 15);
        auto C = C0, R = C0;
        cblas_ssyrk(layout, uplo, trans, N, K, alpha, A.data(), lda, beta, C.data(), ldc);
        openblas().ssyrk(layout, uplo, trans, N, K, alpha, A.data(), lda, beta, R.data(), ldc);
        // op(A)(i, p) in either layout, as a column-major view for the bound.
        const bool colmajor_trans = row ? !tr : tr;
        for (int i = 0; i < N; ++i)
          for (int j = 0; j < N; ++j) {
            const std::size_t x = row ? static_cast<std::size_t>(i * ldc + j) : static_cast<std::size_t>(i + j * ldc);
            const bool in = uplo == CblasUpper ? i <= j : i >= j;
            if (!in) {
              ASSERT_EQ(C[x], C0[x]) << "other triangle written at (" << i << "," << j << ")";
              continue;
            }
            const double bound = gemm_bound(A, lda, colmajor_trans, A, lda, !colmajor_trans, i, j, K, alpha, beta, C0[x]);
            ASSERT_LE(std::fabs(double(C[x]) - R[x]), bound) << layout << uplo << trans << " (" << i << "," << j << ")";
          }
      }
  // cblas_dgemm row-major (Ozaki) on one shape.
  const int m = 21, n = 30, k = 17;
  const auto Af = uniform_f(static_cast<std::size_t>(m) * k, 16), Bf = uniform_f(static_cast<std::size_t>(k) * n, 17);
  const std::vector<double> A(Af.begin(), Af.end()), B(Bf.begin(), Bf.end());
  std::vector<double> C(static_cast<std::size_t>(m) * n, 0.5), R = C;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.5, A.data(), k, B.data(), n, -2.0, C.data(), n);
  openblas().dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.5, A.data(), k, B.data(), n, -2.0, R.data(), n);
  for (std::size_t x = 0; x < C.size(); ++x) ASSERT_NEAR(C[x], R[x], 1e-13) << x;
}

// ---- environment --------------------------------------------------------------------------------

TEST(TrnblasBlasAbi, ComputeEnvironmentSelectsTheSRoutinesMode) {
  DefaultEnv env;
  const int m = 96, n = 80, k = 256;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 21), B = uniform_f(static_cast<std::size_t>(k) * n, 22);
  const double e_fp32 = blastest::rel_frobenius(sgemm_product(A, B, m, n, k), A, m, false, B, k, false, m, n, k);
  double e_bf16 = 0, e_bf16x3 = 0;
  {
    ScopedEnv mode("TRNBLAS_COMPUTE", "bf16");
    e_bf16 = blastest::rel_frobenius(sgemm_product(A, B, m, n, k), A, m, false, B, k, false, m, n, k);
  }
  {
    ScopedEnv mode("TRNBLAS_COMPUTE", "BF16x3");  // names are case-insensitive
    e_bf16x3 = blastest::rel_frobenius(sgemm_product(A, B, m, n, k), A, m, false, B, k, false, m, n, k);
  }
  EXPECT_LT(e_fp32, 1e-6);
  EXPECT_GT(e_bf16, 5e-4) << "bf16 inputs (8 significant bits) must show bf16-level error";
  EXPECT_LT(e_bf16, 1e-2);
  EXPECT_LT(e_bf16x3, 2e-5);
  EXPECT_GT(e_bf16x3, e_fp32);

  // SSYRK follows the same variable.
  std::vector<float> C(static_cast<std::size_t>(m) * m, 0.0f), Cb = C;
  const float one = 1.0f, zero = 0.0f;
  ssyrk_("L", "N", &m, &k, &one, A.data(), &m, &zero, C.data(), &m, 1, 1);
  {
    ScopedEnv mode("TRNBLAS_COMPUTE", "bf16");
    ssyrk_("L", "N", &m, &k, &one, A.data(), &m, &zero, Cb.data(), &m, 1, 1);
  }
  double worst = 0;
  for (int j = 0; j < m; ++j)
    for (int i = j; i < m; ++i) worst = std::max(worst, std::fabs(double(C[i + j * m]) - Cb[i + j * m]));
  EXPECT_GT(worst, 1e-3) << "TRNBLAS_COMPUTE=bf16 must reach ssyrk_";

  // The D routines ignore it: always the Ozaki fp64 emulation.
  ScopedEnv mode("TRNBLAS_COMPUTE", "bf16");
  const std::vector<double> Ad(A.begin(), A.end()), Bd(B.begin(), B.end());
  std::vector<double> Cd(static_cast<std::size_t>(m) * n);
  const double done = 1.0, dzero = 0.0;
  dgemm_("N", "N", &m, &n, &k, &done, Ad.data(), &m, Bd.data(), &k, &dzero, Cd.data(), &m, 1, 1);
  double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      DD acc;
      for (int p = 0; p < k; ++p) dd_add_prod(acc, Ad[i + p * m], Bd[p + j * k]);
      num += (Cd[i + j * m] - acc.hi) * (Cd[i + j * m] - acc.hi);
      den += acc.hi * acc.hi;
    }
  EXPECT_LT(std::sqrt(num / den), 1e-15);
}

TEST(TrnblasBlasAbi, UnknownValuesWarnOnceAndUseTheDefault) {
  DefaultEnv env;
  const int m = 20, n = 12, k = 33;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 23), B = uniform_f(static_cast<std::size_t>(k) * n, 24);
  const auto reference = sgemm_product(A, B, m, n, k);
  ScopedEnv c("TRNBLAS_COMPUTE", "bf17"), t("TRNBLAS_TARGET", "trn9"), nm("TRNBLAS_NUMERICS", "exact");
  testing::internal::CaptureStderr();
  const auto first = sgemm_product(A, B, m, n, k);
  const auto second = sgemm_product(A, B, m, n, k);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(first, reference);
  EXPECT_EQ(second, reference);
  for (const char* expected :
       {"trnblas_blas: warning: unknown TRNBLAS_COMPUTE=bf17 (expected fp32|bf16x9|bf16x6|bf16x3|tf32|fp16|bf16|"
        "fp8_e4m3|fp8_e5m2); using fp32\n",  // the precision-mode table's order
        "trnblas_blas: warning: unknown TRNBLAS_TARGET=trn9 (expected trn1|trn2|trn3); using trn1\n",
        "trnblas_blas: warning: unknown TRNBLAS_NUMERICS=exact (expected ideal|trn1_measured); using ideal\n"}) {
    const auto pos = err.find(expected);
    EXPECT_NE(pos, std::string::npos) << "missing: " << expected << "stderr was:\n" << err;
    EXPECT_EQ(err.find(expected, pos + 1), std::string::npos) << "warned twice: " << expected;
  }
}

TEST(TrnblasBlasAbi, TargetAndNumericsReachTheEmulator) {
  DefaultEnv env;
  const int m = 40, n = 50, k = 200;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 25), B = uniform_f(static_cast<std::size_t>(k) * n, 26);
  ScopedEnv mode("TRNBLAS_COMPUTE", "bf16");
  const auto ideal = sgemm_product(A, B, m, n, k);
  ScopedEnv numerics("TRNBLAS_NUMERICS", "trn1_measured");
  EXPECT_NE(sgemm_product(A, B, m, n, k), ideal) << "trn1_measured rounds bf16 products to bf16 before PSUM";
  const std::string path = testing::TempDir() + "trnblas_blas_target_trace.txt";
  std::remove(path.c_str());
  {
    ScopedEnv target("TRNBLAS_TARGET", "trn2"), trace("TRNBLAS_BLAS_TRACE", path.c_str());
    sgemm_product(A, B, m, n, k);
  }
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_NE(line.find("compute=bf16 target=trn2 numerics=trn1_measured"), std::string::npos) << line;
  std::remove(path.c_str());
}

// ---- argument checking --------------------------------------------------------------------------

struct GemmArgs {
  char ta = 'N', tb = 'N';
  int m = 2, n = 3, k = 4, lda = 2, ldb = 4, ldc = 2;
};

template <class T>
void call_gemm(const GemmArgs& a, std::vector<T>& C) {
  const std::vector<T> A(64, T(1)), B(64, T(1));
  const T alpha = 1, beta = 0;
  if constexpr (std::is_same_v<T, float>)
    sgemm_(&a.ta, &a.tb, &a.m, &a.n, &a.k, &alpha, A.data(), &a.lda, B.data(), &a.ldb, &beta, C.data(), &a.ldc, 1, 1);
  else
    dgemm_(&a.ta, &a.tb, &a.m, &a.n, &a.k, &alpha, A.data(), &a.lda, B.data(), &a.ldb, &beta, C.data(), &a.ldc, 1, 1);
}

template <class T>
void expect_gemm_info(const char* srname) {
  struct Case {
    GemmArgs args;
    int info;  // 0: valid
  };
  auto with = [](auto change) {
    GemmArgs a;
    change(a);
    return a;
  };
  const Case cases[] = {
      {with([](GemmArgs& a) { a.ta = 'X'; a.m = -1; }), 1},  // reference order: transa first
      {with([](GemmArgs& a) { a.tb = '/'; a.lda = 0; }), 2},
      {with([](GemmArgs& a) { a.m = -1; a.lda = 0; }), 3},
      {with([](GemmArgs& a) { a.n = -1; a.ldc = 0; }), 4},
      {with([](GemmArgs& a) { a.k = -1; }), 5},
      {with([](GemmArgs& a) { a.lda = 1; a.ldb = 1; }), 8},  // lda < m, then ldb < k
      {with([](GemmArgs& a) { a.ta = 't'; a.lda = 3; }), 8},   // op(A) = A^T: lda >= k
      {with([](GemmArgs& a) { a.ldb = 3; a.ldc = 1; }), 10},
      {with([](GemmArgs& a) { a.tb = 'C'; a.ldb = 2; }), 10},  // op(B) = B^T: ldb >= n
      {with([](GemmArgs& a) { a.ldc = 1; }), 13},
      {with([](GemmArgs& a) { a.m = 0; a.lda = 1; a.ldc = 1; }), 0},  // max(1, 0)
      {with([](GemmArgs& a) { a.ta = 'c'; a.tb = 't'; a.lda = 4; a.ldb = 3; }), 0},
      {with([](GemmArgs& a) { a.ta = 'n'; a.tb = 'n'; }), 0},
  };
  for (const auto& c : cases) {
    g_xerbla = Captured{};
    std::vector<T> C(64, T(kSentinel));
    call_gemm<T>(c.args, C);
    const auto& a = c.args;
    const std::string what = std::string(srname) + " " + a.ta + a.tb + " m=" + std::to_string(a.m) + " n=" +
                             std::to_string(a.n) + " k=" + std::to_string(a.k) + " lda=" + std::to_string(a.lda) +
                             " ldb=" + std::to_string(a.ldb) + " ldc=" + std::to_string(a.ldc);
    if (c.info == 0) {
      EXPECT_EQ(g_xerbla.calls, 0) << what;
      continue;
    }
    EXPECT_EQ(g_xerbla.calls, 1) << what;
    EXPECT_EQ(g_xerbla.info, c.info) << what;
    EXPECT_EQ(g_xerbla.name, srname) << what;
    for (T x : C) ASSERT_EQ(x, T(kSentinel)) << what << ": C written after an illegal argument";
  }
}

// The shim works its switches and modes out once per environment scan (session 22); a putenv()'d
// string edited in place changes the environment (POSIX) without changing any entry pointer, and
// must still reach the next call, as the per-call reads it replaced did.
TEST(TrnblasBlasAbi, InPlaceEditsOfAPutenvStringReachTheNextCall) {
  DefaultEnv env;
  const int m = 40, n = 30, k = 128;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 27), B = uniform_f(static_cast<std::size_t>(k) * n, 28);
  const auto fp32 = sgemm_product(A, B, m, n, k);
  static char entry[] = "TRNBLAS_COMPUTE=fp32";
  ASSERT_EQ(putenv(entry), 0);
  const auto before = sgemm_product(A, B, m, n, k);
  std::memcpy(entry + 16, "bf16", 4);  // the same entry pointer, another value
  const auto after = sgemm_product(A, B, m, n, k);
  std::memcpy(entry + 16, "fp32", 4);
  const auto back = sgemm_product(A, B, m, n, k);
  unsetenv("TRNBLAS_COMPUTE");
  EXPECT_EQ(before, fp32);
  EXPECT_NE(after, fp32) << "TRNBLAS_COMPUTE edited in place to bf16 must reach the next sgemm_";
  EXPECT_EQ(back, fp32);
}

// Every kind of environment change through libc must reach the next call, the ones that keep the
// environment array and its length included: a value replaced in place (setenv, putenv of another
// string), a variable removed and another added, the whole environment cleared (abi_env.cpp compares
// the entry pointers once per call; session 24).
TEST(TrnblasBlasAbi, EnvironmentChangesThroughLibcCallsReachTheNextCall) {
  DefaultEnv env;
  const int m = 40, n = 30, k = 128;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 29), B = uniform_f(static_cast<std::size_t>(k) * n, 30);
  const auto fp32 = sgemm_product(A, B, m, n, k);
  ASSERT_EQ(setenv("TRNBLAS_COMPUTE", "fp32", 1), 0);
  EXPECT_EQ(sgemm_product(A, B, m, n, k), fp32);
  ASSERT_EQ(setenv("TRNBLAS_COMPUTE", "bf16", 1), 0);  // the same slot of the same array, another pointer
  const auto bf16 = sgemm_product(A, B, m, n, k);
  EXPECT_NE(bf16, fp32) << "setenv over an existing TRNBLAS_COMPUTE must reach the next sgemm_";
  static char fp32_entry[] = "TRNBLAS_COMPUTE=fp32";
  ASSERT_EQ(putenv(fp32_entry), 0);
  EXPECT_EQ(sgemm_product(A, B, m, n, k), fp32) << "putenv of another string";
  // One variable out and one in: the same length, and (glibc growing its own array in place) often
  // the same array.
  ASSERT_EQ(setenv("TRNBLAS_ENV_TEST_OTHER", "1", 1), 0);
  ASSERT_EQ(unsetenv("TRNBLAS_COMPUTE"), 0);
  ASSERT_EQ(unsetenv("TRNBLAS_ENV_TEST_OTHER"), 0);
  ASSERT_EQ(setenv("TRNBLAS_COMPUTE", "bf16", 1), 0);
  EXPECT_EQ(sgemm_product(A, B, m, n, k), bf16) << "removed and added";
  // Cleared, then one variable: the default, then bf16; then the environment as it was.
  std::vector<std::string> saved;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) saved.emplace_back(*e);
  ASSERT_EQ(clearenv(), 0);
  const auto cleared = sgemm_product(A, B, m, n, k);
  ASSERT_EQ(setenv("TRNBLAS_COMPUTE", "bf16", 1), 0);
  const auto set_again = sgemm_product(A, B, m, n, k);
  ASSERT_EQ(clearenv(), 0);
  auto* restored = new std::vector<std::string>(saved);  // putenv keeps the strings: never freed
  for (std::string& s : *restored) putenv(s.data());
  EXPECT_EQ(cleared, fp32) << "clearenv";
  EXPECT_EQ(set_again, bf16) << "setenv after clearenv";
  unsetenv("TRNBLAS_COMPUTE");
  EXPECT_EQ(sgemm_product(A, B, m, n, k), fp32);
}

TEST(TrnblasBlasAbi, XerblaReceivesReferenceGemmInfo) {
  DefaultEnv env;
  expect_gemm_info<float>("SGEMM ");
  expect_gemm_info<double>("DGEMM ");
}

TEST(TrnblasBlasAbi, XerblaReceivesReferenceSyrkInfo) {
  DefaultEnv env;
  struct Case {
    char uplo, trans;
    int n, k, lda, ldc, info;
  };
  const Case cases[] = {
      {'X', 'N', -1, 2, 3, 3, 1}, {'U', 'X', -1, 2, 3, 3, 2}, {'L', 'N', -1, 2, 0, 3, 3}, {'u', 'T', 3, -1, 0, 0, 4},
      {'l', 'N', 3, 2, 2, 3, 7},  {'U', 't', 3, 2, 1, 3, 7},  {'U', 'C', 3, 2, 2, 2, 10}, {'l', 'c', 3, 2, 2, 3, 0},
      {'L', 'N', 0, 0, 1, 1, 0}};
  for (int prec = 0; prec < 2; ++prec)
    for (const auto& c : cases) {
      g_xerbla = Captured{};
      std::vector<float> Cf(16, kSentinel);
      std::vector<double> Cd(16, kSentinel);
      const std::vector<float> Af(16, 1.0f);
      const std::vector<double> Ad(16, 1.0);
      const float one = 1.0f;
      const double done = 1.0;
      if (prec == 0)
        ssyrk_(&c.uplo, &c.trans, &c.n, &c.k, &one, Af.data(), &c.lda, &one, Cf.data(), &c.ldc, 1, 1);
      else
        dsyrk_(&c.uplo, &c.trans, &c.n, &c.k, &done, Ad.data(), &c.lda, &done, Cd.data(), &c.ldc, 1, 1);
      const std::string what = std::string(prec == 0 ? "ssyrk_ " : "dsyrk_ ") + c.uplo + c.trans + " n=" +
                               std::to_string(c.n) + " k=" + std::to_string(c.k) + " lda=" + std::to_string(c.lda) +
                               " ldc=" + std::to_string(c.ldc);
      if (c.info == 0) {
        EXPECT_EQ(g_xerbla.calls, 0) << what;
        continue;
      }
      EXPECT_EQ(g_xerbla.calls, 1) << what;
      EXPECT_EQ(g_xerbla.info, c.info) << what;
      EXPECT_EQ(g_xerbla.name, prec == 0 ? "SSYRK " : "DSYRK ") << what;
      for (int x = 0; x < 16; ++x) ASSERT_EQ(prec == 0 ? double(Cf[x]) : Cd[x], double(kSentinel)) << what;
    }
}

// Reference cblas_xerbla's row-major correction (cblas_xerbla.c), applied by a reference-style handler.
int reference_unswap(const std::string& rout, int info, int row_major) {
  if (row_major == 0 || rout.find("gemm") == std::string::npos) return info;
  return info == 4 ? 5 : info == 5 ? 4 : info == 9 ? 11 : info == 11 ? 9 : info;
}

TEST(TrnblasBlasAbi, CblasParameterNumbersFollowReferenceCblas) {
  DefaultEnv env;
  std::vector<float> A(64, 1.0f), B(64, 1.0f), C(64, kSentinel);
  struct Case {
    CBLAS_ORDER layout;
    int ta, tb, M, N, K, lda, ldb, ldc;
    int position;  // CBLAS parameter number after the reference row-major correction
  };
  const auto I = CblasNoTrans, T = CblasTrans;
  const Case gemm_cases[] = {
      {static_cast<CBLAS_ORDER>(100), I, I, 2, 3, 4, 4, 4, 4, 1},
      {CblasColMajor, 110, I, 2, 3, 4, 2, 4, 2, 2},
      {CblasColMajor, I, 114, 2, 3, 4, 2, 4, 2, 3},
      {CblasColMajor, I, I, -1, 3, 4, 2, 4, 2, 4},
      {CblasColMajor, I, I, 2, -1, 4, 2, 4, 2, 5},
      {CblasColMajor, I, I, 2, 3, -1, 2, 4, 2, 6},
      {CblasColMajor, I, I, 2, 3, 4, 1, 4, 2, 9},
      {CblasColMajor, I, T, 2, 3, 4, 2, 2, 2, 11},
      {CblasColMajor, I, I, 2, 3, 4, 2, 4, 1, 14},
      {CblasRowMajor, 0, I, 2, 3, 4, 4, 3, 3, 2},
      {CblasRowMajor, I, 0, 2, 3, 4, 4, 3, 3, 3},
      {CblasRowMajor, I, I, -1, 3, 4, 4, 3, 3, 4},
      {CblasRowMajor, I, I, 2, -1, 4, 4, 3, 3, 5},
      {CblasRowMajor, I, I, 2, 3, -1, 4, 3, 3, 6},
      {CblasRowMajor, I, I, 2, 3, 4, 3, 3, 3, 9},  // row-major A is M x K: lda >= K
      {CblasRowMajor, T, I, 2, 3, 4, 1, 3, 3, 9},  // A^T stored K x M: lda >= M
      {CblasRowMajor, I, I, 2, 3, 4, 4, 2, 3, 11},
      {CblasRowMajor, I, I, 2, 3, 4, 4, 3, 2, 14},
  };
  for (const auto& c : gemm_cases) {
    g_cblas = Captured{};
    cblas_sgemm(c.layout, static_cast<CBLAS_TRANSPOSE>(c.ta), static_cast<CBLAS_TRANSPOSE>(c.tb), c.M, c.N, c.K, 1.0f,
                A.data(), c.lda, B.data(), c.ldb, 0.0f, C.data(), c.ldc);
    const std::string what = "cblas_sgemm layout=" + std::to_string(c.layout) + " expected " + std::to_string(c.position);
    ASSERT_EQ(g_cblas.calls, 1) << what;
    EXPECT_EQ(g_cblas.name, "cblas_sgemm") << what;
    EXPECT_EQ(g_cblas.row_major, c.layout == CblasRowMajor ? 1 : 0) << what;
    EXPECT_EQ(reference_unswap(g_cblas.name, g_cblas.info, g_cblas.row_major), c.position) << what;
    EXPECT_EQ(RowMajorStrg, 0) << "RowMajorStrg is cleared after the call";
    for (float x : C) ASSERT_EQ(x, kSentinel) << what;
  }
  // Row-major bad lda reaches the handler as reference CBLAS hands it over: 11 with RowMajorStrg = 1.
  g_cblas = Captured{};
  cblas_sgemm(CblasRowMajor, I, I, 2, 3, 4, 3, A.data(), 3, B.data(), 3, 0.0f, C.data(), 3);
  EXPECT_EQ(g_cblas.info, 11);
  EXPECT_EQ(g_cblas.row_major, 1);

  struct SyrkCase {
    CBLAS_ORDER layout;
    int uplo, trans, N, K, lda, ldc, position;
  };
  const SyrkCase syrk_cases[] = {
      {static_cast<CBLAS_ORDER>(7), CblasUpper, I, 2, 3, 3, 3, 1},
      {CblasColMajor, 120, I, 2, 3, 2, 2, 2},
      {CblasRowMajor, 123, I, 2, 3, 3, 2, 2},  // reference CBLAS says 3 here; uplo is parameter 2
      {CblasColMajor, CblasUpper, 114, 2, 3, 2, 2, 3},
      {CblasRowMajor, CblasLower, 110, 2, 3, 3, 2, 3},
      {CblasColMajor, CblasUpper, I, -1, 3, 2, 2, 4},
      {CblasRowMajor, CblasUpper, T, 2, -1, 2, 2, 5},
      {CblasColMajor, CblasLower, I, 2, 3, 1, 2, 8},   // column-major A is N x K: lda >= N
      {CblasRowMajor, CblasLower, I, 2, 3, 2, 2, 8},   // row-major A is N x K: lda >= K
      {CblasRowMajor, CblasUpper, CblasConjTrans, 2, 3, 1, 2, 8},
      {CblasColMajor, CblasUpper, I, 2, 3, 2, 1, 11},
      {CblasRowMajor, CblasUpper, I, 2, 3, 3, 1, 11},
  };
  for (const auto& c : syrk_cases) {
    g_cblas = Captured{};
    cblas_ssyrk(c.layout, static_cast<CBLAS_UPLO>(c.uplo), static_cast<CBLAS_TRANSPOSE>(c.trans), c.N, c.K, 1.0f,
                A.data(), c.lda, 0.0f, C.data(), c.ldc);
    const std::string what = "cblas_ssyrk layout=" + std::to_string(c.layout) + " expected " + std::to_string(c.position);
    ASSERT_EQ(g_cblas.calls, 1) << what;
    EXPECT_EQ(g_cblas.name, "cblas_ssyrk") << what;
    EXPECT_EQ(reference_unswap(g_cblas.name, g_cblas.info, g_cblas.row_major), c.position) << what;
    for (float x : C) ASSERT_EQ(x, kSentinel) << what;
  }
  // The D entry points name themselves.
  std::vector<double> Ad(64, 1.0), Cd(64, 0.0);
  g_cblas = Captured{};
  cblas_dgemm(CblasColMajor, I, I, 2, 3, 4, 1.0, Ad.data(), 1, Ad.data(), 4, 0.0, Cd.data(), 2);
  EXPECT_EQ(g_cblas.name, "cblas_dgemm");
  EXPECT_EQ(g_cblas.info, 9);
  g_cblas = Captured{};
  cblas_dsyrk(CblasColMajor, CblasUpper, I, 2, 3, 1.0, Ad.data(), 2, 0.0, Cd.data(), 1);
  EXPECT_EQ(g_cblas.name, "cblas_dsyrk");
  EXPECT_EQ(g_cblas.info, 11);
}

TEST(TrnblasBlasAbi, DefaultHandlersPrintTheReferenceMessagesAndReturn) {
  DefaultEnv env;
  std::vector<float> A(64, 1.0f), C(64, kSentinel);
  const int m = 4, n = 2, k = 3, bad_lda = 3;
  const float one = 1.0f;
  g_xerbla = Captured{};
  g_xerbla.forward = true;
  testing::internal::CaptureStderr();
  sgemm_("N", "N", &m, &n, &k, &one, A.data(), &bad_lda, A.data(), &k, &one, C.data(), &m, 1, 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), " ** On entry to SGEMM  parameter number  8 had an illegal value\n");
  g_xerbla.forward = false;

  g_cblas = Captured{};
  g_cblas.forward = true;
  testing::internal::CaptureStderr();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 4, 1.0f, A.data(), 3, A.data(), 3, 0.0f, C.data(), 3);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "Parameter 9 to routine cblas_sgemm was incorrect\n");
  testing::internal::CaptureStderr();
  cblas_ssyrk(CblasColMajor, CblasUpper, CblasNoTrans, 2, 3, 1.0f, A.data(), 2, 0.0f, C.data(), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "Parameter 11 to routine cblas_ssyrk was incorrect\n");
  g_cblas.forward = false;

  // The CBLAS default prints its format too, and returns where reference CBLAS would exit(-1).
  auto* cblas_default = reinterpret_cast<void (*)(int, const char*, const char*, ...)>(shim_symbol("cblas_xerbla"));
  ASSERT_NE(cblas_default, nullptr);
  testing::internal::CaptureStderr();
  cblas_default(1, "cblas_dgemm", "Illegal layout setting, %d\n", 7);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "Parameter 1 to routine cblas_dgemm was incorrect\nIllegal layout setting, 7\n");
  for (float x : C) ASSERT_EQ(x, kSentinel);
}

// ---- netlib semantics ---------------------------------------------------------------------------

template <class T>
void expect_netlib_gemm_corners() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const int m = 5, n = 4, k = 3, zero_dim = 0;
  const std::vector<T> A(15, T(0.5)), B(12, T(2)), nanAB(15, nan);
  auto gemm = [](const int* mm, const int* nn, const int* kk, T alpha, const T* a, const T* b, T beta, T* c) {
    const int lda = 5, ldb = 3, ldc = 5;
    if constexpr (std::is_same_v<T, float>)
      sgemm_("N", "N", mm, nn, kk, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
    else
      dgemm_("N", "N", mm, nn, kk, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  };
  std::vector<T> C(20, nan);
  gemm(&m, &n, &k, T(1), A.data(), B.data(), T(0), C.data());  // beta == 0 never reads C
  for (T x : C) ASSERT_EQ(x, T(3));
  gemm(&m, &n, &k, T(0), nanAB.data(), nanAB.data(), T(2), C.data());  // alpha == 0 never reads A, B
  for (T x : C) ASSERT_EQ(x, T(6));
  gemm(&m, &n, &zero_dim, T(1), nanAB.data(), nanAB.data(), T(0.5), C.data());  // k == 0: C = beta C
  for (T x : C) ASSERT_EQ(x, T(3));
  gemm(&m, &n, &k, T(0), nanAB.data(), nanAB.data(), T(0), C.data());  // exact zeros
  for (T x : C) ASSERT_EQ(x, T(0));
  std::vector<T> untouched(20, nan);
  gemm(&zero_dim, &n, &k, T(1), A.data(), B.data(), T(0), untouched.data());  // m == 0: no-op
  gemm(&m, &n, &k, T(0), nanAB.data(), nanAB.data(), T(1), untouched.data());  // alpha == 0, beta == 1: no-op
  for (T x : untouched) ASSERT_TRUE(std::isnan(x));
}

template <class T>
void expect_netlib_syrk_corners() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const int n = 4, k = 3, ld = 4;
  const std::vector<T> A(12, T(0.5)), nanA(12, nan);
  auto syrk = [&](T alpha, const T* a, T beta, T* c) {
    if constexpr (std::is_same_v<T, float>)
      ssyrk_("U", "N", &n, &k, &alpha, a, &ld, &beta, c, &ld, 1, 1);
    else
      dsyrk_("U", "N", &n, &k, &alpha, a, &ld, &beta, c, &ld, 1, 1);
  };
  std::vector<T> C(16, nan);
  syrk(T(1), A.data(), T(0), C.data());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const T x = C[static_cast<std::size_t>(i + j * n)];
      if (i <= j)
        ASSERT_EQ(x, T(0.75));
      else
        ASSERT_TRUE(std::isnan(x)) << "lower triangle written";
    }
  syrk(T(0), nanA.data(), T(4), C.data());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) ASSERT_EQ(C[static_cast<std::size_t>(i + j * n)], T(3));
}

TEST(TrnblasBlasAbi, NetlibCornerCases) {
  DefaultEnv env;
  expect_netlib_gemm_corners<float>();
  expect_netlib_gemm_corners<double>();
  expect_netlib_syrk_corners<float>();
  expect_netlib_syrk_corners<double>();
}

// SDSDOT / DSDOT (Fortran and CBLAS) against a long-double loop and OpenBLAS's cblas_sdsdot /
// cblas_dsdot. The reference BLAS sums in fp64, so |dsdot - exact| <= gamma_n(u64) sum |x y| (ours:
// the Ozaki DGEMM of the widened floats) and sdsdot is that value plus sb rounded once to float:
// |sdsdot - exact| <= u32 |exact| + gamma_{n+1}(u64) (|sb| + sum |x y|). OpenBLAS's cblas_dsdot on
// the development VM (Cooperlake kernels) is off by 6.7e-7 at n = 1000 (|exact| ~ 10: an fp32-level
// error, not the ~1e-14 of an fp64 sum), so against it we ask only to be no less accurate.
// Strided and negative increments (the reference walks a negative one backwards), incx = 0 (x(1)
// repeated) and n <= 0 (sb, 0) as the reference BLAS.
extern "C" float sdsdot_(const int* n, const float* sb, const float* x, const int* incx, const float* y, const int* incy);
extern "C" double dsdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy);

TEST(TrnblasBlasAbi, SdsdotAndDsdotMatchOpenBlasAndAreFp64Sums) {
  DefaultEnv env;
  void* lib = dlopen(TRNBLAS_TEST_OPENBLAS, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) GTEST_SKIP() << "cannot dlopen OpenBLAS";
  const auto ref_sdsdot = reinterpret_cast<decltype(&cblas_sdsdot)>(dlsym(lib, "cblas_sdsdot"));
  const auto ref_dsdot = reinterpret_cast<decltype(&cblas_dsdot)>(dlsym(lib, "cblas_dsdot"));
  ASSERT_TRUE(ref_sdsdot != nullptr && ref_dsdot != nullptr);
  const int n = 1000;
  const std::vector<float> x = blastest::uniform_f(3 * n, 501), y = blastest::uniform_f(3 * n, 502);
  const float sb = 0.3f;
  for (const auto& [incx, incy] : {std::pair{1, 1}, std::pair{2, -3}, std::pair{0, 1}, std::pair{-1, 2}}) {
    const auto elem = [](const std::vector<float>& v, int inc, int i) {  // n: a constant, not captured
      return v[static_cast<std::size_t>(inc >= 0 ? i * inc : (n - 1 - i) * -inc)];
    };
    long double exact = 0, mag = 0;
    for (int i = 0; i < n; ++i) {
      exact += static_cast<long double>(elem(x, incx, i)) * elem(y, incy, i);
      mag += std::fabs(static_cast<long double>(elem(x, incx, i)) * elem(y, incy, i));
    }
    const double g = n * 0x1p-53 / (1 - n * 0x1p-53);
    const double ours = cblas_dsdot(n, x.data(), incx, y.data(), incy), ref = ref_dsdot(n, x.data(), incx, y.data(), incy);
    EXPECT_LE(std::fabs(ours - exact), g * mag) << incx << "," << incy;
    EXPECT_LE(std::fabs(ours - exact), std::fabs(ref - exact) + 0x1p-53 * std::fabs(exact)) << "OpenBLAS " << ref;
    EXPECT_EQ(dsdot_(&n, x.data(), &incx, y.data(), &incy), ours);
    const float s_ours = cblas_sdsdot(n, sb, x.data(), incx, y.data(), incy);
    const float s_ref = ref_sdsdot(n, sb, x.data(), incx, y.data(), incy);
    const long double s_exact = exact + sb;
    EXPECT_LE(std::fabs(s_ours - s_exact), 0x1p-24 * std::fabs(s_exact) + (n + 1) * 0x1p-53 * (mag + sb) * 1.01)
        << incx << "," << incy;
    EXPECT_LE(std::fabs(s_ours - s_exact), std::fabs(s_ref - s_exact) + 0x1p-24 * std::fabs(s_exact)) << "OpenBLAS " << s_ref;
    EXPECT_EQ(sdsdot_(&n, &sb, x.data(), &incx, y.data(), &incy), s_ours);
  }
  const int zero = 0, minus = -2, one = 1;
  EXPECT_EQ(sdsdot_(&zero, &sb, x.data(), &one, y.data(), &one), sb);
  EXPECT_EQ(sdsdot_(&minus, &sb, x.data(), &one, y.data(), &one), sb);
  EXPECT_EQ(dsdot_(&zero, x.data(), &one, y.data(), &one), 0.0);
  EXPECT_EQ(cblas_sdsdot(0, sb, x.data(), 1, y.data(), 1), sb);
  dlclose(lib);
}

// ---- trace --------------------------------------------------------------------------------------

// Level 3 beyond GEMM/SYRK through the shim at orders beyond one 128 block (the blocked paths).
// Bounds: two implementations of the same product each within gamma_{K} of the exact value,
// K the longest rounding path (SYMM m + 2, SYR2K 2k + 2, TRMM m + 1), as gemm_bound; TRSM by its
// residual in double, |alpha B - op(A) X| <= gamma_{m+3} (|alpha B| + |op(A)| |X|) (docs/trnblas.md).
TEST(TrnblasBlasAbi, Level3EntryPointsMatchOpenBlasBeyondOneBlock) {
  REQUIRE_OPENBLAS();
  DefaultEnv env;
  void* lib = dlopen(TRNBLAS_TEST_OPENBLAS, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr);
  const auto ref_symm = reinterpret_cast<decltype(&cblas_ssymm)>(dlsym(lib, "cblas_ssymm"));
  const auto ref_syr2k = reinterpret_cast<decltype(&cblas_ssyr2k)>(dlsym(lib, "cblas_ssyr2k"));
  const auto ref_trmm = reinterpret_cast<decltype(&cblas_strmm)>(dlsym(lib, "cblas_strmm"));
  ASSERT_TRUE(ref_symm && ref_syr2k && ref_trmm);
  const double u = 0x1p-24;
  const int m = 150, n = 20;
  const float alpha = 0.5f, beta = -1.5f;
  auto A = padded<float>(m, m, m, 11);
  const auto B = padded<float>(m, n, m, 12), C0 = padded<float>(m, n, m, 13);
  for (int i = 0; i < m; ++i) A[static_cast<std::size_t>(i + i * m)] = 4.0f + float(i % 3);  // nonsingular diagonal
  // SSYMM (left, upper): C = alpha A B + beta C.
  auto C = C0, R = C0;
  ssymm_("L", "U", &m, &n, &alpha, A.data(), &m, B.data(), &m, &beta, C.data(), &m, 1, 1);
  ref_symm(CblasColMajor, CblasLeft, CblasUpper, m, n, alpha, A.data(), m, B.data(), m, beta, R.data(), m);
  auto sym = [&](int i, int l) { return double(i <= l ? A[i + l * m] : A[l + i * m]); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double mag = 0;
      for (int l = 0; l < m; ++l) mag += std::fabs(sym(i, l) * B[l + j * m]);
      ASSERT_LE(std::fabs(double(C[i + j * m]) - R[i + j * m]),
                2 * (m + 2) * u * (std::fabs(alpha) * mag + std::fabs(beta * C0[i + j * m])))
          << "ssymm " << i << "," << j;
    }
  // SSYR2K (lower, N, n = 150, k = 20): C = alpha (A B^T + B A^T) + beta C, lower triangle only.
  const int nn = m, k = n;
  const auto Cs0 = padded<float>(nn, nn, nn, 14);
  auto Cs = Cs0, Rs = Cs0;
  ssyr2k_("L", "N", &nn, &k, &alpha, B.data(), &nn, C0.data(), &nn, &beta, Cs.data(), &nn, 1, 1);
  ref_syr2k(CblasColMajor, CblasLower, CblasNoTrans, nn, k, alpha, B.data(), nn, C0.data(), nn, beta, Rs.data(), nn);
  for (int j = 0; j < nn; ++j)
    for (int i = 0; i < nn; ++i) {
      const std::size_t x = static_cast<std::size_t>(i + j * nn);
      if (i < j) {
        ASSERT_EQ(Cs[x], Cs0[x]) << "upper triangle touched " << i << "," << j;
        continue;
      }
      double mag = 0;
      for (int l = 0; l < k; ++l)
        mag += std::fabs(double(B[i + l * nn]) * C0[j + l * nn]) + std::fabs(double(C0[i + l * nn]) * B[j + l * nn]);
      ASSERT_LE(std::fabs(double(Cs[x]) - Rs[x]), 2 * (2 * k + 2) * u * (std::fabs(alpha) * mag + std::fabs(beta * Cs0[x])))
          << "ssyr2k " << i << "," << j;
    }
  // STRMM (left, lower, N, non-unit), reference BLAS's in-place form B := alpha A B.
  auto Bt = B, Rt = B;
  strmm_("L", "L", "N", "N", &m, &n, &alpha, A.data(), &m, Bt.data(), &m, 1, 1, 1, 1);
  ref_trmm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n, alpha, A.data(), m, Rt.data(), m);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double mag = 0;
      for (int l = 0; l <= i; ++l) mag += std::fabs(double(A[i + l * m]) * B[l + j * m]);
      ASSERT_LE(std::fabs(double(Bt[i + j * m]) - Rt[i + j * m]), 2 * (m + 1) * u * std::fabs(alpha) * mag)
          << "strmm " << i << "," << j;
    }
  // STRSM (left, upper, T, non-unit): op(A) X = alpha B; residual in double.
  auto X = B;
  strsm_("L", "U", "T", "N", &m, &n, &alpha, A.data(), &m, X.data(), &m, 1, 1, 1, 1);
  const double g = (m + 3) * u / (1 - (m + 3) * u);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double r = double(alpha) * B[i + j * m], mag = std::fabs(r);
      for (int l = 0; l <= i; ++l) {  // op(A)(i, l) = A(l, i), upper A: l <= i
        r -= double(A[l + i * m]) * X[l + j * m];
        mag += std::fabs(double(A[l + i * m]) * X[l + j * m]);
      }
      ASSERT_LE(std::fabs(r), g * mag) << "strsm residual " << i << "," << j;
    }
  // cblas_strsm row-major is the column-major problem on the transposed memory: the same bits as
  // strsm_ with side and uplo swapped and m, n exchanged (reference CBLAS's mapping).
  auto Xr = B, Xc = B;  // row-major n x m (ld m) = column-major m x n
  cblas_strsm(CblasRowMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, n, m, alpha, A.data(), m, Xr.data(), m);
  strsm_("L", "U", "N", "U", &m, &n, &alpha, A.data(), &m, Xc.data(), &m, 1, 1, 1, 1);
  EXPECT_EQ(0, std::memcmp(Xr.data(), Xc.data(), Xr.size() * sizeof(float)));
  dlclose(lib);
}

TEST(TrnblasBlasAbi, TraceRecordsEveryCallAndItsOutcome) {
  DefaultEnv env;
  const std::string path = testing::TempDir() + "trnblas_blas_trace.txt";
  std::remove(path.c_str());
  const int m = 8, n = 8, k = 8, bad = 1;
  std::vector<float> A(64, 1.0f), C(64, 0.0f);
  std::vector<double> Ad(64, 1.0), Cd(64, 0.0);
  const float one = 1.0f;
  {
    ScopedEnv trace("TRNBLAS_BLAS_TRACE", path.c_str());
    sgemm_("N", "T", &m, &n, &k, &one, A.data(), &m, A.data(), &n, &one, C.data(), &m, 1, 1);
    sgemm_("N", "N", &m, &n, &k, &one, A.data(), &bad, A.data(), &k, &one, C.data(), &m, 1, 1);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, Ad.data(), k, Ad.data(), n, 0.0, Cd.data(), n);
  }
  sgemm_("N", "N", &m, &n, &k, &one, A.data(), &m, A.data(), &k, &one, C.data(), &m, 1, 1);  // not traced
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("trnblas_blas sgemm_ transa=N transb=T m=8 n=8 k=8 lda=8 ldb=8 ldc=8 -> compute=fp32 "
                           "target=trn1 numerics=ideal tensor_passes=1 instructions=",
                           0),
            0u)
      << lines[0];
  EXPECT_EQ(lines[1], "trnblas_blas sgemm_ transa=N transb=N m=8 n=8 k=8 lda=1 ldb=8 ldc=8 -> xerbla(8)");
  EXPECT_EQ(lines[2].rfind("trnblas_blas cblas_dgemm layout=row transa=N transb=N m=8 n=8 k=8 lda=8 ldb=8 ldc=8 -> "
                           "compute=fp64_ozaki target=trn1 numerics=ideal tensor_passes=", 0),
            0u)
      << lines[2];
  std::remove(path.c_str());
}

// TRNBLAS_BLAS_COUNT: calls counted per entry point (errors included, none while unset) and written
// at exit. The calls run in a forked child (single-program launches only: no worker pool there) so
// that the child's exit writes the file.
TEST(TrnblasBlasAbi, CountTotalsEveryCallPerEntryPointAtExit) {
  DefaultEnv env;
  const std::string path = testing::TempDir() + "trnblas_blas_counts.txt";
  std::remove(path.c_str());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int m = 8, n = 8, k = 8, bad = 1;
    std::vector<float> A(64, 1.0f), C(64, 0.0f);
    const float one = 1.0f;
    sgemm_("N", "N", &m, &n, &k, &one, A.data(), &m, A.data(), &k, &one, C.data(), &m, 1, 1);  // not counted
    setenv("TRNBLAS_BLAS_COUNT", path.c_str(), 1);
    for (int i = 0; i < 2; ++i) sgemm_("N", "T", &m, &n, &k, &one, A.data(), &m, A.data(), &n, &one, C.data(), &m, 1, 1);
    sgemm_("N", "N", &m, &n, &k, &one, A.data(), &bad, A.data(), &k, &one, C.data(), &m, 1, 1);  // xerbla(8): counted
    cblas_saxpy(n, one, A.data(), 1, C.data(), 1);
    cblas_sscal(n, 2.0f, C.data(), 1);
    std::exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "3 sgemm_");
  EXPECT_TRUE((lines[1] == "1 cblas_saxpy" && lines[2] == "1 cblas_sscal") ||
                  (lines[1] == "1 cblas_sscal" && lines[2] == "1 cblas_saxpy"))
      << lines[1] << " / " << lines[2];
  EXPECT_EQ(lines[3], "5 total");
  std::remove(path.c_str());
}

// TRNBLAS_BLAS_PROFILE: calls and CPU time per entry point, written at exit (most CPU first, then
// the total); nothing while unset. Forked child as for TRNBLAS_BLAS_COUNT.
TEST(TrnblasBlasAbi, ProfileWritesCallsAndCpuTimePerEntryPointAtExit) {
  DefaultEnv env;
  const std::string path = testing::TempDir() + "trnblas_blas_profile.txt";
  std::remove(path.c_str());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int m = 8, n = 8, k = 8;
    std::vector<float> A(64, 1.0f), C(64, 0.0f);
    const float one = 1.0f;
    sgemm_("N", "N", &m, &n, &k, &one, A.data(), &m, A.data(), &k, &one, C.data(), &m, 1, 1);  // not profiled
    setenv("TRNBLAS_BLAS_PROFILE", path.c_str(), 1);
    for (int i = 0; i < 3; ++i) sgemm_("N", "T", &m, &n, &k, &one, A.data(), &m, A.data(), &n, &one, C.data(), &m, 1, 1);
    cblas_sscal(n, 2.0f, C.data(), 1);
    std::exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u);
  long long calls_sum = 0;
  double cpu_sum = 0.0;
  bool saw_sgemm = false, saw_sscal = false;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    std::istringstream row(lines[i]);
    long long calls = 0;
    double cpu = -1.0, per_call = -1.0, share = -1.0;
    std::string symbol;
    row >> calls >> cpu >> per_call >> share >> symbol;
    ASSERT_FALSE(row.fail()) << lines[i];
    EXPECT_GE(cpu, 0.0);
    EXPECT_GE(share, 0.0);
    EXPECT_LE(share, 100.0);
    if (symbol == "sgemm_") {
      saw_sgemm = true;
      EXPECT_EQ(calls, 3);
    }
    if (symbol == "cblas_sscal") {
      saw_sscal = true;
      EXPECT_EQ(calls, 1);
    }
    calls_sum += calls;
    cpu_sum += cpu;
  }
  EXPECT_TRUE(saw_sgemm && saw_sscal) << lines[0] << " / " << lines[1];
  std::istringstream total(lines.back());
  long long calls = 0;
  double cpu = -1.0, per_call = -1.0, share = -1.0;
  std::string word;
  total >> calls >> cpu >> per_call >> share >> word;
  EXPECT_EQ(word, "total");
  EXPECT_EQ(calls, calls_sum);
  EXPECT_EQ(calls, 4);
  EXPECT_NEAR(cpu, cpu_sum, 1e-5);  // each printed to the microsecond
  EXPECT_GT(cpu, 0.0);
  std::remove(path.c_str());
}

}  // namespace
