// trnblas C++ API: GEMM and SYRK as tile kernels on the emulated NeuronCore, in every Trainium
// precision mode. Column-major, BLAS conventions (C = alpha op(A) op(B) + beta C). The C API
// (trnblas.h) is a thin shim over this header.
//
// Modes and where their arithmetic happens (docs/trnblas.md):
//   fp32               fp32 tiles, TensorE fp32 (4-pass cost), exact products, fp32 PSUM
//   tf32/fp16/bf16/fp8 inputs rounded to the type by the DMA (RNE), fp32 PSUM
//   bf16x3/x6/x9       fp32 inputs split on VectorE into 2 or 3 bf16 terms; the cross products
//                      accumulate in one fp32 PSUM group, smallest terms first
//   fp64 (Ozaki)       fp64 inputs scaled to integers on the host (per row of op(A), per column of
//                      op(B), after balancing the contraction index); scheme II (default): residues
//                      modulo up to 28 moduli <= 256 as int8-valued bf16 tiles, one exact TensorE
//                      GEMM per modulus and <= 1024-deep K chunk, CRT reconstruction in fp64 on the
//                      host; scheme I: 8-bit slices, one exact GEMM per slice pair and <= 256-deep
//                      K chunk, fp64 reconstruction on the host (src/ozaki.hpp, docs/trnblas.md)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trn::blas {

enum class Op : std::uint8_t { N, T };
enum class Uplo : std::uint8_t { lower, upper };

enum class GemmMode : std::uint8_t {
  fp32,         // COMPUTE_32F / _PEDANTIC
  tf32,         // COMPUTE_32F_FAST_TF32
  fp16,         // COMPUTE_32F_FAST_16F
  bf16,         // COMPUTE_32F_FAST_16BF
  fp8_e4m3,     // extension: inputs rounded to Neuron's IEEE-style e4m3
  fp8_e5m2,     // extension
  bf16x3,       // extension: PSUM-compensated, 3 cross products
  bf16x6,       // extension: 6 cross products
  bf16x9,       // COMPUTE_32F_EMULATED_16BFX9
  fp64_ozaki,   // COMPUTE_64F / _64F_EMULATED_FIXEDPOINT (no NeuronCore engine computes in fp64)
  native,       // inputs used in their stored dtype (GemmEx with bf16/fp16/fp8 A and B)
};
const char* gemm_mode_name(GemmMode m);

// fp64 emulation scheme (docs/trnblas.md, fp64): II = CRT residues (Ozaki, Uchino, Imamura,
// arXiv:2504.08009; GEMMul8), I = 8-bit slices (Ozaki et al., Numer. Algorithms 59, 2012).
enum class OzakiScheme : std::uint8_t { crt, slices };
const char* ozaki_scheme_name(OzakiScheme s);

// fp64 Level 1/2 products (dot, asum, nrm2, gemv, symv, trmv, trsv's updates, ...: docs/trnblas.md
// "fp64 Levels 1 and 2"): slice_pairs = every 8-bit slice pair of x and of op(A)'s columns in one
// exact TensorE GEMM per <= 256-deep chunk and one exact fold on the host; ozaki_gemm = the Ozaki
// DGEMM of s.ozaki_scheme (1 x n x k). automatic: the plan's rule (plan_fp64_vector).
enum class Fp64VectorAlgorithm : std::uint8_t { automatic, slice_pairs, ozaki_gemm };
const char* fp64_vector_algorithm_name(Fp64VectorAlgorithm a);

// Emulator and algorithm settings (the handle's state in the C API).
// Settings::dgemm_dot2_max_macs of a caller's own fp64 BLAS calls (the C API, the BLAS shim): where
// Dot2's modeled time meets the Ozaki scheme's (docs/trnblas.md "Small DGEMMs: Dot2 on GpSimdE").
inline constexpr std::int64_t kDot2MaxMacs = 512;

