// The fixed per-call cost of small library calls (issue #30, "small calls cost microseconds"):
// each row calls one routine through its C API, as a user program would, `reps` times on one
// handle, with TRN_NUM_THREADS = 1 and 2, and prints the host time per call beside OpenBLAS's for
// the same operation (the project's OpenBLAS reference: openblas_native.hpp). Plain timing loops,
// not Google Benchmark: what is measured is a user's loop of small calls.
//
//   bench_small_calls [--scale S] [--threads 1,2] [--only NAME]
//
// --scale multiplies every row's repetition count (the default counts are in the table: 10^4 for
// the fp32 rows, fewer for the rows that take milliseconds today); --only runs the rows whose name
// starts with NAME (for profiling one call). Each thread count prints the elapsed time per call and,
// in parentheses, the process CPU time per call (all threads): on a loaded machine the CPU time is
// the steadier figure. No time is asserted anywhere.
#include <cblas.h>

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
