// Golden regression harness: the bits and the modeled times of a broad set of routines of all six
// libraries, on small seeded inputs, one line per case:
//   <library> <case> out=<FNV-1a 64 of every output byte and status/info value> ns=<total_ns, %a>
//   instr=<instructions> busy=<busy_ns per engine (tensor,vector,scalar,gpsimd,dma), %a>
// A refactor that must not change results or the instruction sequence must reproduce
// tests/golden/expected.txt exactly (ctest golden_bits_and_times, and golden_bits_and_times_1thread
// with TRN_NUM_THREADS=1: results must not depend on the host thread count).
//
// Usage: golden_bits_and_times                 print the lines
//        golden_bits_and_times --check FILE    compare with FILE, list the differing cases, exit 1
//        golden_bits_and_times --write FILE    regenerate FILE (justify it in the commit message)
// See tests/golden/README.md.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/modes.hpp"
#include "trn/core/dtype.hpp"
#include "trn/sparse/sparse.hpp"
#include "trn/tensor/tensor.hpp"
#include "trnblas.h"
#include "trnfft.h"
#include "trnrand.h"
#include "trnsolver.h"

namespace {

// ---- deterministic inputs (splitmix64, Steele, Lea & Flood, OOPSLA 2014) --------------------------
struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  float f() { return static_cast<float>(next() >> 40) * 0x1p-23f - 1.0f; }  // U[-1, 1), 24 bits
  double d() { return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0; }  // U[-1, 1), 53 bits
};
std::vector<float> rf(std::size_t n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<float> v(n);
  for (float& x : v) x = r.f();
  return v;
}
std::vector<double> rd(std::size_t n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<double> v(n);
  for (double& x : v) x = r.d();
  return v;
}
template <class C> std::vector<C> rc(std::size_t n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<C> v(n);
  for (C& x : v) {
    if constexpr (sizeof(C) == 8) x = {r.f(), r.f()};
    else x = {r.d(), r.d()};
  }
  return v;
}
// Symmetric positive definite n x n (column-major): B B^T / n + I, in double.
std::vector<double> spd(int n, std::uint64_t seed) {
  const std::vector<double> b = rd(static_cast<std::size_t>(n) * n, seed);
  std::vector<double> a(b.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += b[i + k * static_cast<std::size_t>(n)] * b[j + k * static_cast<std::size_t>(n)];
      a[i + j * static_cast<std::size_t>(n)] = s / n + (i == j ? 1.0 : 0.0);
    }
  return a;
}
std::vector<float> to_f(const std::vector<double>& v) { return {v.begin(), v.end()}; }
// A well-conditioned triangle: diagonal 2 + |u|, off-diagonal u / n (both triangles filled: the
// routines must read only theirs).
template <class T> std::vector<T> triangular(int n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<T> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[i + j * static_cast<std::size_t>(n)] = static_cast<T>(i == j ? 2.0 + std::fabs(r.d()) : r.d() / n);
  return a;
}

// ---- hash and output lines ------------------------------------------------------------------------
struct Hash {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64 (Fowler, Noll, Vo)
  Hash& bytes(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001b3ULL;
    return *this;
  }
  template <class T> Hash& val(const T& v) { return bytes(&v, sizeof v); }
  template <class T> Hash& vec(const std::vector<T>& v) { return bytes(v.data(), v.size() * sizeof(T)); }
};

struct Cost {
  double total_ns = 0;
  std::array<double, TRN_ENGINE_COUNT> busy{};
  long long instr = 0;
};
Cost cost(const trnProfile_t& p) {
  Cost c;
  c.total_ns = p.total_ns;
  for (int e = 0; e < TRN_ENGINE_COUNT; ++e) c.busy[static_cast<std::size_t>(e)] = p.busy_ns[e];
  c.instr = p.instructions;
  return c;
}
Cost cost(const trn::Profile& p) {
  Cost c;
  c.total_ns = p.total_ns;
  for (std::size_t e = 0; e < c.busy.size(); ++e) c.busy[e] = p.busy_ns[e];
  c.instr = p.total_instructions;
  return c;
}

std::vector<std::string> g_lines;
void emit(const char* lib, const std::string& name, const Hash& h, const Cost& c) {
  char buf[512];
  int len = std::snprintf(buf, sizeof buf, "%s %s out=%016llx ns=%a instr=%lld busy=", lib, name.c_str(),
                          static_cast<unsigned long long>(h.h), c.total_ns, c.instr);
  for (std::size_t e = 0; e < c.busy.size(); ++e)
    len += std::snprintf(buf + len, sizeof buf - static_cast<std::size_t>(len), "%s%a", e ? "," : "", c.busy[e]);
  g_lines.emplace_back(buf);
}

// ---- trnblas (C API; one handle per case, so no case sees another's last profile) -----------------
// A C-API handle (one per case) that emits a case line with its last call's profile.
template <class H, auto Create, auto SetTarget, auto SetCores, auto Destroy, auto LastProfile> struct CHandle {
  H h = nullptr;
  const char* lib;
  CHandle(const char* l, trnTarget_t target, int cores) : lib(l) {
    Create(&h);
    SetTarget(h, target);
    SetCores(h, cores);
  }
  ~CHandle() { Destroy(h); }
  CHandle(const CHandle&) = delete;
  CHandle& operator=(const CHandle&) = delete;
  void emit(const std::string& name, Hash& out, int status) const {
    trnProfile_t p{};
    LastProfile(h, &p);
    out.val(status);
    ::emit(lib, name, out, cost(p));
  }
};
struct Blas : CHandle<trnblasHandle_t, trnblasCreate, trnblasSetTarget, trnblasSetNumCores, trnblasDestroy,
                      trnblasGetLastProfile> {
  explicit Blas(trnTarget_t target = TRN_TARGET_TRN1, int cores = 1) : CHandle("trnblas", target, cores) {}
};
constexpr auto N = TRNBLAS_OP_N, T = TRNBLAS_OP_T;

void sgemm_case(const std::string& name, trnTarget_t target, int cores, int m, int n, int k, trnblasOperation_t ta,
                trnblasOperation_t tb) {
  Blas b(target, cores);
  const int lda = ta == N ? m : k, ldb = tb == N ? k : n;
  const auto A = rf(static_cast<std::size_t>(lda) * (ta == N ? k : m), 11), B = rf(static_cast<std::size_t>(ldb) * (tb == N ? n : k), 12);
  auto C = rf(static_cast<std::size_t>(m) * n, 13);
  const float alpha = 0.7f, beta = -0.3f;
  const int st = trnblasSgemm(b.h, ta, tb, m, n, k, &alpha, A.data(), lda, B.data(), ldb, &beta, C.data(), m);
  Hash o;
  b.emit(name, o.vec(C), st);
}