struct Settings : EmulatorSettings {  // target, numerics, SR, cores, threads, timing_only
  OzakiScheme ozaki_scheme = OzakiScheme::crt;  // trnsci extension: trnblasSetFixedPointEmulationScheme
  int ozaki_max_mantissa_bits = 0;  // 0: automatic; else cap on the mantissa bits kept (dynamic control)
  int ozaki_mantissa_bit_offset = 0;  // added to the automatic bit count (cuBLAS "offset", e.g. -8)
  bool ozaki_fixed = false;         // fixed control: use exactly ozaki_max_mantissa_bits (if > 0)
  bool ozaki_special_values = true; // propagate Inf/NaN like IEEE fp64 (elements touched by them)
  Fp64VectorAlgorithm fp64_vector = Fp64VectorAlgorithm::automatic;  // fp64 Level 1/2 products
  // fp64 slice products (Ozaki scheme I, the Level 1/2 slice pairs): true cuts the 8-bit slices on
  // the host (the loop before issue #27) instead of on GpSimdE / VectorE; the bits are the same, the
  // modeled time is not (docs/trnblas.md "Slicing on the device"). For comparison and tests.
  bool fp64_host_slicing = false;
  // Ozaki scheme II: true runs the residues, the fold mod p and the CRT reconstruction as host steps
  // (before issue #30) instead of GpSimdE operators; the bits are the same, the modeled time is not
  // (docs/trnblas.md "Scheme II on the engines"). For comparison and tests.
  bool ozaki2_host_steps = false;
  // Ozaki scheme II: a call whose CRT steps handle fewer than this many elements -- the residues of
  // op(A) and op(B) and the outputs folded and reconstructed, k (m + n) + m n -- keeps them as costed
  // host steps (as ozaki2_host_steps does): below it the three or four GpSimdE launches cost the
  // emulator more host time than the steps' own work (Dgemm 16^3: 66 -> 170 us per call). The bits
  // are the same either way; the modeled time is not (docs/trnblas.md "Scheme II on the engines",
  // where the default is measured). 0: the device steps at every size.
  std::int64_t ozaki2_device_min_elements = 16384;
  // Small fp64 GEMMs (dgemm and the Level 3 routines built on it; automatic Ozaki control, scheme II):
  // with m <= 128 rows and at most this many multiply-adds on the busiest GpSimd partition (row i of
  // op(A) against a block of op(B)'s columns), C is computed by compensated dot products (Dot2:
  // twice the working precision, then rounded) as one GpSimdE software-fp64 operator instead of the
  // Ozaki scheme's dozens of TensorE passes and host steps (docs/trnblas.md "Small DGEMMs: Dot2 on
  // GpSimdE"). 0: the Ozaki scheme at every size.
  // The kit's default is 0: fp64 products inside the libraries (trnsolver's factorizations, trnfft,
  // trnsparse, the distributed grids) keep the Ozaki scheme, whose bits do not depend on how a
  // caller splits the work into products -- Dot2 is chosen by each product's size, so a dgetrf on a
  // 2 x 1 grid would otherwise round differently from the same dgetrf on one rank. The caller's own
  // BLAS calls take kDot2MaxMacs: the C API (but EMULATION_STRATEGY_EAGER: 0) and the BLAS shim.
  std::int64_t dgemm_dot2_max_macs = 0;
  // fp32 TRSM: false (default) inverts each 128 x 128 diagonal block once and applies it as a
  // TensorE GEMM (error bounded by the blocks' conditioning); true solves every right-hand side by
  // substitution on VectorE (componentwise bound, ~20x the VectorE time). docs/trnblas.md "TRSM".
  bool trsm_substitution = false;
  // fp32 TRSM that is one piece of a larger solve (a rank's columns of a distributed panel, one
  // process row's block row): the whole solve's right-hand sides. The algorithm -- the narrow kernel
  // (<= kTrsmNarrowMaxRhs), block inverses (more than the block size) or substitution -- is then
  // chosen from this count (or the call's own, if larger) instead of the call's own, so every split
  // of the solve rounds alike: each right-hand side's arithmetic does not depend on the others'
  // (docs/scale-out.md "Choices by size"). 0: the call's own count.
  std::int64_t trsm_whole_rhs = 0;
  // CallReport without the modeled profile (trace and counters only): for callers that append
  // the trace to a larger one and model that once (the model costs host time per instruction).
  bool report_trace_only = false;
};

