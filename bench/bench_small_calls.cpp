// The fixed per-call cost of small library calls (issue #30, "small calls cost microseconds"):
// each row calls one routine through its C API, as a user program would, `reps` times on one
// handle, with TRN_NUM_THREADS = 1 and 2, and prints the host time per call beside OpenBLAS's for
// the same operation (the project's OpenBLAS reference: openblas_native.hpp). Plain timing loops,
// not Google Benchmark: what is measured is a user's loop of small calls.
//
//   bench_small_calls [--scale S] [--threads 1,2] [--only NAME]
//
// Rows named "ABI ..." call the Fortran BLAS entry points of libtrnblas_blas.so (dlopen'ed with
// RTLD_LOCAL, so its symbols never replace OpenBLAS's for the native column), as a LAPACK client
// through the shim does: no report, so no cost-model schedule (a C API call keeps one; a short call's
// schedule waits until GetLastProfile asks for it: docs/trnblas.md "Session 23").
// BENCH_BLAS_ABI=PATH loads another build's shim (with LD_LIBRARY_PATH at its libraries: pairs).
//
// --scale multiplies every row's repetition count (the default counts are in the table: 10^4 for
// the fp32 rows, fewer for the rows that take milliseconds today); --only runs the rows whose name
// starts with NAME (for profiling one call). Each thread count prints the elapsed time per call and,
// in parentheses, the process CPU time per call (all threads): on a loaded machine the CPU time is
// the steadier figure. No time is asserted anywhere.
#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "openblas_native.hpp"
#include "trnblas.h"
#include "trnfft.h"
#include "trnsolver.h"
#include "trnsparse.h"

