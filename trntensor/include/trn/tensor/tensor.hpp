// trntensor C++ API: tensor contractions D = alpha A B + beta C with mode labels (cuTENSOR 2.x
// semantics) and NumPy einsum with a path planner, lowered onto trnblas's tile GEMMs.
//
// Every flop runs in a trnblas tile kernel on the emulated TensorE (trn::blas::gemm_batched for the
// fp32-family compute types, trn::blas::dgemm for 64F). Data movement — packing an operand whose
// modes do not collapse into a (ld, op N/T) matrix (TTGT), copying C into D when they differ,
// unpacking a packed D — runs as a DMA kernel on the emulator. docs/trntensor.md describes the
// lowering.
//
// Layout convention: a TensorDesc gives extents and strides in elements, per mode, in the order of
// its mode labels; the default strides (an empty `strides`) are cuTENSOR's generalised column-major
// (first mode fastest). Einsum views follow NumPy instead: shape and strides in elements, default
// C-contiguous (last axis fastest).
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/core/core.hpp"

namespace trn::tensor {

// Element type of tensor data (the host buffers). bf16 and f16 data are used as stored: the DMA
// moves them as 16-bit elements, TensorE multiplies them exactly into fp32 PSUM, and D is rounded
// to its type once (RNE) after alpha and beta are applied in fp32 (cuTENSOR's 16BF/16F data with
// COMPUTE_DESC_32F or the matching 16-bit compute descriptor). c32 / c64 are interleaved complex
// (re, im) pairs of fp32 / fp64 (cuTENSOR's C_32F / C_64F); their products run as trnblas cgemm /
// zgemm (4M: real and imaginary planes as real tile GEMMs on TensorE).
enum class DataType : std::uint8_t { f32, f64, bf16, f16, c32, c64 };
int data_type_size(DataType t);
bool is_complex(DataType t);
const char* data_type_name(DataType t);

// cuTENSOR compute descriptors and the trnblas GEMM mode each one runs as.
enum class ComputeType : std::uint8_t {
  f32,     // COMPUTE_DESC_32F   -> trnblas fp32 (exact products, fp32 PSUM)
  f64,     // COMPUTE_DESC_64F   -> trnblas dgemm (Ozaki slices on bf16 TensorE, fp64 reconstruction)
  bf16,    // COMPUTE_DESC_16BF  -> trnblas bf16 (inputs rounded once to bf16, fp32 PSUM)
  f16,     // COMPUTE_DESC_16F   -> trnblas fp16
  tf32,    // COMPUTE_DESC_TF32  -> trnblas tf32
  tf32x3,  // COMPUTE_DESC_3XTF32 -> A, B split into tf32 big + small on VectorE, three trnblas tf32 GEMMs
  bf16x9,  // COMPUTE_DESC_9X16BF -> trnblas bf16x9 (three-term split, 9 cross products)
};
const char* compute_type_name(ComputeType c);
// The trnblas mode of a fp32-family compute type (not for f64; tf32x3 runs three tf32 GEMMs).
blas::GemmMode gemm_mode(ComputeType c);
// Data types a compute type accepts (cuTENSOR's table): f64 with 64F; f32 with every other; bf16
// with 32F and 16BF; f16 with 32F and 16F; c32 with 32F, TF32 and 3XTF32; c64 with 64F.
bool compatible(DataType d, ComputeType c);

// Invalid input (a mode, extent, stride or string that cannot be right): core's one exception for
// it. `what()` names the offending operand and mode label or character; `position()` is a 0-based
// character position for einsum strings (-1 otherwise).
using trn::InvalidArgument;

// A tensor's layout: one extent and one stride (in elements, may be 0 for broadcast) per mode.
struct TensorDesc {
  std::vector<std::int64_t> extents;
  std::vector<std::int64_t> strides;  // empty: packed, first mode fastest
  DataType dtype = DataType::f32;
};
// Strides of a packed generalised column-major tensor (first mode fastest).
std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& extents);
// The desc with its strides filled in (packed when empty). Throws InvalidArgument on negative
// extents or a stride list of the wrong length.
TensorDesc normalized(TensorDesc d, std::string_view operand);