// What the last call did, for profiles and tests: the one trn::Report (profile, merged trace of
// every kernel launched by the call, the GEMM plan(s) that ran, printed) and trnblas's counters.
struct CallReport : Report {
  std::int64_t tensor_passes = 0;  // nc_matmul instructions issued
  int ozaki_slices_a = 0, ozaki_slices_b = 0, ozaki_products = 0;
  int ozaki_mantissa_bits = -1;    // bits of each input represented (-1: not an Ozaki call)
  OzakiScheme ozaki_scheme = OzakiScheme::crt;
  int ozaki_moduli = 0;            // scheme II: moduli (one TensorE GEMM each per K chunk)
  int ozaki_k_chunks = 0;          // K chunks (PSUM flushes) per product
  std::int64_t ozaki_host_fallback = 0;  // II: outputs recomputed on the host (lost terms, ozaki.hpp)
  bool ozaki_capped = false;       // the automatic precision hit the work cap (ozaki_cap_note says why)
  std::string ozaki_cap_note;      // one line for the log when ozaki_capped

  // Builds the report from the call's merged trace (trn::finish_report under s: its target, its
  // cores, report_trace_only) and counts the trace's nc_matmul instructions.
  void finish(const Settings& s, Trace&& t);
};

// A strided column-major matrix operand: element (i, j) at data[i + j * ld], type dtype.
struct MatrixRef {
  const void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t ld = 0;
};
struct MutableMatrixRef {
  void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t ld = 0;
};

// C = alpha op(A) op(B) + beta C. op(A) is m x k, op(B) k x n, C m x n; A, B, C of any core dtype
// (C: f32, bf16 or f16 in the C API). alpha and beta are applied in fp32 (32F compute types).
// beta == 0 never reads C; alpha == 0 or k == 0 never reads A or B; m == 0 or n == 0 is a no-op.
// mode must not be fp64_ozaki (use dgemm). Throws trn::Error on invalid arguments (the C API
// validates first and never throws).
void gemm(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
          float alpha, MatrixRef A, MatrixRef B, float beta, MutableMatrixRef C, CallReport* report = nullptr);
// The modeled time (ns, on s.target) of one such gemm, predicted before any data exists: the same
// launch run timing-only (s.timing_only; placeholder operand addresses, nothing read or written) and
// scheduled by the cost model. The sub-GEMM predictor of the libraries' plans (trnsolver's QrPlan,
// docs/cost-model.md section 8). alpha and beta as the call's (alpha == 1 skips the scaling, beta == 0
// does not read C).
double predict_gemm_ns(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                       float alpha, float beta);
// The same for syrk (the lower triangle; the upper costs the same).
double predict_syrk_ns(const Settings& s, GemmMode mode, Op trans, std::int64_t n, std::int64_t k, float alpha,
                       float beta);
// fp64 (Ozaki, s.ozaki_scheme): dgemm run timing-only on synthetic well-scaled operands (1 and 2
// alternating along every line: rms-to-mean ratio in (1, 2], no exponent spread, as random data of
// one magnitude): the automatic precision then asks 55 mantissa bits, the moduli (II) or slices (I)
// count of such data. Heavy-tailed lines (rms-to-mean > 2), exponent spread across a line or a
// balancing that amplifies a line ask more (ozaki.hpp), and lost-term or special-value
// recomputations are data dependent: none is priced. predict_dsyrk_ns: dsyrk's one Ozaki product.
double predict_dgemm_ns(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                        double beta);
double predict_dsyrk_ns(const Settings& s, Op trans, std::int64_t n, std::int64_t k, double alpha);
// The same for a batch of independent problems of one shape (one launch; grid axis 2 = batch).
void gemm_batched(const Settings& s, GemmMode mode, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                  float alpha, const std::vector<MatrixRef>& A, const std::vector<MatrixRef>& B, float beta,
                  const std::vector<MutableMatrixRef>& C, CallReport* report = nullptr);

// fp64 C = alpha op(A) op(B) + beta C by the Ozaki scheme s.ozaki_scheme (II, CRT, by default; I,
// slices) on bf16 TensorE tiles (no NeuronCore engine computes in fp64): scaling, residues or
// slices, reconstruction and the alpha/beta epilogue run in fp64 on the host side of the kernel;
// every integer product runs on the emulated TensorE and is exact (src/ozaki.hpp).
void dgemm(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
           const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
           std::int64_t ldc, CallReport* report = nullptr);