namespace {

struct Row {
  std::string name;
  int reps;
  std::function<int()> call;    // one library call; returns its status (0: success)
  std::function<void()> native; // the same operation by OpenBLAS (empty: no counterpart)
};

struct Timing {
  double wall_us, cpu_us;  // per call: elapsed, and CPU time of the whole process (every thread)
};

double process_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

Timing per_call(int reps, const std::function<void()>& f) {
  for (int i = 0; i < std::min(reps, 20); ++i) f();  // warm caches, pools and handles
  const double c0 = process_cpu_us();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  const double c1 = process_cpu_us();
  return {std::chrono::duration<double, std::micro>(t1 - t0).count() / reps, (c1 - c0) / reps};
}

void check(int status, const std::string& what) {
  if (status == 0) return;
  std::fprintf(stderr, "bench_small_calls: %s returned status %d\n", what.c_str(), status);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  trnsci::bench::use_native_openblas_kernels(argv);
  double scale = 1.0;
  std::vector<int> thread_counts{1, 2};
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--scale") == 0) {
      scale = std::atof(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--only") == 0) {
      only = argv[i + 1];
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      thread_counts.clear();
      for (const char* p = argv[i + 1]; *p != '\0';) {
        thread_counts.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else {
      std::fprintf(stderr, "usage: bench_small_calls [--scale S] [--threads 1,2] [--only NAME]\n");
      return 2;
    }
  }
  openblas_set_num_threads(1);

  // Operands: small, finite, deterministic.
  std::vector<float> x(64 * 64), y(64 * 64), a(64 * 64), b(64 * 64), c(64 * 64);
  std::vector<double> xd(64), yd(64), ad(64), bd(64);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = 0.25f + static_cast<float>(i % 7) * 0.125f;
    y[i] = 1.0f - static_cast<float>(i % 5) * 0.0625f;
    a[i] = static_cast<float>((i * 37) % 11) * 0.1f - 0.5f;
    b[i] = static_cast<float>((i * 17) % 13) * 0.05f - 0.25f;
  }
  for (std::size_t i = 0; i < xd.size(); ++i) {
    xd[i] = 0.3 + static_cast<double>(i % 9) * 0.1;
    yd[i] = 1.0 - static_cast<double>(i % 4) * 0.2;
    ad[i] = static_cast<double>((i * 7) % 5) * 0.3 - 0.6;
  }
  float r = 0.0f;
  double rd = 0.0;
  const float one = 1.0f, zero = 0.0f, half = 0.5f;
  const double oned = 1.0, zerod = 0.0;

  trnblasHandle_t h = nullptr;
  check(trnblasCreate(&h), "trnblasCreate");

  // trnfft: a 16-point C2C transform, batch 1.
  trnfftHandle plan = 0;
  check(trnfftPlan1d(&plan, 16, TRNFFT_C2C, 1), "trnfftPlan1d");
  std::vector<trnfftComplex> fin(16), fout(16);
  for (int i = 0; i < 16; ++i) fin[static_cast<std::size_t>(i)] = {static_cast<float>(i % 3), 0.5f};

  // trnsparse: y = A x for an 8 x 8 tridiagonal CSR matrix.
  trnsparseHandle_t sh = nullptr;
  check(trnsparseCreate(&sh), "trnsparseCreate");
  std::vector<int> rowptr{0}, colind;
  std::vector<float> vals;
  for (int i = 0; i < 8; ++i) {
    for (int j = std::max(0, i - 1); j <= std::min(7, i + 1); ++j) {
      colind.push_back(j);
      vals.push_back(i == j ? 2.0f : -1.0f);
    }
    rowptr.push_back(static_cast<int>(colind.size()));
  }
  trnsparseSpMatDescr_t A = nullptr;
  trnsparseDnVecDescr_t vx = nullptr, vy = nullptr;
  check(trnsparseCreateCsr(&A, 8, 8, static_cast<int64_t>(vals.size()), rowptr.data(), colind.data(), vals.data(),
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
        "trnsparseCreateCsr");
  check(trnsparseCreateDnVec(&vx, 8, x.data(), TRN_R_32F), "trnsparseCreateDnVec");
  check(trnsparseCreateDnVec(&vy, 8, y.data(), TRN_R_32F), "trnsparseCreateDnVec");
  std::size_t sp_bytes = 0;
  check(trnsparseSpMV_bufferSize(sh, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, TRN_R_32F,
                                 TRNSPARSE_SPMV_ALG_DEFAULT, &sp_bytes),
        "trnsparseSpMV_bufferSize");
  std::vector<unsigned char> sp_buf(std::max<std::size_t>(sp_bytes, 1));

  // trnsolver: Cholesky of an 8 x 8 SPD matrix (restored before every call).
  trnsolverDnHandle_t dh = nullptr;
  check(trnsolverDnCreate(&dh), "trnsolverDnCreate");
  std::vector<float> spd(64), work(64);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i) spd[static_cast<std::size_t>(i + 8 * j)] = i == j ? 10.0f : 1.0f / (1.0f + static_cast<float>(i + j));
  std::vector<float> chol(spd);
  int lwork = 0;
  check(trnsolverDnSpotrf_bufferSize(dh, TRNBLAS_FILL_MODE_LOWER, 8, chol.data(), 8, &lwork), "Spotrf_bufferSize");
  work.resize(static_cast<std::size_t>(std::max(lwork, 1)));
  std::vector<int> info(1);

  const auto reps = [&](int n) { return std::max(1, static_cast<int>(n * scale)); };
  std::vector<Row> rows;
  for (int n : {4, 16}) {
    const std::string sn = " n=" + std::to_string(n);
    rows.push_back({"Sdot" + sn, reps(10000), [&, n] { return static_cast<int>(trnblasSdot(h, n, x.data(), 1, y.data(), 1, &r)); },
                    [&, n] { r = cblas_sdot(n, x.data(), 1, y.data(), 1); }});
    rows.push_back({"Saxpy" + sn, reps(10000),
                    [&, n] { return static_cast<int>(trnblasSaxpy(h, n, &half, x.data(), 1, c.data(), 1)); },
                    [&, n] { cblas_saxpy(n, 0.5f, x.data(), 1, c.data(), 1); }});
    rows.push_back({"Snrm2" + sn, reps(10000), [&, n] { return static_cast<int>(trnblasSnrm2(h, n, x.data(), 1, &r)); },
                    [&, n] { r = cblas_snrm2(n, x.data(), 1); }});
  }
  for (int n : {8, 16}) {
    const std::string sn = std::to_string(n);
    rows.push_back({"Sgemv " + sn + "x" + sn, reps(10000),
                    [&, n] {
                      return static_cast<int>(
                          trnblasSgemv(h, TRNBLAS_OP_N, n, n, &one, a.data(), n, x.data(), 1, &zero, c.data(), 1));
                    },
                    [&, n] {
                      cblas_sgemv(CblasColMajor, CblasNoTrans, n, n, 1.0f, a.data(), n, x.data(), 1, 0.0f, c.data(), 1);
                    }});
  }
  for (int n : {8, 64}) {
    rows.push_back({"Sgemm " + std::to_string(n) + "^3", reps(10000),
                    [&, n] {
                      return static_cast<int>(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, a.data(), n,
                                                           b.data(), n, &zero, c.data(), n));
                    },
                    [&, n] {
                      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n,
                                  0.0f, c.data(), n);
                    }});
  }
  // The Level 1/2 calls LAPACK's test programs make most through the BLAS shim (docs/trnblas.md,
  // "LAPACK's test programs through the shim", session 15): triangular solves of a few to 50
  // unknowns (x restored every call), rank-1 updates, rotations and swaps of strided rows, pivot
  // searches, and their complex counterparts.
  std::vector<float> tri_s(64 * 64), rhs_s(64);
  for (int j = 0; j < 64; ++j)
    for (int i = 0; i < 64; ++i)
      tri_s[static_cast<std::size_t>(i + 64 * j)] = i == j ? 2.0f + static_cast<float>(i % 3) : a[static_cast<std::size_t>(i + 64 * j)] * 0.1f;
  for (int n : {8, 32, 50}) {
    rows.push_back({"Strsv n=" + std::to_string(n), reps(n > 8 ? 1000 : 10000),
                    [&, n] {
                      std::copy_n(x.begin(), n, rhs_s.begin());
                      return static_cast<int>(trnblasStrsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n,
                                                           tri_s.data(), 64, rhs_s.data(), 1));
                    },
                    [&, n] {
                      std::copy_n(x.begin(), n, rhs_s.begin());
                      cblas_strsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, tri_s.data(), 64, rhs_s.data(), 1);
                    }});
  }
  rows.push_back({"Sger 8x8", reps(10000),
                  [&] { return static_cast<int>(trnblasSger(h, 8, 8, &half, x.data(), 1, y.data(), 1, c.data(), 8)); },
                  [&] { cblas_sger(CblasColMajor, 8, 8, 0.5f, x.data(), 1, y.data(), 1, c.data(), 8); }});
  const float cs = 0.6f, sn = 0.8f;
  rows.push_back({"Srot n=8 inc=64", reps(10000),
                  [&] { return static_cast<int>(trnblasSrot(h, 8, c.data(), 64, c.data() + 1, 64, &cs, &sn)); },
                  [&] { cblas_srot(8, c.data(), 64, c.data() + 1, 64, cs, sn); }});
  rows.push_back({"Sswap n=8 inc=64", reps(10000),
                  [&] { return static_cast<int>(trnblasSswap(h, 8, c.data(), 64, c.data() + 1, 64)); },
                  [&] { cblas_sswap(8, c.data(), 64, c.data() + 1, 64); }});
  int imax = 0;
  rows.push_back({"Isamax n=8", reps(10000), [&] { return static_cast<int>(trnblasIsamax(h, 8, x.data(), 1, &imax)); },
                  [&] { imax = static_cast<int>(cblas_isamax(8, x.data(), 1)); }});
  std::vector<trnComplex> ca(64 * 64), cx(64), cy(64), crhs(64);
  for (std::size_t i = 0; i < ca.size(); ++i) ca[i] = {a[i] * 0.1f, b[i] * 0.1f};
  for (int i = 0; i < 64; ++i) ca[static_cast<std::size_t>(i + 64 * i)] = {2.0f, 0.5f};
  for (std::size_t i = 0; i < cx.size(); ++i) cx[i] = {x[i], y[i]};
  const trnComplex cone{1.0f, 0.0f}, czero{0.0f, 0.0f};
  for (int n : {8, 32}) {
    rows.push_back({"Ctrsv n=" + std::to_string(n), reps(n > 8 ? 1000 : 5000),
                    [&, n] {
                      std::copy_n(cx.begin(), n, crhs.begin());
                      return static_cast<int>(trnblasCtrsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n,
                                                           ca.data(), 64, crhs.data(), 1));
                    },
                    [&, n] {
                      std::copy_n(cx.begin(), n, crhs.begin());
                      cblas_ctrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, ca.data(), 64, crhs.data(), 1);
                    }});
  }
  rows.push_back({"Cgemv 8x8", reps(5000),
                  [&] {
                    return static_cast<int>(
                        trnblasCgemv(h, TRNBLAS_OP_N, 8, 8, &cone, ca.data(), 64, cx.data(), 1, &czero, cy.data(), 1));
                  },
                  [&] {
                    cblas_cgemv(CblasColMajor, CblasNoTrans, 8, 8, &cone, ca.data(), 64, cx.data(), 1, &czero, cy.data(), 1);
                  }});
  // The same calls through the BLAS ABI (LAPACK's route): libtrnblas_blas.so's Fortran symbols.
  // BENCH_BLAS_ABI=PATH: another build's shim (paired runs against an older build).
  const char* abi_path = std::getenv("BENCH_BLAS_ABI") != nullptr ? std::getenv("BENCH_BLAS_ABI") : TRNSCI_BLAS_ABI_PATH;
  void* abi = dlopen(abi_path, RTLD_NOW | RTLD_LOCAL);
  if (abi == nullptr) {
    std::fprintf(stderr, "bench_small_calls: dlopen %s: %s\n", abi_path, dlerror());
    return 1;
  }
  using TrsvF = void(const char*, const char*, const char*, const int*, const void*, const int*, void*, const int*,
                     std::size_t, std::size_t, std::size_t);
  using GemvF = void(const char*, const int*, const int*, const void*, const void*, const int*, const void*, const int*,
                     const void*, void*, const int*, std::size_t);
  using GerF = void(const int*, const int*, const float*, const float*, const int*, const float*, const int*, float*,
                    const int*);
  using RotF = void(const int*, float*, const int*, float*, const int*, const float*, const float*);
  using SwapF = void(const int*, float*, const int*, float*, const int*);
  using AxpyF = void(const int*, const float*, const float*, const int*, float*, const int*);
  using IamaxF = int(const int*, const float*, const int*);
  auto sym = [&](const char* name) {
    void* f = dlsym(abi, name);
    if (f == nullptr) {
      std::fprintf(stderr, "bench_small_calls: no %s in %s\n", name, abi_path);
      std::exit(1);
    }
    return f;
  };
  auto* f_strsv = reinterpret_cast<TrsvF*>(sym("strsv_"));
  auto* f_ctrsv = reinterpret_cast<TrsvF*>(sym("ctrsv_"));
  auto* f_sgemv = reinterpret_cast<GemvF*>(sym("sgemv_"));
  auto* f_cgemv = reinterpret_cast<GemvF*>(sym("cgemv_"));
  auto* f_sger = reinterpret_cast<GerF*>(sym("sger_"));
  auto* f_srot = reinterpret_cast<RotF*>(sym("srot_"));
  auto* f_sswap = reinterpret_cast<SwapF*>(sym("sswap_"));
  auto* f_saxpy = reinterpret_cast<AxpyF*>(sym("saxpy_"));
  auto* f_isamax = reinterpret_cast<IamaxF*>(sym("isamax_"));
  static const int kOne = 1, kEight = 8, kLd = 64;
  for (int n : {8, 32, 50}) {
    rows.push_back({"ABI strsv n=" + std::to_string(n), reps(n > 8 ? 1000 : 10000),
                    [&, n] {
                      std::copy_n(x.begin(), n, rhs_s.begin());
                      f_strsv("L", "N", "N", &n, tri_s.data(), &kLd, rhs_s.data(), &kOne, 1, 1, 1);
                      return 0;
                    },
                    [&, n] {
                      std::copy_n(x.begin(), n, rhs_s.begin());
                      cblas_strsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, tri_s.data(), 64, rhs_s.data(), 1);
                    }});
  }
  rows.push_back({"ABI sgemv 8x8", reps(10000),
                  [&] {
                    f_sgemv("N", &kEight, &kEight, &one, a.data(), &kEight, x.data(), &kOne, &zero, c.data(), &kOne, 1);
                    return 0;
                  },
                  [&] { cblas_sgemv(CblasColMajor, CblasNoTrans, 8, 8, 1.0f, a.data(), 8, x.data(), 1, 0.0f, c.data(), 1); }});
  rows.push_back({"ABI sger 8x8", reps(10000),
                  [&] {
                    f_sger(&kEight, &kEight, &half, x.data(), &kOne, y.data(), &kOne, c.data(), &kEight);
                    return 0;
                  },
                  [&] { cblas_sger(CblasColMajor, 8, 8, 0.5f, x.data(), 1, y.data(), 1, c.data(), 8); }});
  rows.push_back({"ABI srot n=8 inc=64", reps(10000),
                  [&] {
                    f_srot(&kEight, c.data(), &kLd, c.data() + 1, &kLd, &cs, &sn);
                    return 0;
                  },
                  [&] { cblas_srot(8, c.data(), 64, c.data() + 1, 64, cs, sn); }});
  rows.push_back({"ABI sswap n=8 inc=64", reps(10000),
                  [&] {
                    f_sswap(&kEight, c.data(), &kLd, c.data() + 1, &kLd);
                    return 0;
                  },
                  [&] { cblas_sswap(8, c.data(), 64, c.data() + 1, 64); }});
  rows.push_back({"ABI saxpy n=8", reps(10000),
                  [&] {
                    f_saxpy(&kEight, &half, x.data(), &kOne, c.data(), &kOne);
                    return 0;
                  },
                  [&] { cblas_saxpy(8, 0.5f, x.data(), 1, c.data(), 1); }});
  rows.push_back({"ABI isamax n=8", reps(10000),
                  [&] {
                    imax = f_isamax(&kEight, x.data(), &kOne);
                    return 0;
                  },
                  [&] { imax = static_cast<int>(cblas_isamax(8, x.data(), 1)); }});
  for (int n : {8, 32}) {
    rows.push_back({"ABI ctrsv n=" + std::to_string(n), reps(n > 8 ? 1000 : 5000),
                    [&, n] {
                      std::copy_n(cx.begin(), n, crhs.begin());
                      f_ctrsv("L", "N", "N", &n, ca.data(), &kLd, crhs.data(), &kOne, 1, 1, 1);
                      return 0;
                    },
                    [&, n] {
                      std::copy_n(cx.begin(), n, crhs.begin());
                      cblas_ctrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, ca.data(), 64, crhs.data(), 1);
                    }});
  }
  rows.push_back({"ABI cgemv 8x8", reps(5000),
                  [&] {
                    f_cgemv("N", &kEight, &kEight, &cone, ca.data(), &kLd, cx.data(), &kOne, &czero, cy.data(), &kOne, 1);
                    return 0;
                  },
                  [&] {
                    cblas_cgemv(CblasColMajor, CblasNoTrans, 8, 8, &cone, ca.data(), 64, cx.data(), 1, &czero, cy.data(), 1);
                  }});
  // LAPACK's csytf2 / csptrs / cgbtrs rank-1 updates: cgeru_ of m x 1 (one program since session 25).
  using CGerF = void(const int*, const int*, const void*, const void*, const int*, const void*, const int*, void*, const int*);
  auto* f_cgeru = reinterpret_cast<CGerF*>(sym("cgeru_"));
  std::vector<trnComplex> cger_a(64 * 64, trnComplex{0.25f, -0.5f});
  const trnComplex cminus{-0.75f, 0.5f};
  static const int kSix = 6;
  rows.push_back({"ABI cgeru 6x1", reps(5000),
                  [&] {
                    f_cgeru(&kSix, &kOne, &cminus, cx.data(), &kOne, cy.data(), &kOne, cger_a.data(), &kLd);
                    return 0;
                  },
                  [&] { cblas_cgeru(CblasColMajor, 6, 1, &cminus, cx.data(), 1, cy.data(), 1, cger_a.data(), 64); }});
  rows.push_back({"Ddot n=4", reps(1000),
                  [&] { return static_cast<int>(trnblasDdot(h, 4, xd.data(), 1, yd.data(), 1, &rd)); },
                  [&] { rd = cblas_ddot(4, xd.data(), 1, yd.data(), 1); }});
  rows.push_back({"Dgemv 8x8", reps(1000),
                  [&] {
                    return static_cast<int>(
                        trnblasDgemv(h, TRNBLAS_OP_N, 8, 8, &oned, ad.data(), 8, xd.data(), 1, &zerod, bd.data(), 1));
                  },
                  [&] { cblas_dgemv(CblasColMajor, CblasNoTrans, 8, 8, 1.0, ad.data(), 8, xd.data(), 1, 0.0, bd.data(), 1); }});
  // fp64 Level 3 at LAPACK-client sizes: several Ozaki product programs per launch (docs/architecture.md,
  // "Inline launches"). The triangle is unit-diagonal and well conditioned; B is restored every call.
  std::vector<double> a16(256), b16(256), c16(256), tri(256), rhs(256);
  for (std::size_t i = 0; i < a16.size(); ++i) {
    a16[i] = static_cast<double>((i * 7) % 11) * 0.1 - 0.5;
    b16[i] = static_cast<double>((i * 5) % 13) * 0.05 - 0.3;
    tri[i] = i % 17 == 0 ? 1.0 : a16[i] * 0.1;
  }
  std::vector<double> c32(1024), d32(1024);
  for (std::size_t i = 0; i < c32.size(); ++i) c32[i] = static_cast<double>((i * 11) % 17) * 0.0625 - 0.5;
  rows.push_back({"Dgemm 16^3", reps(1000),
                  [&] {
                    return static_cast<int>(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 16, 16, 16, &oned, a16.data(), 16,
                                                         b16.data(), 16, &zerod, c16.data(), 16));
                  },
                  [&] {
                    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 16, 16, 16, 1.0, a16.data(), 16, b16.data(), 16,
                                0.0, c16.data(), 16);
                  }});
  // A rank-1 update at a LAPACK panel's size (xlintstd's DQR/DSY paths make ~10^5 of them): one host
  // round trip since s15/lapackd (was the Ozaki DGEMM 16 x 16 x 1).
  rows.push_back({"Dger 16x16", reps(1000),
                  [&] {
                    return static_cast<int>(trnblasDger(h, 16, 16, &oned, a16.data(), 1, b16.data(), 1, c16.data(), 16));
                  },
                  [&] { cblas_dger(CblasColMajor, 16, 16, 1.0, a16.data(), 1, b16.data(), 1, c16.data(), 16); }});
  rows.push_back({"Dgemm 32^3", reps(300),
                  [&] {
                    return static_cast<int>(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 32, 32, 32, &oned, c32.data(), 32,
                                                         c32.data(), 32, &zerod, d32.data(), 32));
                  },
                  [&] {
                    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 32, 32, 32, 1.0, c32.data(), 32, c32.data(), 32,
                                0.0, d32.data(), 32);
                  }});
  rows.push_back({"Dtrsm 16x16", reps(1000),
                  [&] {
                    std::copy(b16.begin(), b16.end(), rhs.begin());
                    return static_cast<int>(trnblasDtrsm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                                                         TRNBLAS_DIAG_UNIT, 16, 16, &oned, tri.data(), 16, rhs.data(), 16));
                  },
                  [&] {
                    std::copy(b16.begin(), b16.end(), rhs.begin());
                    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, 16, 16, 1.0, tri.data(), 16,
                                rhs.data(), 16);
                  }});
  rows.push_back({"trnfft C2C n=16", reps(2000),
                  [&] { return static_cast<int>(trnfftExecC2C(plan, fin.data(), fout.data(), TRNFFT_FORWARD)); }, {}});
  rows.push_back({"trnsparse SpMV 8x8 CSR", reps(2000),
                  [&] {
                    return static_cast<int>(trnsparseSpMV(sh, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
                                                          TRN_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, sp_buf.data()));
                  },
                  {}});
  rows.push_back({"trnsolver Spotrf n=8", reps(1000),
                  [&] {
                    std::copy(spd.begin(), spd.end(), chol.begin());
                    return static_cast<int>(
                        trnsolverDnSpotrf(dh, TRNBLAS_FILL_MODE_LOWER, 8, chol.data(), 8, work.data(), lwork, info.data()));
                  },
                  {}});

  std::printf("| call | reps |");
  for (int t : thread_counts) std::printf(" %d thread%s: us/call (CPU) |", t, t == 1 ? "" : "s");
  std::printf(" OpenBLAS (us/call) |\n|---|---|");
  for (std::size_t i = 0; i < thread_counts.size(); ++i) std::printf("---|");
  std::printf("---|\n");
  for (const Row& row : rows) {
    if (row.name.rfind(only, 0) != 0) continue;
    check(row.call(), row.name);
    std::printf("| %s | %d |", row.name.c_str(), row.reps);
    for (int threads : thread_counts) {
      setenv("TRN_NUM_THREADS", std::to_string(threads).c_str(), 1);
      const Timing t = per_call(row.reps, [&] { check(row.call(), row.name); });
      std::printf(" %.2f (%.2f) |", t.wall_us, t.cpu_us);
    }
    if (row.native)
      std::printf(" %.3f |\n", per_call(std::max(row.reps, 10000), row.native).wall_us);
    else
      std::printf(" - |\n");
    std::fflush(stdout);
  }

  trnsolverDnDestroy(dh);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroySpMat(A);
  trnsparseDestroy(sh);
  trnfftDestroy(plan);
  trnblasDestroy(h);
  return 0;
}