// D[modes_d] = alpha A[modes_a] B[modes_b] + beta C[modes_c].
// Rules (cuTENSOR 2.x): C and D carry the same modes with the same extents (strides may differ;
// D may alias C only with C's layout); every mode of D appears in A or B; a mode's extent agrees
// across operands; a mode appears at most once per tensor. A mode of A absent from B and D (or of
// B absent from A and D) is summed over, as cuTENSOR does.
// conj_a / conj_b (cuTENSOR's OP_CONJ on A / B) conjugate a complex operand (no-ops on real data):
// such an operand reaches the complex GEMM as op C (conjugate transpose), packed transposed when
// its strides do not give op T directly.
struct ContractionSpec {
  TensorDesc a, b, c, d;
  std::vector<std::int32_t> modes_a, modes_b, modes_c, modes_d;
  ComputeType compute = ComputeType::f32;
  bool conj_a = false, conj_b = false;
};

// How one operand reaches the GEMM.
struct OperandLowering {
  bool packed = false;        // TTGT: permuted into a packed workspace buffer first (DMA kernel);
                              // packed [rows, cols] with op N, or [cols, rows] with op T (conjugated complex)
  blas::Op op = blas::Op::N;  // op applied by the GEMM (op T on a conjugated operand is op C)
  std::int64_t ld = 0;
  std::int64_t packed_elements = 0;  // per batch entry x batch count, when packed
};

enum class Lowering : std::uint8_t {
  transpose_free,  // every operand maps onto (ld, op N/T) directly: no data movement (TBLIS-style)
  ttgt,            // at least one operand is permuted into a packed buffer (transpose-transpose-GEMM-transpose)
};
const char* lowering_name(Lowering l);

// A planned contraction: mode classification, chosen matrix orientation and per-operand lowering.
class ContractionPlan {
 public:
  ContractionPlan() = default;
  // Validates the spec (throws InvalidArgument / NotSupportedError) and chooses the lowering that
  // moves the fewest elements, or, when `model` is given (fp32-family compute on real data), the
  // candidate lowering of least modeled device time on model->target (each candidate estimated by
  // a timing-only run; ties: fewer moved elements).
  explicit ContractionPlan(const ContractionSpec& spec, const blas::Settings* model = nullptr);

  std::int64_t m() const { return m_; }
  std::int64_t n() const { return n_; }
  std::int64_t k() const { return k_; }
  std::int64_t batch() const { return batch_; }
  double flops() const { return 2.0 * static_cast<double>(m_) * static_cast<double>(n_) * static_cast<double>(k_) * static_cast<double>(batch_); }
  Lowering lowering() const;
  bool swapped() const { return swapped_; }  // GEMM computes D^T = B^T A^T (D's N modes are its unit-stride modes)
  const OperandLowering& lowering_a() const { return low_[0]; }
  const OperandLowering& lowering_b() const { return low_[1]; }
  const OperandLowering& lowering_d() const { return low_[2]; }
  // Workspace the execution needs (packed operands), in bytes; 0 when transpose-free.
  std::uint64_t workspace_bytes() const;
  const ContractionSpec& spec() const { return spec_; }
  // "ab,bc->ac: transpose-free, M=..,N=..,K=..,batch=.., op A=N ld=.., ..., 2.1e+06 flop" plus the
  // modeled time when `profile` is given (trn::Plan).
  std::string print(const Profile* profile = nullptr) const;

