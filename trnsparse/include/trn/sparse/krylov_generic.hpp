// trnsparse Krylov solvers on CSR operators of every generic value type (extension, issue #28):
// CG, BiCGStab and restarted GMRES(m) for A x = b with A a square CSR matrix of fp32, fp64,
// complex-fp32 or complex-fp64 values, unpreconditioned, Jacobi-, ILU(0)- or IC(0)-preconditioned.
//
// Algorithm   The three recurrences of krylov.cpp (the fp32 BSR solvers; docs/trnsparse.md
//             "Krylov solvers"), generalised to complex values by conjugating the first argument of
//             every inner product, (u, v) = sum conj(u_i) v_i:
//             CG       Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., Alg. 9.1
//                      (preconditioned CG), for Hermitian / symmetric positive definite A and M;
//             BiCGStab van der Vorst, SIAM J. Sci. Stat. Comput. 13(2), 1992, right preconditioning,
//                      r^ = r_0;
//             GMRES(m) Saad Alg. 6.9 with the right preconditioning of §9.3.2, modified Gram-Schmidt,
//                      complex Givens rotations (c real, s complex: Saad §6.5.9; Golub & Van Loan,
//                      Matrix Computations, 4th ed., §5.1.13).
//             Preconditioners: Jacobi (z = D^-1 r), ILU(0) (M = L U from trnsparse's csrilu02,
//             trn/sparse/incomplete.hpp, applied as two SpSV solves L y = r, U z = y through
//             trn/sparse/triangular.hpp) and IC(0) (M = L L^H from csric02, applied as L y = r,
//             L^H z = y: SpSV with op N, then op C / T on the same lower triangle).
// Engines     q = A p is trnsparse's own SpMV in the operator's format and type, the path the C
//             API's trnsparseSpMV takes: the TensorE tile path for fp32 (sparse.hpp spmv, CSR or
//             BSR), the TensorE 2 x 2 real embedding for complex-fp32 (generic.hpp spmm_c32, CSR
//             or BSR), the Ozaki block-row GEMMs for fp64 / complex-fp64 BSR (spmm_fp64) and
//             spmv_host (generic.hpp: TensorE row groups through trnblas) for
//             fp64 / complex-fp64 CSR — whatever that entry runs on,
//             these solvers run on. The preconditioner solves are SpSV's
//             (triangular_solve: on the engines by level sets, fp64 / complex-fp64 through the
//             segmented slice-pair products). The dots, norms, scalar recurrences and
//             vector updates of one iteration run as a few fused costed host steps
//             ("trnsparse.krylov.*", trn/core/host_step.hpp) with fp64 (complex<double>)
//             arithmetic, the vectors stored in the operator's type (fp32 / complex-fp32 rounded
//             once per update). Why not VectorE (as the fp32 BSR solvers): no engine computes in
//             fp64 or complex, and the SpMV / SpSV of these types cross the host link every
//             iteration already, so the vectors are on the host side of the link anyway;
//             putting the complex-fp32 updates on VectorE (real and imaginary planes) would add a
//             launch and a link crossing per update and is not built.
// Accuracy    Iterative: the contract is the stopping test, ||r_k|| <= tol ||b|| on the recursively
//             updated residual (CG, BiCGStab) or on the true residual recomputed at a restart
//             (GMRES). The true residual of the returned x differs from the recursive one by the
//             rounding gap, bounded by ~ c k u (||A|| ||x|| + ||b||) after k steps (Greenbaum,
//             Iterative Methods for Solving Linear Systems, §7.3), u the storage unit roundoff
//             (2^-53 fp64, 2^-24 fp32); the solution error is then at most
//             kappa(A) (tol + c k u kappa(A)) ||x|| in the 2-norm. Tests: docs/trnsparse.md.
// Limits      CSR or BSR operators (ILU(0) / IC(0) need CSR; CSC / COO: convert first); sorted
//             strictly increasing columns in each row (cuSPARSE's csrilu02 rule) when
//             preconditioned by ILU(0) / IC(0); int32 indices of the factor (nnz < 2^31). Every
//             stop is bounded: max_iterations (GMRES: Arnoldi steps) or a breakdown test; a
//             non-finite scalar (NaN / Inf in b, A or an overflow) stops the solve as a breakdown
//             with `nonfinite` set before it reaches x. Core count: no launch of these solvers
//             depends on it (the host steps are one thread; the SpMV / SpSV entries are
//             deterministic across core counts), tested.
#pragma once
#include <cstdint>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

enum class KrylovPreconditioner : std::uint8_t { none, jacobi, ilu0, ic0 };

struct GenericKrylovOptions {
  int max_iterations = 1000;
  double tolerance = 1e-10;  // stop when ||r_k|| <= tolerance * ||b||
  KrylovPreconditioner precond = KrylovPreconditioner::none;
  int restart = 30;          // GMRES: Krylov vectors per cycle, >= 1
  // R_32F only: the solver's vectors stored in bf16 — every vector update (x, r, p, s, v_j, ...;
  // not the SpMV / preconditioner outputs) rounded to bf16 after its fp64 arithmetic, nearest-even,
  // or stochastically when Settings::stochastic_rounding is set (bits keyed by Settings::sr_seed
  // and the update number: reproducible for a seed). docs/trnsparse.md "bf16 vectors and SR".
  bool bf16_vectors = false;
};

// x holds the initial guess on entry and the solution on exit (A.value elements, A.rows of them);
// b likewise. A: format csr, square. Throws InvalidArgument ("matA": zero diagonal with Jacobi,
// a zero pivot of the incomplete factorization, not square; "vector": NULL b / x; index items).
// x is written once, at the end (untouched when an exception leaves).
KrylovResult cg(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt);
KrylovResult bicgstab(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt);
KrylovResult gmres(const Settings& s, const SparseRef& A, const void* b, void* x, const GenericKrylovOptions& opt);

// The same solvers on a square BSR operator (any rb x cb blocks, either block order) of `value`
// values (A.value_type is ignored, as spmm_fp64 / spmm_c32 do): precond none or Jacobi (the
// diagonal read from the blocks; a zero one is InvalidArgument "matA"); ILU(0) / IC(0) take CSR
// (InvalidArgument "matA"). The fp32 BSR solvers of krylov.hpp (tiles on VectorE, block Jacobi)
// stay the C API's R_32F BSR path; these serve R_64F, C_32F and C_64F BSR (issue #28, s10/spgaps).
KrylovResult cg(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt);
KrylovResult bicgstab(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt);
KrylovResult gmres(const Settings& s, const BsrView& A, Value value, const void* b, void* x, const GenericKrylovOptions& opt);

}  // namespace trn::sparse
