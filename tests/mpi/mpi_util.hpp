// Shared by the trnblasMp MPI tests (tests/mpi): the ScaLAPACK / BLACS oracle's declarations, checks
// that every rank agrees on, reproducible global matrices and their block-cyclic pieces.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {  // ScaLAPACK and BLACS (libscalapack-openmpi): the oracle
void Cblacs_get(int ctxt, int what, int* val);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ctxt, const int* lld, int* info);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
}
extern "C" {  // PBLAS (libscalapack-openmpi): the oracle. Scalars and matrices by address (s/d/c/z).
#define TRN_PBLAS_DECL(p)                                                                                               \
  void p##gemm_(const char*, const char*, const int*, const int*, const int*, const void*, const void*, const int*,     \
                const int*, const int*, const void*, const int*, const int*, const int*, const void*, void*, const int*, \
                const int*, const int*);                                                                                \
  void p##syrk_(const char*, const char*, const int*, const int*, const void*, const void*, const int*, const int*,     \
                const int*, const void*, void*, const int*, const int*, const int*);                                    \
  void p##geadd_(const char*, const int*, const int*, const void*, const void*, const int*, const int*, const int*,     \
                 const void*, void*, const int*, const int*, const int*);                                               \
  void p##tradd_(const char*, const char*, const int*, const int*, const void*, const void*, const int*, const int*,    \
                 const int*, const void*, void*, const int*, const int*, const int*);                                   \
  void p##trsm_(const char*, const char*, const char*, const char*, const int*, const int*, const void*, const void*,   \
                const int*, const int*, const int*, void*, const int*, const int*, const int*);
TRN_PBLAS_DECL(ps)
TRN_PBLAS_DECL(pd)
TRN_PBLAS_DECL(pc)
TRN_PBLAS_DECL(pz)
#undef TRN_PBLAS_DECL
}

namespace mpitest {

inline int g_rank = 0, g_size = 1, g_failures = 0;

inline void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_rank, what.c_str());
  }
}

// Every rank returned `expected` (gathered, so a rank that returned something else is named).
inline void check_all_ranks(int status, int expected, const std::string& what) {
  std::vector<int> all(static_cast<std::size_t>(g_size));
  MPI_Allgather(&status, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < g_size; ++r)
    check(all[static_cast<std::size_t>(r)] == expected,
          what + ": rank " + std::to_string(r) + " returned " + std::to_string(all[static_cast<std::size_t>(r)]) +
              ", expected " + std::to_string(expected));
}

// A reproducible global matrix (same on every rank): entries in [-1, 1) from an integer hash;
// complex: the imaginary parts from another seed.
inline double hashed(std::size_t i, unsigned seed) {
  std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u + seed * 40503u + 12345u;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return static_cast<double>(x % 2000003u) / 1000001.5 - 1.0;
}
template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
template <class T>
std::vector<T> global_matrix(int rows, int cols, unsigned seed) {
  std::vector<T> g(static_cast<std::size_t>(rows) * cols);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if constexpr (is_complex<T>::value)
      g[i] = T(static_cast<typename T::value_type>(hashed(i, seed)), static_cast<typename T::value_type>(hashed(i, seed + 977)));
    else
      g[i] = static_cast<T>(hashed(i, seed));
  }
  return g;
}

// This process's block-cyclic piece (ScaLAPACK layout, first block on process (0, 0)), lld = local rows.
template <class T>
std::vector<T> local_part(const std::vector<T>& g, int rows, int cols, int mb, int nb, int myrow, int mycol, int nprow,
                          int npcol, int* lrows, int* lcols) {
  const int zero = 0;
  *lrows = numroc_(&rows, &mb, &myrow, &zero, &nprow);
  *lcols = numroc_(&cols, &nb, &mycol, &zero, &npcol);
  std::vector<T> l(static_cast<std::size_t>(std::max(*lrows, 1)) * std::max(*lcols, 1));
  for (int jl = 0; jl < *lcols; ++jl)
    for (int il = 0; il < *lrows; ++il) {
      const int ig = (il / mb * nprow + myrow) * mb + il % mb, jg = (jl / nb * npcol + mycol) * nb + jl % nb;
      l[static_cast<std::size_t>(il) + static_cast<std::size_t>(jl) * std::max(*lrows, 1)] =
          g[static_cast<std::size_t>(ig) + static_cast<std::size_t>(jg) * rows];
    }
  return l;
}

inline void grid_shape(int p, int* nprow, int* npcol) {
  *nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) *nprow = r;
  *npcol = p / *nprow;
}

// test_blasmp_l3.cpp: op T / C and complex GEMM, SYRK, GEADD / TRADD, TRSM.
void run_level3_tests();
// test_solvermp.cpp: trnsolverMp Potrf / Potrs.
void run_solver_tests();

}  // namespace mpitest