// C = alpha op(A) op(A)^T + beta C on the `uplo` triangle only (n x n); op(A) is n x k
// (trans N: A is n x k; trans T: A is k x n). The other triangle is neither read nor written.
void syrk(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
          MatrixRef A, float beta, MutableMatrixRef C, CallReport* report = nullptr);
void dsyrk(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
           std::int64_t lda, double beta, double* C, std::int64_t ldc, CallReport* report = nullptr);

// What the Ozaki scheme of s.ozaki_scheme does for these inputs (exposed for tests and docs; the
// rules are in src/ozaki.hpp). Scheme I: 8-bit slices, enough that every element of op(A) and op(B)
// is represented exactly and every dropped cross term lies below 2^-56 of the smallest nonzero
// product scale, at most kOzakiMaxSlices when automatic. Scheme II: the fewest moduli whose product
// M holds the scaled integer product (|C'| < M/2) with mantissa_bits kept for the largest element of
// each row/column, at most kOzakiMaxModuli. Both capped or fixed by the mantissa knobs.
struct OzakiPlan {
  OzakiScheme scheme = OzakiScheme::crt;
  int slices = 0;         // scheme I: per operand
  int moduli = 0;         // scheme II
  int products = 0;       // TensorE GEMMs per K chunk: slice pairs (s, t) with s + t < slices, or moduli
  int k_chunks = 0;       // K chunks per product (PSUM flushes)
  int mantissa_bits = 0;  // I: 8 * slices; II: bits kept for the largest element of a row/column
  bool capped = false;    // the automatic count exceeded the cap and was clamped (accuracy reduced)
  int wanted = 0;         // the automatic count before the cap (slices or moduli)
  bool reduced = false;   // II: the knobs asked for fewer bits than automatic (no lost-term fallback)
  std::int64_t fallback_outputs = 0;  // II: outputs recomputed on the host (ozaki.hpp, Limits)
  std::int64_t fallback_skipped = 0;  // II: outputs past the fallback budget, left as computed
};
constexpr int kOzakiMaxSlices = 24;  // scheme I, automatic: at most 300 slice products per K chunk
constexpr int kOzakiMaxModuli = 28;  // scheme II: the moduli table (products of up to 28 moduli < 2^215)
// Scheme II: the mantissa bits that `moduli` moduli keep for contraction length k (the fixed
// mantissa control with this count selects exactly that many moduli).
int ozaki_crt_mantissa_bits(int moduli, std::int64_t k);

// The fp64 Level 1/2 product y^T = alpha x^T op(B) + beta y^T (x: k, op(B): k x n) -- which algorithm
// runs and, for slice_pairs, its slices (known after the inputs' exponent scan; 0 before). Rule
// (automatic): slice_pairs for every shape; the cost model's crossover against the Ozaki DGEMM
// (docs/trnblas.md "fp64 Levels 1 and 2") was never reached on the sizes measured.
struct Fp64VectorPlan {
  Fp64VectorAlgorithm algorithm = Fp64VectorAlgorithm::slice_pairs;
  std::int64_t n = 0, k = 0;
  int slices_x = 0, slices_b = 0;  // 8-bit slices of x and of each column of op(B)
  int k_chunks = 0;                // <= 256-deep chunks: one exact GEMM (all slice pairs) each
  bool capped = false;             // an operand's exponent spread asked for more than kVectorMaxSlices
  bool fold_on_device = false;     // the exact fold ran on GpSimdE (trn/blas/fp64_fold_device.hpp)
  std::string why;
  std::string print() const;
};
// Slices per operand of the slice pairs: 8 * 136 = 1088 bits, every element of a line whose exponent
// spread (after the balancing) is at most 1036 binades is represented exactly.
constexpr int kVectorMaxSlices = 136;
Fp64VectorPlan plan_fp64_vector(const Settings& s, std::int64_t n, std::int64_t k);
OzakiPlan plan_ozaki(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, Op ta, Op tb, const double* A,
                     std::int64_t lda, const double* B, std::int64_t ldb);

}  // namespace trn::blas