  // Runs D = alpha A B + beta C. Scalars are fp32 for the fp32-family compute types (alpha and beta
  // are rounded to float), fp64 for 64F; complex for complex data (the imaginary parts of alpha and
  // beta are ignored on real data). `workspace` may be null (then allocated here) or must hold
  // workspace_bytes(). beta == 0 never reads C. C is never written unless it is D.
  void execute(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B,
               std::complex<double> beta, const void* C, void* D, void* workspace, std::uint64_t workspace_size,
               blas::CallReport* report = nullptr) const;

  // Modeled device time of one execution without computing (trace recorded with timing_only).
  // fp32-family compute types on real data only (the Ozaki slice count of 64F depends on the data;
  // trnblas's complex GEMM packs its real representation from the data).
  Profile estimate(const blas::Settings& s) const;

 private:
  struct Mode {
    std::int32_t label = 0;
    std::int64_t extent = 1;
    std::int64_t stride[4] = {0, 0, 0, 0};  // A, B, C, D (0 when absent: broadcast)
  };
  class LoweringSearch;  // the candidate lowerings choose_lowering weighs (contraction.cpp)
  void choose_lowering(const blas::Settings* model);
  void run_gemms(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B,
                 std::complex<double> beta, void* D, void* wsA, void* wsB, void* wsD, blas::CallReport* report) const;

  ContractionSpec spec_;
  std::vector<Mode> modes_;
  std::vector<int> batch_modes_, m_modes_, n_modes_, k_modes_;  // indices into modes_, in chosen order
  std::int64_t m_ = 1, n_ = 1, k_ = 1, batch_ = 1;
  bool swapped_ = false;
  OperandLowering low_[3];  // A, B, D
};

// ---- Padded permutation (padding.cpp; cuTENSOR's OPERATION_DESCRIPTOR_PADDING_*) -----------------
// d with extents e_k + left_k + right_k and its strides, or packed strides over those extents when d
// has none.
TensorDesc padded_layout(const TensorDesc& d, const std::vector<std::int32_t>& left, const std::vector<std::int32_t>& right);
// A permutation spec whose D (and C) is the interior of the padded output: D's extents, the padded
// layout's strides.
ContractionSpec padded_interior(ContractionSpec spec, const std::vector<std::int32_t>& left,
                                const std::vector<std::int32_t>& right);
// B := value over the whole padded tensor (DMA broadcast), then the interior = interior's
// permutation of alpha A (B points at the padded tensor's first element; one: the scalar 1 of the
// plan's B operand). One report for both kernels.
void permute_padded(const blas::Settings& s, const ContractionPlan& interior, const std::vector<std::int32_t>& left,
                    const std::vector<std::int32_t>& right, const void* value, std::complex<double> alpha,
                    const void* one, const void* A, void* B, blas::CallReport* report = nullptr);

// ---- trinary contraction -----------------------------------------------------------------------------

// E[modes_e] = alpha A[modes_a] B[modes_b] C[modes_c] + beta D[modes_d] (cuTENSOR 2.x's trinary
// contraction; D and E carry the same modes, E may alias D). Rules as ContractionSpec: every mode
// of E appears in A, B or C; a mode's extent agrees across operands; a mode appears at most once
// per tensor; a mode in none of E is summed over.
struct TrinarySpec {
  TensorDesc a, b, c, d, e;
  std::vector<std::int32_t> modes_a, modes_b, modes_c, modes_d, modes_e;
  ComputeType compute = ComputeType::f32;
  bool conj_a = false, conj_b = false, conj_c = false;
};