// C = alpha A op(B) + beta C, A m x k, op(B) k x n (Cgemm, Zgemm).
template <class C, class F>
void complex_gemm(const char* name, F gemm, trnblasOperation_t tb, int m, int n, int k, C al, C be, std::uint64_t seed) {
  Blas b;
  const int ldb = tb == N ? k : n;
  const auto A = rc<C>(static_cast<std::size_t>(m) * k, seed), B = rc<C>(static_cast<std::size_t>(k) * n, seed + 1);
  auto Cm = rc<C>(static_cast<std::size_t>(m) * n, seed + 2);
  const int st = gemm(b.h, N, tb, m, n, k, &al, A.data(), m, B.data(), ldb, &be, Cm.data(), m);
  Hash o;
  b.emit(name, o.vec(Cm), st);
}

void blas_gemms() {
  sgemm_case("sgemm_NN_96x80x70", TRN_TARGET_TRN1, 1, 96, 80, 70, N, N);
  sgemm_case("sgemm_TN_130x64x150", TRN_TARGET_TRN1, 1, 130, 64, 150, T, N);
  sgemm_case("sgemm_NT_2core_260x200x140", TRN_TARGET_TRN1, 2, 260, 200, 140, N, T);
  sgemm_case("sgemm_NN_trn2_200x96x130", TRN_TARGET_TRN2, 1, 200, 96, 130, N, N);
  sgemm_case("sgemm_NN_trn2_2core_256x256x128", TRN_TARGET_TRN2, 2, 256, 256, 128, N, N);
  const int m = 72, n = 66, k = 90;
  const auto A = rf(static_cast<std::size_t>(m) * k, 21), B = rf(static_cast<std::size_t>(k) * n, 22);
  const float alpha = 1.25f, beta = 0.0f;
  for (const trn::blas::ModeTraits& mt : trn::blas::mode_table()) {  // every precision mode of GemmEx
    if (mt.compute_type < 0) continue;
    Blas b;
    const auto ct = static_cast<trnblasComputeType_t>(mt.compute_type);
    Hash o;
    int st = 0;
    if (mt.mode == trn::blas::GemmMode::fp64_ozaki) {  // 64F compute types take 64F A, B and C
      const std::vector<double> dA(A.begin(), A.end()), dB(B.begin(), B.end());
      std::vector<double> C(static_cast<std::size_t>(m) * n, 0.0);
      const double da = alpha, db = beta;
      st = trnblasGemmEx(b.h, N, N, m, n, k, &da, dA.data(), TRN_R_64F, m, dB.data(), TRN_R_64F, k, &db, C.data(), TRN_R_64F,
                         m, ct, TRNBLAS_GEMM_DEFAULT);
      o.vec(C);
    } else {
      std::vector<float> C(static_cast<std::size_t>(m) * n, 0.0f);
      st = trnblasGemmEx(b.h, N, N, m, n, k, &alpha, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F, k, &beta, C.data(),
                         TRN_R_32F, m, ct, TRNBLAS_GEMM_DEFAULT);
      o.vec(C);
    }
    b.emit(std::string("gemmex_") + mt.name, o, st);
  }
  for (bool sr : {false, true}) {  // bf16 storage, fp32 compute; trn1-measured numerics, stochastic rounding
    Blas b;
    if (sr) {
      trnblasSetNumericsProfile(b.h, TRN_NUMERICS_TRN1_MEASURED);
      trnblasSetStochasticRounding(b.h, 1, 1234);
    }
    std::vector<std::uint16_t> Ah(A.size()), Bh(B.size()), Ch(static_cast<std::size_t>(m) * n);
    std::transform(A.begin(), A.end(), Ah.begin(), trn::f32_to_bf16_rne);
    std::transform(B.begin(), B.end(), Bh.begin(), trn::f32_to_bf16_rne);
    const int st = trnblasGemmEx(b.h, T, N, m, n, k, &alpha, Ah.data(), TRN_R_16BF, k, Bh.data(), TRN_R_16BF, k, &beta,
                                 Ch.data(), TRN_R_16BF, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
    Hash o;
    b.emit(sr ? "gemmex_bf16io_trn1measured_sr" : "gemmex_bf16io_32F", o.vec(Ch), st);
  }
  for (int scheme : {0, 1}) {  // Dgemm: Ozaki-II (default) and Ozaki-I
    Blas b;
    trnblasSetFixedPointEmulationScheme(b.h, static_cast<trnblasEmulationScheme_t>(scheme));
    const int dm = 48, dn = 40, dk = 56;
    const auto dA = rd(static_cast<std::size_t>(dm) * dk, 31), dB = rd(static_cast<std::size_t>(dk) * dn, 32);
    auto dC = rd(static_cast<std::size_t>(dm) * dn, 33);
    const double al = 0.7, be = 0.5;
    const int st = trnblasDgemm(b.h, N, T, dm, dn, dk, &al, dA.data(), dm, dB.data(), dn, &be, dC.data(), dm);
    Hash o;
    b.emit(scheme ? "dgemm_ozaki1_48x40x56" : "dgemm_ozaki2_48x40x56", o.vec(dC), st);
  }
  complex_gemm<trnComplex>("cgemm_NC_40x36x30", trnblasCgemm, TRNBLAS_OP_C, 40, 36, 30, {0.7f, -0.45f}, {0.25f, 0.5f}, 41);
  complex_gemm<trnDoubleComplex>("zgemm_NN_24x20x28", trnblasZgemm, N, 24, 20, 28, {0.7, -0.45}, {0.0, 0.0}, 51);
  {
    Blas b;
    const int n = 100, k = 60;
    const auto A2 = rf(static_cast<std::size_t>(n) * k, 61);
    auto C = rf(static_cast<std::size_t>(n) * n, 62);
    const float al = 0.9f, be = 0.5f;
    const int st = trnblasSsyrk(b.h, TRNBLAS_FILL_MODE_LOWER, N, n, k, &al, A2.data(), n, &be, C.data(), n);
    Hash o;
    b.emit("ssyrk_LN_100x60", o.vec(C), st);
  }
}

template <class R> std::vector<R> rnd(std::size_t len, std::uint64_t seed) {
  if constexpr (std::is_same_v<R, float>) return rf(len, seed);
  else return rd(len, seed);
}

// op(A) X = alpha B (left) or X op(A) = alpha B (right), B m x n, A a well-conditioned triangle.
template <class R, class F>
void trsm_case(const char* name, F trsm, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t op,
               trnblasDiagType_t diag, int m, int n, double alpha, std::uint64_t seed) {
  Blas b;
  const int na = side == TRNBLAS_SIDE_LEFT ? m : n;
  const auto A = triangular<R>(na, seed);
  auto B = rnd<R>(static_cast<std::size_t>(m) * n, seed + 1);
  const R al = static_cast<R>(alpha);
  const int st = trsm(b.h, side, uplo, op, diag, m, n, &al, A.data(), na, B.data(), m);
  Hash o;
  b.emit(name, o.vec(B), st);
}

// y = 0.8 op(A) x + 0.6 y, A m x n (Sgemv, Dgemv); x holds max(m, n) values, y m (the hash covers all m).
template <class R, class F> void gemv_case(const char* name, F gemv, trnblasOperation_t op, int m, int n, std::uint64_t seed) {
  Blas b;
  const auto A = rnd<R>(static_cast<std::size_t>(m) * n, seed), x = rnd<R>(static_cast<std::size_t>(std::max(m, n)), seed + 1);
  auto y = rnd<R>(static_cast<std::size_t>(m), seed + 2);
  const R al = R(0.8), be = R(0.6);
  const int st = gemv(b.h, op, m, n, &al, A.data(), m, x.data(), 1, &be, y.data(), 1);
  Hash o;
  b.emit(name, o.vec(y), st);
}

void blas_trsm_and_level12() {
  // Strsm: <= 128 right-hand sides by substitution, more by the inverted diagonal blocks.
  trsm_case<float>("strsm_LLNN_150x40", trnblasStrsm, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, N, TRNBLAS_DIAG_NON_UNIT,
                   150, 40, 0.75, 71);
  trsm_case<float>("strsm_LLNN_150x160", trnblasStrsm, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, N,
                   TRNBLAS_DIAG_NON_UNIT, 150, 160, 0.75, 71);
  trsm_case<float>("strsm_RUTU_30x64", trnblasStrsm, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, T, TRNBLAS_DIAG_UNIT, 30,
                   64, 1.0, 73);
  trsm_case<double>("dtrsm_LUNN_64x20", trnblasDtrsm, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, N, TRNBLAS_DIAG_NON_UNIT,
                    64, 20, 0.5, 75);
  gemv_case<float>("sgemv_N_200x150", trnblasSgemv, N, 200, 150, 81);
  gemv_case<float>("sgemv_T_200x150", trnblasSgemv, T, 200, 150, 81);
  gemv_case<double>("dgemv_N_100x90", trnblasDgemv, N, 100, 90, 84);
  const int len = 1000;
  const auto x = rf(len, 91), y0 = rf(len, 92);
  const auto dx = rd(len, 93), dy = rd(len, 94);
  {
    Blas b;
    float r = 0;
    const int st = trnblasSdot(b.h, len, x.data(), 1, y0.data(), 1, &r);
    Hash o;
    b.emit("sdot_1000", o.val(r), st);
  }
  {
    Blas b;
    double r = 0;
    const int st = trnblasDdot(b.h, len, dx.data(), 1, dy.data(), 1, &r);
    Hash o;
    b.emit("ddot_1000", o.val(r), st);
  }
  {
    Blas b;
    auto y = y0;
    const float al = -1.5f;
    const int st = trnblasSaxpy(b.h, len, &al, x.data(), 1, y.data(), 1);
    Hash o;
    b.emit("saxpy_1000", o.vec(y), st);
  }
  {
    Blas b;
    float r = 0;
    const int st = trnblasSnrm2(b.h, len, x.data(), 1, &r);
    Hash o;
    b.emit("snrm2_1000", o.val(r), st);
  }
  {
    Blas b;
    int r = 0;
    const int st = trnblasIsamax(b.h, len / 2, x.data(), 2, &r);
    Hash o;
    b.emit("isamax_500_inc2", o.val(r), st);
  }
  {
    Blas b;
    const int m = 70, n = 50;
    const auto A = rf(static_cast<std::size_t>(n) * m, 95), B = rf(static_cast<std::size_t>(m) * n, 96);
    std::vector<float> C(static_cast<std::size_t>(m) * n);
    const float al = 0.3f, be = -1.1f;
    const int st = trnblasSgeam(b.h, T, N, m, n, &al, A.data(), n, &be, B.data(), m, C.data(), m);
    Hash o;
    b.emit("sgeam_TN_70x50", o.vec(C), st);
  }
  {
    Blas b;
    const int m = 70, n = 50;
    const auto A = rf(static_cast<std::size_t>(m) * n, 97), d = rf(static_cast<std::size_t>(n), 98);
    std::vector<float> C(static_cast<std::size_t>(m) * n);
    const int st = trnblasSdgmm(b.h, TRNBLAS_SIDE_RIGHT, m, n, A.data(), m, d.data(), 1, C.data(), m);
    Hash o;
    b.emit("sdgmm_R_70x50", o.vec(C), st);
  }
  {
    Blas b;
    const int n = 100;
    const auto A = triangular<float>(n, 99);
    auto xv = rf(static_cast<std::size_t>(n), 100);
    const int st = trnblasStrsv(b.h, TRNBLAS_FILL_MODE_UPPER, T, TRNBLAS_DIAG_NON_UNIT, n, A.data(), n, xv.data(), 1);
    Hash o;
    b.emit("strsv_UTN_100", o.vec(xv), st);
  }
}

void blas_batched_lu() {
  const int n = 16, batch = 4, sz = n * n;
  std::vector<float> A = rf(static_cast<std::size_t>(sz) * batch, 111);
  std::vector<int> piv(static_cast<std::size_t>(n) * batch), info(batch);
  std::vector<float*> Ap(batch);
  for (int i = 0; i < batch; ++i) Ap[static_cast<std::size_t>(i)] = A.data() + static_cast<std::ptrdiff_t>(i) * sz;
  {
    Blas b;
    const int st = trnblasSgetrfBatched(b.h, n, Ap.data(), n, piv.data(), info.data(), batch);
    Hash o;
    b.emit("sgetrfBatched_16x4", o.vec(A).vec(piv).vec(info), st);
  }
  {
    Blas b;
    std::vector<float> C(A.size());
    std::vector<const float*> Ac(Ap.begin(), Ap.end());
    std::vector<float*> Cp(batch);
    for (int i = 0; i < batch; ++i) Cp[static_cast<std::size_t>(i)] = C.data() + static_cast<std::ptrdiff_t>(i) * sz;
    const int st = trnblasSgetriBatched(b.h, n, Ac.data(), n, piv.data(), Cp.data(), n, info.data(), batch);
    Hash o;
    b.emit("sgetriBatched_16x4", o.vec(C).vec(info), st);
  }
  {
    Blas b;
    const int mn = 12, mb = 3;
    const std::vector<float> M = rf(static_cast<std::size_t>(mn * mn) * mb, 112);
    std::vector<float> Inv(M.size());
    std::vector<const float*> Mp(mb);
    std::vector<float*> Ip(mb);
    for (int i = 0; i < mb; ++i) {
      Mp[static_cast<std::size_t>(i)] = M.data() + static_cast<std::ptrdiff_t>(i) * mn * mn;
      Ip[static_cast<std::size_t>(i)] = Inv.data() + static_cast<std::ptrdiff_t>(i) * mn * mn;
    }
    std::vector<int> inf(mb);
    const int st = trnblasSmatinvBatched(b.h, mn, Mp.data(), mn, Ip.data(), mn, inf.data(), mb);
    Hash o;
    b.emit("smatinvBatched_12x3", o.vec(Inv).vec(inf), st);
  }
}

// ---- trnsolver (C API) ----------------------------------------------------------------------------
struct Solver : CHandle<trnsolverDnHandle_t, trnsolverDnCreate, trnsolverDnSetTarget, trnsolverDnSetEmulatedCores,
                        trnsolverDnDestroy, trnsolverDnGetLastProfile> {
  explicit Solver(trnTarget_t target = TRN_TARGET_TRN1, int cores = 1) : CHandle("trnsolver", target, cores) {}
};
constexpr auto LOWER = TRNBLAS_FILL_MODE_LOWER, UPPER = TRNBLAS_FILL_MODE_UPPER;
constexpr auto VEC = TRNSOLVER_EIG_MODE_VECTOR;

void solver_factorizations() {
  {
    const int n = 100, nrhs = 5;
    auto A = to_f(spd(n, 201));
    int lw = 0, info = 0;
    Solver s;
    trnsolverDnSpotrf_bufferSize(s.h, LOWER, n, A.data(), n, &lw);
    std::vector<float> w(static_cast<std::size_t>(std::max(lw, 1)));
    int st = trnsolverDnSpotrf(s.h, LOWER, n, A.data(), n, w.data(), lw, &info);
    Hash o;
    s.emit("spotrf_L_100", o.vec(A).val(info), st);
    auto B = rf(static_cast<std::size_t>(n) * nrhs, 202);
    st = trnsolverDnSpotrs(s.h, LOWER, n, nrhs, A.data(), n, B.data(), n, &info);
    Hash o2;
    s.emit("spotrs_L_100x5", o2.vec(B).val(info), st);
  }
  {
    const int n = 80;
    auto A = spd(n, 203);
    int lw = 0, info = 0;
    Solver s;
    trnsolverDnDpotrf_bufferSize(s.h, UPPER, n, A.data(), n, &lw);
    std::vector<double> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnDpotrf(s.h, UPPER, n, A.data(), n, w.data(), lw, &info);
    Hash o;
    s.emit("dpotrf_U_80", o.vec(A).val(info), st);
  }
  {
    const int n = 90, nrhs = 4;
    auto A = rf(static_cast<std::size_t>(n) * n, 204);
    std::vector<int> piv(static_cast<std::size_t>(n));
    int lw = 0, info = 0;
    Solver s;
    trnsolverDnSgetrf_bufferSize(s.h, n, n, A.data(), n, &lw);
    std::vector<float> w(static_cast<std::size_t>(std::max(lw, 1)));
    int st = trnsolverDnSgetrf(s.h, n, n, A.data(), n, w.data(), piv.data(), &info);
    Hash o;
    s.emit("sgetrf_90", o.vec(A).vec(piv).val(info), st);
    auto B = rf(static_cast<std::size_t>(n) * nrhs, 205);
    st = trnsolverDnSgetrs(s.h, N, n, nrhs, A.data(), n, piv.data(), B.data(), n, &info);
    Hash o2;
    s.emit("sgetrs_N_90x4", o2.vec(B).val(info), st);
  }
  {
    const int n = 70;
    auto A = rd(static_cast<std::size_t>(n) * n, 206);
    std::vector<int> piv(static_cast<std::size_t>(n));
    int lw = 0, info = 0;
    Solver s(TRN_TARGET_TRN2);
    trnsolverDnDgetrf_bufferSize(s.h, n, n, A.data(), n, &lw);
    std::vector<double> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnDgetrf(s.h, n, n, A.data(), n, w.data(), piv.data(), &info);
    Hash o;
    s.emit("dgetrf_trn2_70", o.vec(A).vec(piv).val(info), st);
  }
  {
    const int n = 60, nrhs = 2;
    auto A = rd(static_cast<std::size_t>(n) * n, 207);
    for (int i = 0; i < n; ++i) A[static_cast<std::size_t>(i) * (n + 1)] += 4.0;
    auto B = rd(static_cast<std::size_t>(n) * nrhs, 208);
    std::vector<double> X(B.size());
    std::vector<int> piv(static_cast<std::size_t>(n));
    Solver s;
    std::size_t lwb = 0;
    trnsolverDnDSgesv_bufferSize(s.h, n, nrhs, A.data(), n, piv.data(), B.data(), n, X.data(), n, nullptr, &lwb);
    std::vector<unsigned char> ws(std::max<std::size_t>(lwb, 1));
    int iter = 0, info = 0;
    const int st = trnsolverDnDSgesv(s.h, n, nrhs, A.data(), n, piv.data(), B.data(), n, X.data(), n, ws.data(), lwb, &iter,
                                     &info);
    Hash o;
    s.emit("dsgesv_irs_60x2", o.vec(X).val(iter).val(info), st);
  }
}

void solver_eigen() {
  syevjInfo_t params = nullptr;
  trnsolverDnCreateSyevjInfo(&params);
  for (int n : {20, 144}) {  // 144: the block-Jacobi range
    auto A = to_f(spd(n, 300 + static_cast<std::uint64_t>(n)));
    std::vector<float> W(static_cast<std::size_t>(n));
    int lw = 0, info = 0, sweeps = 0;
    Solver s;
    trnsolverDnSsyevj_bufferSize(s.h, VEC, LOWER, n, A.data(), n, W.data(), &lw, params);
    std::vector<float> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnSsyevj(s.h, VEC, LOWER, n, A.data(), n, W.data(), w.data(), lw, &info, params);
    double res = 0;
    trnsolverDnXsyevjGetSweeps(s.h, params, &sweeps);
    trnsolverDnXsyevjGetResidual(s.h, params, &res);
    Hash o;
    s.emit("ssyevj_V_L_" + std::to_string(n), o.vec(A).vec(W).val(info).val(sweeps).val(res), st);
  }
  {
    const int n = 30;
    auto A = spd(n, 310);
    std::vector<double> W(static_cast<std::size_t>(n));
    int lw = 0, info = 0;
    Solver s;
    trnsolverDnDsyevj_bufferSize(s.h, VEC, UPPER, n, A.data(), n, W.data(), &lw, params);
    std::vector<double> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnDsyevj(s.h, VEC, UPPER, n, A.data(), n, W.data(), w.data(), lw, &info, params);
    Hash o;
    s.emit("dsyevj_V_U_30", o.vec(A).vec(W).val(info), st);
  }
  for (int cores : {1, 2}) {
    const int n = 16, batch = 3;
    std::vector<float> A;
    for (int b = 0; b < batch; ++b) {
      const auto a = to_f(spd(n, 320 + static_cast<std::uint64_t>(b)));
      A.insert(A.end(), a.begin(), a.end());
    }
    std::vector<float> W(static_cast<std::size_t>(n) * batch);
    std::vector<int> info(batch);
    int lw = 0;
    Solver s(TRN_TARGET_TRN1, cores);
    trnsolverDnSsyevjBatched_bufferSize(s.h, VEC, LOWER, n, A.data(), n, W.data(), &lw, params, batch);
    std::vector<float> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnSsyevjBatched(s.h, VEC, LOWER, n, A.data(), n, W.data(), w.data(), lw, info.data(), params, batch);
    Hash o;
    s.emit("ssyevjBatched_16x3_" + std::to_string(cores) + "core", o.vec(A).vec(W).vec(info), st);
  }
  trnsolverDnDestroySyevjInfo(params);
  {
    gesvdjInfo_t gp = nullptr;
    trnsolverDnCreateGesvdjInfo(&gp);
    const int m = 40, n = 30, mn = 30;
    auto A = rf(static_cast<std::size_t>(m) * n, 330);
    std::vector<float> S(mn), U(static_cast<std::size_t>(m) * mn), V(static_cast<std::size_t>(n) * mn);
    int lw = 0, info = 0;
    Solver s;
    trnsolverDnSgesvdj_bufferSize(s.h, VEC, 1, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, &lw, gp);
    std::vector<float> w(static_cast<std::size_t>(std::max(lw, 1)));
    const int st = trnsolverDnSgesvdj(s.h, VEC, 1, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, w.data(), lw, &info, gp);
    Hash o;
    s.emit("sgesvdj_econ_40x30", o.vec(S).vec(U).vec(V).val(info), st);
    trnsolverDnDestroyGesvdjInfo(gp);
  }
}

// ---- trnfft (C API; a plan per case) --------------------------------------------------------------
void fft_emit(trnfftHandle plan, const std::string& name, Hash& out, int status) {
  trnProfile_t p{};
  trnfftGetLastProfile(plan, &p);
  out.val(status);
  emit("trnfft", name, out, cost(p));
  trnfftDestroy(plan);
}

void fft_c2c(const std::string& name, int n, int batch, int dir, trnTarget_t target, int precision) {
  trnfftHandle plan = 0;
  trnfftCreate(&plan);
  trnfftSetPlanTarget(plan, target);
  trnfftSetPlanPrecision(plan, static_cast<trnfftPrecision_t>(precision));
  std::size_t ws = 0;
  int st = trnfftMakePlan1d(plan, n, TRNFFT_C2C, batch, &ws);
  const auto in = rc<trnfftComplex>(static_cast<std::size_t>(n) * batch, 400 + static_cast<std::uint64_t>(n));
  std::vector<trnfftComplex> out(in.size());
  auto inc = in;
  st = st * 256 + trnfftExecC2C(plan, inc.data(), out.data(), dir);
  Hash o;
  fft_emit(plan, name, o.vec(out), st);
}

void fft_cases() {
  fft_c2c("c2c_fwd_8", 8, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_fwd_256", 256, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_inv_256", 256, 1, TRNFFT_INVERSE, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_fwd_1000", 1000, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_fwd_97_bluestein", 97, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_fwd_64_batch5", 64, 5, TRNFFT_FORWARD, TRN_TARGET_TRN1, 0);
  fft_c2c("c2c_fwd_1000_trn2", 1000, 1, TRNFFT_FORWARD, TRN_TARGET_TRN2, 0);
  fft_c2c("c2c_fwd_256_bf16", 256, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, TRNFFT_PRECISION_BF16);
  fft_c2c("c2c_fwd_256_bf16x3", 256, 1, TRNFFT_FORWARD, TRN_TARGET_TRN1, TRNFFT_PRECISION_BF16X3);
  const int n = 256;
  {
    trnfftHandle plan = 0;
    int st = trnfftPlan1d(&plan, n, TRNFFT_R2C, 2);
    auto in = rf(static_cast<std::size_t>(n) * 2, 410);
    std::vector<trnfftComplex> out(static_cast<std::size_t>(n / 2 + 1) * 2);
    st = st * 256 + trnfftExecR2C(plan, in.data(), out.data());
    Hash o;
    fft_emit(plan, "r2c_256_batch2", o.vec(out), st);
  }
  {
    trnfftHandle plan = 0;
    int st = trnfftPlan1d(&plan, n, TRNFFT_C2R, 1);
    auto in = rc<trnfftComplex>(static_cast<std::size_t>(n / 2 + 1), 411);
    in[0].y = 0;
    in[n / 2].y = 0;
    std::vector<float> out(static_cast<std::size_t>(n));
    st = st * 256 + trnfftExecC2R(plan, in.data(), out.data());
    Hash o;
    fft_emit(plan, "c2r_256", o.vec(out), st);
  }
  {
    trnfftHandle plan = 0;
    int st = trnfftPlan1d(&plan, 128, TRNFFT_Z2Z, 1);
    auto in = rc<trnfftDoubleComplex>(128, 412);
    std::vector<trnfftDoubleComplex> out(in.size());
    st = st * 256 + trnfftExecZ2Z(plan, in.data(), out.data(), TRNFFT_FORWARD);
    Hash o;
    fft_emit(plan, "z2z_fwd_128", o.vec(out), st);
  }
  {
    trnfftHandle plan = 0;
    int st = trnfftPlan2d(&plan, 32, 24, TRNFFT_C2C);
    auto in = rc<trnfftComplex>(32 * 24, 413);
    std::vector<trnfftComplex> out(in.size());
    st = st * 256 + trnfftExecC2C(plan, in.data(), out.data(), TRNFFT_FORWARD);
    Hash o;
    fft_emit(plan, "c2c_2d_32x24", o.vec(out), st);
  }
}

// ---- trnrand (C API) ------------------------------------------------------------------------------
void rand_case(const char* gname, trnrandRngType_t type, trnTarget_t target, bool host) {
  const std::size_t n = 1000;
  enum Dist { uniform, normal, lognormal, poisson, bits };
  for (Dist d : {uniform, normal, lognormal, poisson, bits}) {
    static const char* const dn[] = {"uniform", "normal", "lognormal", "poisson", "bits"};
    trnrandGenerator_t g = nullptr;
    int st = host ? trnrandCreateGeneratorHost(&g, type) : trnrandCreateGenerator(&g, type);
    Hash o;
    trnProfile_t p{};
    if (st == TRNRAND_STATUS_SUCCESS) {
      const bool quasi = type >= TRNRAND_RNG_QUASI_DEFAULT;
      st = quasi ? trnrandSetQuasiRandomGeneratorDimensions(g, 4) : trnrandSetPseudoRandomGeneratorSeed(g, 20240917ULL);
      trnrandSetGeneratorTarget(g, target);
      if (!quasi) st = st * 1024 + trnrandSetGeneratorOffset(g, 17);
      std::vector<float> f(n);
      std::vector<unsigned> u(n);
      std::vector<unsigned long long> ull(n);
      switch (d) {
        case uniform: st = st * 1024 + trnrandGenerateUniform(g, f.data(), n); break;
        case normal: st = st * 1024 + trnrandGenerateNormal(g, f.data(), n, 1.5f, 2.0f); break;
        case lognormal: st = st * 1024 + trnrandGenerateLogNormal(g, f.data(), n, 0.25f, 0.5f); break;
        case poisson: st = st * 1024 + trnrandGeneratePoisson(g, u.data(), n, 4.5); break;
        case bits:
          st = st * 1024 + (type == TRNRAND_RNG_QUASI_SOBOL64 ? trnrandGenerateLongLong(g, ull.data(), n)
                                                               : trnrandGenerate(g, u.data(), n));
          break;
      }
      o.vec(f).vec(u).vec(ull);
      trnrandGetLastProfile(g, &p);
      trnrandDestroyGenerator(g);
    }
    o.val(st);
    emit("trnrand", std::string(gname) + "_" + dn[d], o, cost(p));
  }
}

void rand_cases() {
  rand_case("philox", TRNRAND_RNG_PSEUDO_PHILOX4_32_10, TRN_TARGET_TRN1, false);
  rand_case("philox_trn2", TRNRAND_RNG_PSEUDO_PHILOX4_32_10, TRN_TARGET_TRN2, false);
  rand_case("philox_host", TRNRAND_RNG_PSEUDO_PHILOX4_32_10, TRN_TARGET_TRN1, true);
  rand_case("xorwow", TRNRAND_RNG_PSEUDO_XORWOW, TRN_TARGET_TRN1, false);
  rand_case("mrg32k3a", TRNRAND_RNG_PSEUDO_MRG32K3A, TRN_TARGET_TRN1, false);
  rand_case("mtgp32", TRNRAND_RNG_PSEUDO_MTGP32, TRN_TARGET_TRN1, false);
  rand_case("mt19937", TRNRAND_RNG_PSEUDO_MT19937, TRN_TARGET_TRN1, false);
  rand_case("sobol32", TRNRAND_RNG_QUASI_SOBOL32, TRN_TARGET_TRN1, false);
  rand_case("sobol64", TRNRAND_RNG_QUASI_SOBOL64, TRN_TARGET_TRN1, false);
}

// ---- trnsparse (C++ API: CallReport) --------------------------------------------------------------
namespace sp = trn::sparse;

// A BSR pattern of nb x nb blocks of bs x bs: block (r, c) kept when (r + 2 c + seed) % 3 != 0 or
// r == c; values U(-1, 1) (diagonal blocks get + 4 on their diagonal: CG needs nothing more here).
struct Bsr {
  std::int64_t nb = 0, bs = 0;
  std::vector<std::int64_t> off{0}, col;
  std::vector<float> val;
  Bsr(std::int64_t nb_, std::int64_t bs_, std::uint64_t seed) : nb(nb_), bs(bs_) {
    Rng r(seed);
    for (std::int64_t i = 0; i < nb; ++i) {
      for (std::int64_t j = 0; j < nb; ++j)
        if (i == j || (i + 2 * j + static_cast<std::int64_t>(seed)) % 3 != 0) {
          col.push_back(j);
          for (std::int64_t e = 0; e < bs * bs; ++e) val.push_back(r.f() + (i == j && e / bs == e % bs ? 4.0f : 0.0f));
        }
      off.push_back(static_cast<std::int64_t>(col.size()));
    }
  }
  sp::BsrView view(void* values = nullptr) {
    return {nb, nb, static_cast<std::int64_t>(col.size()), bs, bs, off.data(), col.data(),
            values ? values : val.data(), sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero, trn::DType::f32,
            sp::BlockOrder::row};
  }
};
sp::Settings sps(trn::Generation target = trn::Generation::trn1, int cores = 1, int threads = 0) {
  sp::Settings s;
  s.target = target;
  s.num_cores = cores;
  s.host_threads = threads;
  return s;
}
void sp_emit(const std::string& name, Hash& o, const sp::CallReport& rep) {
  o.val(rep.matmuls).val(rep.blocks).val(rep.b_resident);
  emit("trnsparse", name, o, cost(rep.profile));
}

void sparse_cases() {
  Bsr a(4, 32, 1);
  const std::int64_t n = a.nb * a.bs, m = 48;
  const auto B = rf(static_cast<std::size_t>(n * m), 501);
  struct Cfg {
    const char* name;
    sp::Settings s;
  };
  for (const Cfg& c : {Cfg{"bsr_spmm_128x48", sps()}, Cfg{"bsr_spmm_128x48_trn2_2core_2thread", sps(trn::Generation::trn2, 2, 2)},
                       Cfg{"bsr_spmm_128x48_1thread", sps(trn::Generation::trn1, 1, 1)}}) {
    std::vector<float> C = rf(static_cast<std::size_t>(n * m), 502);
    sp::CallReport rep;
    sp::spmm(c.s, sp::Op::N, sp::Op::N, 0.75f, a.view(), {B.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, 0.5f,
             {C.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, &rep);
    Hash o;
    sp_emit(c.name, o.vec(C), rep);
  }
  {
    std::vector<std::uint16_t> vh(a.val.size()), Bh(B.size());
    std::transform(a.val.begin(), a.val.end(), vh.begin(), trn::f32_to_bf16_rne);
    std::transform(B.begin(), B.end(), Bh.begin(), trn::f32_to_bf16_rne);
    sp::BsrView v = a.view(vh.data());
    v.value_type = trn::DType::bf16;
    std::vector<float> C(static_cast<std::size_t>(n * m));
    sp::CallReport rep;
    sp::spmm(sps(), sp::Op::T, sp::Op::N, 1.0f, v, {Bh.data(), trn::DType::bf16, n, m, n, sp::Layout::col_major}, 0.0f,
             {C.data(), trn::DType::f32, n, m, n, sp::Layout::col_major}, &rep);
    Hash o;
    sp_emit("bsr_spmm_T_bf16_128x48", o.vec(C), rep);
  }
  for (sp::Op op : {sp::Op::N, sp::Op::T}) {
    const auto x = rf(static_cast<std::size_t>(n), 503);
    std::vector<float> y = rf(static_cast<std::size_t>(n), 504);
    sp::CallReport rep;
    sp::spmv(sps(), op, 1.5f, a.view(), x.data(), trn::DType::f32, -0.5f, y.data(), trn::DType::f32, &rep);
    Hash o;
    sp_emit(op == sp::Op::N ? "bsr_spmv_N_128" : "bsr_spmv_T_128", o.vec(y), rep);
  }
  {  // CSR 150 x 130, about 8% of the entries
    const std::int64_t rows = 150, cols = 130;
    Rng r(505);
    std::vector<std::int32_t> off{0}, ci;
    std::vector<float> v;
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j)
        if (r.next() % 12 == 0) {
          ci.push_back(static_cast<std::int32_t>(j));
          v.push_back(r.f());
        }
      off.push_back(static_cast<std::int32_t>(ci.size()));
    }
    const auto x = rf(static_cast<std::size_t>(cols), 506);
    std::vector<float> y(static_cast<std::size_t>(rows));
    sp::CallReport rep;
    sp::spmv(sps(), sp::Op::N, 1.0f, sp::CsrView{rows, cols, static_cast<std::int64_t>(ci.size()), off.data(), ci.data(), v.data()},
             x.data(), trn::DType::f32, 0.0f, y.data(), trn::DType::f32, &rep);
    Hash o;
    sp_emit("csr_spmv_150x130", o.vec(y), rep);
  }
  {
    Bsr p(4, 16, 2), q(4, 16, 3);
    sp::OwnedBsr c = sp::spgemm_symbolic(p.view(), q.view());
    sp::CallReport rep;
    sp::spgemm_numeric(sps(trn::Generation::trn1, 2, 2), 0.5f, p.view(), q.view(), c, &rep);
    Hash o;
    o.vec(c.offsets).vec(c.columns).vec(c.values);
    sp_emit("bsr_spgemm_64_2core", o, rep);
  }
  {
    Bsr c(4, 32, 4);
    const std::int64_t k = 40;
    const auto A = rf(static_cast<std::size_t>(n * k), 507), Bk = rf(static_cast<std::size_t>(k * n), 508);
    sp::CallReport rep;
    sp::sddmm(sps(), sp::Op::N, sp::Op::N, 0.8f, {A.data(), trn::DType::f32, n, k, n, sp::Layout::col_major},
              {Bk.data(), trn::DType::f32, k, n, k, sp::Layout::col_major}, 0.3f, c.view(), &rep);
    Hash o;
    sp_emit("bsr_sddmm_128_k40", o.vec(c.val), rep);
  }
  {
    Bsr mask(3, 32, 5);
    const std::int64_t d = 16, seq = 96;
    const auto Q = rf(static_cast<std::size_t>(seq * d), 509), K = rf(static_cast<std::size_t>(seq * d), 510),
               V = rf(static_cast<std::size_t>(seq * d), 511), dO = rf(static_cast<std::size_t>(seq * d), 512);
    std::vector<float> O(Q.size()), L(static_cast<std::size_t>(seq)), dQ(Q.size()), dK(Q.size()), dV(Q.size());
    for (trn::DType tiles : {trn::DType::f32, trn::DType::bf16}) {
      const std::string t = tiles == trn::DType::f32 ? "f32" : "bf16";
      sp::CallReport rep;
      sp::attention_forward(sps(), mask.view(), d, Q.data(), K.data(), V.data(), 0.25f, O.data(), tiles, &rep, L.data());
      Hash o;
      sp_emit("attention_fwd_" + t + "_seq96_d16", o.vec(O).vec(L), rep);
      sp::CallReport rb;
      sp::attention_backward(sps(trn::Generation::trn1, 2, 2), mask.view(), d, Q.data(), K.data(), V.data(), O.data(),
                             dO.data(), L.data(), 0.25f, dQ.data(), dK.data(), dV.data(), tiles, &rb);
      Hash ob;
      sp_emit("attention_bwd_" + t + "_seq96_d16_2core", ob.vec(dQ).vec(dK).vec(dV), rb);
    }
  }
  {  // CG on the 2-D Laplacian 16 x 16 in 32-blocks (no per-engine profile: modeled_ns, launches)
    const std::int64_t g = 16, nn = g * g, bs = 32, nb = nn / bs;
    std::vector<std::int64_t> off{0}, col;
    std::vector<float> val;
    for (std::int64_t R = 0; R < nb; ++R) {
      for (std::int64_t C = std::max<std::int64_t>(0, R - 1); C <= std::min(nb - 1, R + 1); ++C) {
        col.push_back(C);
        for (std::int64_t r = 0; r < bs; ++r)
          for (std::int64_t c = 0; c < bs; ++c) {
            const std::int64_t i = R * bs + r, j = C * bs + c;
            const bool nbr = (j == i - 1 && i % g != 0) || (j == i + 1 && j % g != 0) || j == i - g || j == i + g;
            val.push_back(i == j ? 4.0f : nbr ? -1.0f : 0.0f);
          }
      }
      off.push_back(static_cast<std::int64_t>(col.size()));
    }
    const auto b = rf(static_cast<std::size_t>(nn), 513);
    std::vector<float> x(static_cast<std::size_t>(nn), 0.0f);
    const sp::CgResult res = sp::cg(sps(), {nb, nb, static_cast<std::int64_t>(col.size()), bs, bs, off.data(), col.data(),
                                            val.data(), sp::IndexType::i64, sp::IndexType::i64, sp::IndexBase::zero,
                                            trn::DType::f32, sp::BlockOrder::row},
                                    b.data(), x.data(), {200, 1e-5f, true});
    Hash o;
    o.vec(x).val(res.iterations).val(res.converged).val(res.breakdown).vec(res.residual_history).val(res.host_scalar_reads);
    Cost c;
    c.total_ns = res.modeled_ns;
    c.instr = res.launches;
    emit("trnsparse", "cg_jacobi_laplace16x16_bs32_instr_is_launches", o, c);
  }
}

// ---- trntensor (C++ API: blas::CallReport, EinsumReport) ------------------------------------------
namespace tn = trn::tensor;
trn::blas::Settings bls(trn::Generation target = trn::Generation::trn1, int cores = 1, int threads = 0) {
  trn::blas::Settings s;
  s.target = target;
  s.num_cores = cores;
  s.host_threads = threads;
  return s;
}

void tensor_cases() {
  {  // D[a,b,c] = A[a,k,c] B[k,b]  (c is a batch mode of A and D)
    const std::int64_t ea = 24, eb = 20, ec = 3, ek = 30;
    tn::ContractionSpec s;
    s.a.extents = {ea, ek, ec};
    s.b.extents = {ek, eb};
    s.c.extents = s.d.extents = {ea, eb, ec};
    s.modes_a = {'a', 'k', 'c'};
    s.modes_b = {'k', 'b'};
    s.modes_c = s.modes_d = {'a', 'b', 'c'};
    const auto A = rf(static_cast<std::size_t>(ea * ek * ec), 601), B = rf(static_cast<std::size_t>(ek * eb), 602);
    for (int cfg = 0; cfg < 2; ++cfg) {
      const trn::blas::Settings st = cfg ? bls(trn::Generation::trn2, 2, 2) : bls();
      const tn::ContractionPlan plan(s);
      std::vector<float> D = rf(static_cast<std::size_t>(ea * eb * ec), 603);
      trn::blas::CallReport rep;
      plan.execute(st, 0.5, A.data(), B.data(), 0.25, D.data(), D.data(), nullptr, 0, &rep);
      Hash o;
      o.vec(D);
      emit("trntensor", cfg ? "contraction_akc_kb_trn2_2core_2thread" : "contraction_akc_kb", o, cost(rep.profile));
    }
  }
  {  // 3-operand einsum path, fp32 and bf16 compute
    const auto X = rf(20 * 30, 611), Y = rf(30 * 25, 612), Z = rf(25 * 15, 613);
    for (tn::ComputeType ct : {tn::ComputeType::f32, tn::ComputeType::bf16}) {
      std::vector<float> out(20 * 15);
      tn::EinsumReport rep;
      tn::einsum(bls(), "ij,jk,kl->il", {{X.data(), {20, 30}, {}}, {Y.data(), {30, 25}, {}}, {Z.data(), {25, 15}, {}}},
                 {out.data(), {20, 15}, {}}, tn::DataType::f32, ct, tn::PathStrategy::automatic, &rep);
      Hash o;
      o.vec(out).bytes(rep.path.path_string().data(), rep.path.path_string().size());
      emit("trntensor", std::string("einsum_ij_jk_kl_") + tn::compute_type_name(ct), o, cost(rep.profile));
    }
  }
  {  // reduction (a single-operand einsum: sum over j), and a trace
    const auto X = rf(12 * 10 * 9, 621);
    std::vector<float> out(12 * 9);
    tn::EinsumReport rep;
    tn::einsum(bls(), "ijk->ik", {{X.data(), {12, 10, 9}, {}}}, {out.data(), {12, 9}, {}}, tn::DataType::f32,
               tn::ComputeType::f32, tn::PathStrategy::automatic, &rep);
    Hash o;
    emit("trntensor", "einsum_reduce_ijk_ik", o.vec(out), cost(rep.profile));
  }
  for (tn::ElementwiseOp op : {tn::ElementwiseOp::add, tn::ElementwiseOp::max}) {  // D[b,a] = op(alpha A[a], gamma C[b,a])
    tn::ElementwiseBinarySpec s;
    s.a.extents = {40};
    s.c.extents = s.d.extents = {30, 40};
    s.modes_a = {'a'};
    s.modes_c = s.modes_d = {'b', 'a'};
    s.op = op;
    const tn::ElementwiseBinaryPlan plan(s);
    const auto A = rf(40, 631), C = rf(30 * 40, 632);
    std::vector<float> D(30 * 40);
    trn::blas::CallReport rep;
    plan.execute(bls(), 1.5f, A.data(), -0.5f, C.data(), D.data(), &rep);
    Hash o;
    emit("trntensor", op == tn::ElementwiseOp::add ? "elementwise_add_bcast" : "elementwise_max_bcast", o.vec(D),
         cost(rep.profile));
  }
  {  // DF-MP2
    const std::int64_t naux = 20, nocc = 4, nvir = 24;
    const auto Bq = rf(static_cast<std::size_t>(naux * nocc * nvir), 641);
    std::vector<float> eo(nocc), ev(nvir);
    for (std::int64_t i = 0; i < nocc; ++i) eo[static_cast<std::size_t>(i)] = -2.0f + 0.25f * static_cast<float>(i);
    for (std::int64_t a = 0; a < nvir; ++a) ev[static_cast<std::size_t>(a)] = 0.5f + 0.125f * static_cast<float>(a);
    for (tn::Mp2Precision p : {tn::Mp2Precision::fp32, tn::Mp2Precision::bf16x3}) {
      trn::blas::CallReport rep;
      const double e = tn::dfmp2_energy(bls(trn::Generation::trn1, 2, 2), naux, nocc, nvir, Bq.data(), eo.data(), ev.data(),
                                        p, &rep);
      Hash o;
      emit("trntensor", std::string("dfmp2_20x4x24_2core_") + tn::mp2_precision_name(p), o.val(e), cost(rep.profile));
    }
  }
}

// ---- driver ---------------------------------------------------------------------------------------
std::map<std::string, std::string> by_case(const std::vector<std::string>& lines) {
  std::map<std::string, std::string> m;
  for (const std::string& l : lines) {
    const auto sp1 = l.find(' '), sp2 = l.find(' ', sp1 + 1);
    m[l.substr(0, sp2)] = l;
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc >= 3 ? argv[1] : "";
  if (argc != 1 && !(argc == 3 && (mode == "--check" || mode == "--write"))) {
    std::fprintf(stderr, "usage: %s [--check FILE | --write FILE]\n", argv[0]);
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  blas_gemms();
  blas_trsm_and_level12();
  blas_batched_lu();
  solver_factorizations();
  solver_eigen();
  fft_cases();
  rand_cases();
  sparse_cases();
  tensor_cases();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "golden: %zu cases in %.1f s\n", g_lines.size(), secs);

  if (mode.empty()) {
    for (const std::string& l : g_lines) std::printf("%s\n", l.c_str());
    return 0;
  }
  if (mode == "--write") {
    std::ofstream f(argv[2]);
    for (const std::string& l : g_lines) f << l << '\n';
    return f ? 0 : 1;
  }
  std::ifstream f(argv[2]);
  if (!f) {
    std::fprintf(stderr, "golden: cannot read %s\n", argv[2]);
    return 1;
  }
  std::vector<std::string> expected;
  for (std::string l; std::getline(f, l);)
    if (!l.empty()) expected.push_back(l);
  const auto want = by_case(expected), got = by_case(g_lines);
  int diffs = 0;
  for (const auto& [k, l] : want) {
    const auto it = got.find(k);
    if (it == got.end()) {
      std::printf("- %s\n+ (case missing)\n", l.c_str());
      ++diffs;
    } else if (it->second != l) {
      std::printf("- %s\n+ %s\n", l.c_str(), it->second.c_str());
      ++diffs;
    }
  }
  for (const auto& [k, l] : got)
    if (!want.count(k)) {
      std::printf("- (case not in %s)\n+ %s\n", argv[2], l.c_str());
      ++diffs;
    }
  if (expected.size() != want.size() || g_lines.size() != got.size()) {
    std::printf("duplicate case names\n");
    ++diffs;
  }
  std::printf("golden: %d of %zu cases differ from %s\n", diffs, expected.size(), argv[2]);
  return diffs == 0 ? 0 : 1;
}