// Lowered to two binary contractions: X = P Q into a packed workspace intermediate, then
// E = alpha X R + beta D, where (P, Q) is the pair of the three operands whose order costs the
// fewest FLOPs (2 m n k batch summed over both steps), ties broken by the smaller intermediate;
// with `model` (fp32-family compute on real data) the order and both steps' lowerings of least
// modeled device time instead.
class TrinaryContractionPlan {
 public:
  TrinaryContractionPlan() = default;
  // Throws InvalidArgument / NotSupportedError.
  explicit TrinaryContractionPlan(const TrinarySpec& spec, const blas::Settings* model = nullptr);
  // Operands of the first step (0 = A, 1 = B, 2 = C); the third joins in the second step.
  std::pair<int, int> first_pair() const { return pair_; }
  const ContractionPlan& first() const { return first_; }
  const ContractionPlan& second() const { return second_; }
  double flops() const { return first_.flops() + second_.flops(); }
  std::int64_t intermediate_elements() const { return x_elements_; }
  std::uint64_t workspace_bytes() const;
  const TrinarySpec& spec() const { return spec_; }
  std::string print() const;  // trn::Plan
  // E = alpha A B C + beta D; scalars as ContractionPlan::execute. `workspace` may be null (then
  // allocated here) or must hold workspace_bytes().
  void execute(const blas::Settings& s, std::complex<double> alpha, const void* A, const void* B, const void* C,
               std::complex<double> beta, const void* D, void* E, void* workspace, std::uint64_t workspace_size,
               blas::CallReport* report = nullptr) const;

 private:
  TrinarySpec spec_;
  std::pair<int, int> pair_{0, 1};
  ContractionPlan first_, second_;
  std::int64_t x_elements_ = 0;
};

// ---- element-wise binary ---------------------------------------------------------------------------

enum class ElementwiseOp : std::uint8_t { add, mul, max, min };

// cuTENSOR 2.x unary operators (the numeric values of cutensorOperator_t), applied to each element of
// an element-wise operand before its scaling (unary.cpp; docs/trntensor.md "Unary operators").
enum class UnaryOp : std::uint8_t {
  identity = 1, sqrt = 2, relu = 8, conj = 9, rcp = 10, sigmoid = 11, tanh = 12, exp = 22, log = 23, abs = 24,
  neg = 25, sin = 26, cos = 27, tan = 28, sinh = 29, cosh = 30, asin = 31, acos = 32, atan = 33, asinh = 34,
  acosh = 35, atanh = 36, ceil = 37, floor = 38, mish = 39, swish = 40, soft_plus = 41, soft_sign = 42
};
bool unary_op_known(int v);
// x := op(x) in place on an fp32 tile; t1..t3: scratch tiles of x's shape.
void apply_unary(NeuronCore& nc, UnaryOp op, const Tile& x, const Tile& t1, const Tile& t2, const Tile& t3);

// D[modes_d] = op(alpha A[modes_a], gamma C[modes_c]) (cuTENSOR's elementwise binary with identity
// unary operators). C and D carry the same modes; A's modes are a subset of D's (A broadcasts along
// the others). fp32 data and the 32F compute type only: VectorE computes in fp32.
struct ElementwiseBinarySpec {
  TensorDesc a, c, d;
  std::vector<std::int32_t> modes_a, modes_c, modes_d;
  ElementwiseOp op = ElementwiseOp::add;
  ComputeType compute = ComputeType::f32;
  UnaryOp op_a = UnaryOp::identity, op_c = UnaryOp::identity;  // applied before alpha / gamma
  bool c_absent = false;  // a permutation with a unary operator: D = alpha op_a(A), C not read (c = d)
};

class ElementwiseBinaryPlan {
 public:
  ElementwiseBinaryPlan() = default;
  explicit ElementwiseBinaryPlan(const ElementwiseBinarySpec& spec);  // throws InvalidArgument / NotSupportedError
  std::int64_t elements() const { return elements_; }
  // A and C are permuted into D's mode order by the DMA kernel, combined on VectorE in [hw.pmax, 512]
  // tiles (alpha A, gamma C, op), and written back by the DMA kernel. Buffers are allocated here.
  void execute(const blas::Settings& s, float alpha, const void* A, float gamma, const void* C, void* D,
               blas::CallReport* report = nullptr) const;

 private:
  ElementwiseBinarySpec spec_;
  std::int64_t elements_ = 0;
};

// ---- element-wise trinary ---------------------------------------------------------------------------

// D[modes_d] = op_abc(op_ab(alpha A[modes_a], beta B[modes_b]), gamma C[modes_c]) (cuTENSOR 2.x's
// elementwise trinary with identity unary operators). C and D carry the same modes; A's and B's modes
// are subsets of D's (broadcast along the others). fp32 data and the 32F compute type only.
struct ElementwiseTrinarySpec {
  TensorDesc a, b, c, d;
  std::vector<std::int32_t> modes_a, modes_b, modes_c, modes_d;
  ElementwiseOp op_ab = ElementwiseOp::add, op_abc = ElementwiseOp::add;
  ComputeType compute = ComputeType::f32;
  UnaryOp op_a = UnaryOp::identity, op_b = UnaryOp::identity, op_c = UnaryOp::identity;  // before the scalings
};

class ElementwiseTrinaryPlan {
 public:
  ElementwiseTrinaryPlan() = default;
  explicit ElementwiseTrinaryPlan(const ElementwiseTrinarySpec& spec);  // throws InvalidArgument / NotSupportedError
  std::int64_t elements() const { return elements_; }
  // A, B and C are permuted into D's mode order by the DMA kernel, combined on VectorE in
  // [hw.pmax, 512] tiles, and written back by the DMA kernel. Buffers are allocated here.
  void execute(const blas::Settings& s, float alpha, const void* A, float beta, const void* B, float gamma,
               const void* C, void* D, blas::CallReport* report = nullptr) const;

 private:
  ElementwiseTrinarySpec spec_;
  std::int64_t elements_ = 0;
};

// The value 1 in data type t (one element): the scalar operand of contractions with a scalar 1
// (reductions, permutations, beta C of an unreached block-sparse block).
const void* one_of(DataType t);

// ---- block-sparse contraction ------------------------------------------------------------------------

// A block-sparse tensor (cuTENSOR 2.x): each mode is cut into sections; only the listed blocks are
// stored, each a dense tensor of its sections' extents at its own address.
struct BlockSparseTensor {
  std::vector<std::vector<std::int64_t>> sections;  // per mode: the extents of its sections
  std::vector<std::vector<std::int32_t>> blocks;    // per stored block: its section coordinate per mode
  std::vector<std::vector<std::int64_t>> strides;   // per stored block (empty: every block packed)
  DataType dtype = DataType::f32;
};
// The dense layout of stored block `b`. Throws InvalidArgument on a bad coordinate.
TensorDesc block_desc(const BlockSparseTensor& t, std::size_t b);

// D = alpha A B + beta C over stored blocks. C and D carry the same modes and the same stored blocks.
struct BlockSparseSpec {
  BlockSparseTensor a, b, c, d;
  std::vector<std::int32_t> modes_a, modes_b, modes_c, modes_d;
  ComputeType compute = ComputeType::f32;
  bool conj_a = false, conj_b = false;
};

// Every stored block of D is one dense contraction per (A block, B block) pair whose section
// coordinates agree on every shared mode and with D's block (in block order: A's, then B's), the
// first with beta C's block, the others accumulating into D's block with beta 1; a D block no pair
// reaches is beta C's block (a contraction with a scalar 1) or, beta == 0, zeros written by the DMA
// kernel. Each distinct block shape is planned once (ContractionPlan: fewest moved elements).
class BlockSparseContractionPlan {
 public:
  BlockSparseContractionPlan() = default;
  explicit BlockSparseContractionPlan(const BlockSparseSpec& spec);  // throws InvalidArgument / NotSupportedError
  const BlockSparseSpec& spec() const { return spec_; }
  std::size_t block_products() const;  // dense contractions per execution
  double flops() const;
  double moved_bytes() const;             // A, B and D blocks read or written once per block contraction
  std::uint64_t workspace_bytes() const;  // the largest of the block plans' workspaces
  std::string print() const;              // trn::Plan
  // Block pointers in each descriptor's block order. `workspace` may be null (then allocated here).
  void execute(const blas::Settings& s, std::complex<double> alpha, const void* const* A, const void* const* B,
               std::complex<double> beta, const void* const* C, void* const* D, void* workspace,
               std::uint64_t workspace_size, blas::CallReport* report = nullptr) const;

 private:
  struct Product {
    std::size_t a, b;  // block indices
    std::size_t plan;  // into plans_
  };
  struct Target {
    std::size_t d;                  // block index of D (and of C)
    std::vector<Product> products;  // empty: D = beta C (plan `scale`) or zeros
    std::size_t scale = 0;
  };
  std::size_t plan_for(const ContractionSpec& cs);
  BlockSparseSpec spec_;
  std::vector<ContractionPlan> plans_;
  std::vector<Target> targets_;
};

// ---- einsum ----------------------------------------------------------------------------------------

// A NumPy-style view: shape and strides in elements (strides empty: C-contiguous, last axis fastest).
struct View {
  const void* data = nullptr;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
};
struct MutableView {
  void* data = nullptr;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
};

enum class PathStrategy : std::uint8_t {
  greedy,   // cheapest pairwise contraction first (FLOPs, then result size)
  optimal,  // exhaustive depth-first search with FLOP pruning (opt_einsum 'optimal'), <= 8 operands
  automatic, // optimal up to 8 operands, dynamic programming up to 14, greedy beyond
  dynamic_programming,  // exact minimum over subsets of operands (O(3^n)), <= 16 operands
};

// What the path planner minimises: opt_einsum's FLOP count, or the modeled device time of the
// pairwise steps, each costed as the transpose-free batched GEMM it lowers to (m = kept indices of
// the first operand only, n = of the second only, k = summed indices, batch = kept shared indices)
// by ContractionPlan::estimate on the model's target and compute type (the 32F GEMM of the same
// shape stands in for 64F and complex compute). The model sees what FLOPs do not: a GEMM whose k
// (or m) under-fills TensorE's 128 rows costs as many passes as a full one, and every step pays
// DMA for its operands and result.
enum class PathObjective : std::uint8_t { flops, modeled_time };
struct PathModel {
  blas::Settings settings;  // target (cost model generation)
  ComputeType compute = ComputeType::f32;
};

// An abstract path problem: index sets of the operands and of the output, index sizes.
struct PathProblem {
  std::vector<std::vector<int>> inputs;  // index labels of each operand (each label once per operand)
  std::vector<int> output;
  std::vector<std::pair<int, std::int64_t>> sizes;  // label -> extent
};

// A contraction order in opt_einsum's linear format: each step contracts positions (i, j) of the
// current operand list (i < j), removes them and appends the result at the end.
struct PathInfo {
  std::vector<std::pair<int, int>> path;
  double naive_flops = 0;       // opt_einsum's count: size(all indices) * (max(1, n-1) + inner)
  double optimized_flops = 0;   // sum over steps of size(union) * (1 + inner)
  double largest_intermediate = 0;  // elements of the largest step result
  int naive_scaling = 0, optimized_scaling = 0;
  double modeled_ns = 0;  // sum of the steps' modeled GEMM times (when planned with a model), ns
  std::string path_string() const;  // "[(1, 3), (0, 2), (0, 2), (0, 1)]"
};
// Plans with `objective`; `model` (optional; default trn1, 32F) prices steps for the modeled_time
// objective and fills PathInfo::modeled_ns whenever given. The greedy strategy always ranks pairs
// by opt_einsum's greedy cost (the objective applies to optimal and dynamic programming).
PathInfo plan_path(const PathProblem& p, PathStrategy strategy, PathObjective objective = PathObjective::flops,
                   const PathModel* model = nullptr);

// A parsed einsum expression with its operands' shapes bound.
struct EinsumExpr {
  std::vector<std::vector<int>> inputs;   // labels per operand axis (repeated labels kept: diagonals)
  std::vector<int> output;                // output labels
  std::vector<std::pair<int, std::int64_t>> sizes;
  std::vector<std::int64_t> output_shape;
};
// Parses `subscripts` (a-zA-Z labels, ',', '->', '...', spaces) against the operand shapes: NumPy
// rules for implicit output (ellipsis axes, then the labels that appear once, sorted), ellipsis
// broadcasting (right-aligned, extent 1 broadcasts), repeated labels (diagonal / trace). Throws
// InvalidArgument whose position() is the offending character.
EinsumExpr parse_einsum(std::string_view subscripts, const std::vector<std::vector<std::int64_t>>& shapes);

// The plan einsum ran (trn::Plan): the contraction path and each pairwise step's ContractionPlan.
//   "einsum plan: path [(1, 3), ...]; naive 2.387e+08 FLOPs -> optimised 8.000e+04; largest
//    intermediate 1872" followed by one line per step (lowering, GEMM shape, modeled time).
struct EinsumPlan {
  PathInfo path;
  std::vector<std::string> steps;  // each pairwise contraction's ContractionPlan::print(&its profile)
  // Modeled time predicted before the run: the sum of the steps' GEMM estimates (PathInfo::modeled_ns,
  // docs/cost-model.md section 8); -1: not predicted (64F or complex compute, a single operand).
  double predicted_ns = -1;
  std::string print() const;
};

// What einsum did: the one trn::Report (merged trace of every kernel -- GEMMs, DMA packing -- its
// modeled profile, and EinsumPlan::print() as the plan text) with the plan's path and steps.
struct EinsumReport : blas::CallReport {
  PathInfo path;
  std::vector<std::string> steps;
};

// out = einsum(subscripts, inputs...) with NumPy semantics. Every operand and the output hold
// `dtype` elements; the output view's shape must equal the result's shape. Intermediates live in
// host buffers allocated here. A single operand (transpose, trace, sum) is contracted with a
// scalar 1 so that it also runs as a GEMM.
// `objective` modeled_time plans the path by modeled device time on s.target (see PathObjective)
// and each pairwise step's lowering by modeled time as well.
void einsum(const blas::Settings& s, std::string_view subscripts, const std::vector<View>& inputs,
            const MutableView& out, DataType dtype, ComputeType compute, PathStrategy strategy = PathStrategy::automatic,
            EinsumReport* report = nullptr, PathObjective objective = PathObjective::flops);

// ---- fused DF-MP2 (extension) -------------------------------------------------------------------------

enum class Mp2Precision : std::uint8_t {
  fp32,    // fp32 B tiles, exact products, fp32 PSUM
  bf16,    // B rounded once to bf16 (the warning case: ~1e-3 relative energy)
  bf16x3,  // B split into bf16 hi + lo on VectorE; hi.hi + hi.lo + lo.hi in one PSUM group
  bf16x6,  // three bf16 terms; the 6 products with term-index sum <= 2
};
const char* mp2_precision_name(Mp2Precision p);

// Closed-shell DF-MP2 correlation energy
//   E = sum_ij sum_ab (ia|jb) [2 (ia|jb) - (ib|ja)] / (e_i + e_j - e_a - e_b),  (ia|jb) = sum_Q B^Q_ia B^Q_jb,
// from B (row-major [naux][nocc][nvir], fp32) and orbital energies (fp32), as one fused tile kernel
// (one program per (i, j); the integral block stays in PSUM/SBUF, never in HBM). The nocc^2 pair
// energies are summed on the host in fp64. nvir <= hw.pmax. Throws InvalidArgument /
// NotSupportedError.
double dfmp2_energy(const blas::Settings& s, std::int64_t naux, std::int64_t nocc, std::int64_t nvir, const float* B,
                    const float* e_occ, const float* e_vir, Mp2Precision precision, blas::CallReport* report = nullptr);

}  // namespace trn::tensor
