// trnsparse drivers: argument checks, index validation and decoding (0-based int64 patterns),
// operand views, launches and the call report; the conversions CSR <-> BSR and dense -> BSR. The
// tile kernels are in bsr_kernels.cpp. Host work here is index bookkeeping only: no floating-point
// arithmetic on values (conversions copy values; dense_to_bsr compares magnitudes).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <string>

#include "bsr_kernels.hpp"
#include "generic_detail.hpp"
#include "prepared_operand.hpp"
#include "spgemm_blocks.hpp"
#include "trn/core/c_shim.hpp"
#include "trn/sparse/sparse.hpp"

namespace trn::sparse {

// csr_to_bsr into a value array that is already all zero (no block memsets) when zeroed_written is
// not null; the byte offset of every entry written is then appended to it (the CSR SpMM's
// conversion, ZeroedValues below). trusted: csr was validated and bsr_offsets are csr_to_bsr_nnz's
// for it (the CSR SpMM's conversion): the second validation and the offsets check are skipped
// (host work only; each was an O(nnz) pass over the pattern per conversion).
FillReport csr_to_bsr_into(const CsrView& csr, std::int64_t block_dim, BlockOrder order, IndexBase out_base,
                           const void* bsr_offsets, IndexType out_index, void* bsr_columns, void* bsr_values,
                           std::vector<std::int64_t>* zeroed_written, bool trusted = false);

// csr_to_bsr_nnz's block row offsets without its validation of csr (the caller validated it: the
// CSR SpMM's conversion, after CsrTileOperand's validate, so the pattern is not checked twice).
// File-local on purpose: on an unvalidated pattern block_columns would index past its marks.
static std::int64_t csr_block_offsets(const CsrView& csr, std::int64_t block_dim, IndexBase out_base, void* bsr_offsets,
                               IndexType out_index);

namespace {

using detail::BlockPattern;
using detail::CsrPattern;

[[noreturn]] void invalid(const std::string& what, const std::string& item) {
  throw InvalidArgument("trnsparse: " + what, item);
}

std::int64_t load_index(const void* p, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(p)[i]} : static_cast<const std::int64_t*>(p)[i];
}
void store_index(void* p, IndexType t, std::int64_t i, std::int64_t v) {
  if (t == IndexType::i32) {
    if (v > std::numeric_limits<std::int32_t>::max()) invalid("index does not fit in 32 bits", "index type");
    static_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(v);
  } else {
    static_cast<std::int64_t*>(p)[i] = v;
  }
}
std::int64_t base_of(IndexBase b) { return b == IndexBase::one ? 1 : 0; }

bool value_dtype_ok(DType t) { return t == DType::f32 || t == DType::bf16 || t == DType::f16; }

// Whether offsets and columns of types O and C pass every check of validate_compressed below (the
// offsets' first entry already checked), without a branch per entry: the offsets monotone and ending
// at nnz; each non-empty row's first column >= base and last < cols + base; and every place where the
// column array does not increase (counted over the whole array in one vectorisable pass) a row's
// first entry -- so each row increases strictly, hence stays in range. validate_compressed's loops,
// which name the first fault, run only when this fails (issue #30: they tested the index type and
// the row's first entry per entry, ~15 host instructions an entry, four times a SpGEMM or csrgeam2
// call).
template <class O, class C>
bool compressed_ok(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const O* __restrict off, const C* __restrict col,
                   std::int64_t b) {
  // Monotone offsets from off[0] = b (checked) and off[rows] - b = nnz keep every offset in [b, nnz + b]:
  // no subtraction below is taken on an unchecked offset (int64 offsets could be INT64_MIN).
  bool bad = false;
  for (std::int64_t r = 0; r < rows; ++r) bad |= off[r + 1] < off[r];
  if (bad || std::int64_t{off[rows]} - b != nnz) return false;
  std::int64_t row_starts = 0;  // non-empty rows after the first entry whose first column does not exceed the one before
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t lo = std::int64_t{off[r]} - b, hi = std::int64_t{off[r + 1]} - b;
    if (lo == hi) continue;
    // In range: col - b in [0, cols), compared unsigned (no signed overflow for any stored column).
    bad |= (static_cast<std::uint64_t>(std::int64_t{col[lo]}) - static_cast<std::uint64_t>(b) >= static_cast<std::uint64_t>(cols)) |
           (static_cast<std::uint64_t>(std::int64_t{col[hi - 1]}) - static_cast<std::uint64_t>(b) >= static_cast<std::uint64_t>(cols));
    if (lo > 0) row_starts += col[lo] <= col[lo - 1];
  }
  std::int64_t falls = 0;  // places e where col[e] <= col[e - 1]
  for (std::int64_t e = 1; e < nnz; ++e) falls += col[e] <= col[e - 1];
  return !bad && falls == row_starts;
}

// Offsets and columns of a compressed pattern (BSR block level or CSR), O(rows + nnz).
void validate_compressed(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const void* offsets, IndexType ot,
                         const void* columns, IndexType ct, IndexBase base) {
  if (rows < 0) invalid("negative number of rows", "rows");
  if (cols < 0) invalid("negative number of columns", "cols");
  if (nnz < 0) invalid("negative number of stored entries", "nnz");
  if (offsets == nullptr) invalid("offsets is NULL", "offsets");
  if (nnz > 0 && columns == nullptr) invalid("columns is NULL", "columns");
  const std::int64_t b = base_of(base);
  if (load_index(offsets, ot, 0) != b) invalid("offsets[0] differs from the index base", "offsets");
  const auto i32 = [](const void* p) { return static_cast<const std::int32_t*>(p); };
  const auto i64 = [](const void* p) { return static_cast<const std::int64_t*>(p); };
  const bool o32 = ot == IndexType::i32, c32 = ct == IndexType::i32;
  if (o32 ? (c32 ? compressed_ok(rows, cols, nnz, i32(offsets), i32(columns), b) : compressed_ok(rows, cols, nnz, i32(offsets), i64(columns), b))
          : (c32 ? compressed_ok(rows, cols, nnz, i64(offsets), i32(columns), b) : compressed_ok(rows, cols, nnz, i64(offsets), i64(columns), b)))
    return;
  // Offsets first (monotone, within nnz, consistent total), then columns: each array is blamed
  // for its own fault.
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t lo = load_index(offsets, ot, r), hi = load_index(offsets, ot, r + 1);
    if (hi < lo) invalid("offsets are not monotone at row " + std::to_string(r), "offsets");
    if (hi - b > nnz) invalid("offsets exceed the number of stored entries at row " + std::to_string(r), "nnz");
  }
  if (load_index(offsets, ot, rows) - b != nnz) invalid("offsets[rows] - base differs from nnz", "nnz");
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t lo = load_index(offsets, ot, r), hi = load_index(offsets, ot, r + 1);
    for (std::int64_t e = lo - b; e < hi - b; ++e) {
      const std::int64_t c = load_index(columns, ct, e) - b;
      if (c < 0 || c >= cols) invalid("column index out of range at entry " + std::to_string(e), "columns");
      if (e > lo - b && c <= load_index(columns, ct, e - 1) - b)
        invalid("column indices not strictly increasing in row " + std::to_string(r), "columns");
    }
  }
}

BlockPattern decode(const BsrView& a) {
  BlockPattern p;
  p.brows = a.brows;
  p.bcols = a.bcols;
  p.rb = a.row_block;
  p.cb = a.col_block;
  p.row_major = a.order == BlockOrder::row;
  p.values = static_cast<std::byte*>(a.values);
  p.value_type = a.value_type;
  const std::int64_t b = base_of(a.base);
  p.row_start.resize(static_cast<std::size_t>(a.brows) + 1);
  for (std::int64_t r = 0; r <= a.brows; ++r) p.row_start[static_cast<std::size_t>(r)] = load_index(a.offsets, a.offsets_type, r) - b;
  p.col.resize(static_cast<std::size_t>(a.bnnz));
  p.block.resize(static_cast<std::size_t>(a.bnnz));
  for (std::int64_t e = 0; e < a.bnnz; ++e) {
    p.col[static_cast<std::size_t>(e)] = load_index(a.columns, a.columns_type, e) - b;
    p.block[static_cast<std::size_t>(e)] = e;
  }
  return p;
}

// The pattern of op(A) = A^T: block (i, j) of A becomes block (j, i) with its values read in the
// other order (a row-major rb x cb block is a column-major cb x rb block). Counting sort by column:
// stable, so the new rows list their blocks in increasing (old) block row.
BlockPattern transpose(const BlockPattern& a) {
  BlockPattern t;
  t.brows = a.bcols;
  t.bcols = a.brows;
  t.rb = a.cb;
  t.cb = a.rb;
  t.row_major = !a.row_major;
  t.values = a.values;
  t.value_type = a.value_type;
  t.row_start.assign(static_cast<std::size_t>(t.brows) + 1, 0);
  for (std::int64_t j : a.col) ++t.row_start[static_cast<std::size_t>(j) + 1];
  for (std::size_t r = 0; r + 1 < t.row_start.size(); ++r) t.row_start[r + 1] += t.row_start[r];
  std::vector<std::int64_t> next(t.row_start.begin(), t.row_start.end() - 1);
  t.col.resize(a.col.size());
  t.block.resize(a.col.size());
  for (std::int64_t i = 0; i < a.brows; ++i)
    for (std::int64_t e = a.row_start[static_cast<std::size_t>(i)]; e < a.row_start[static_cast<std::size_t>(i) + 1]; ++e) {
      const std::int64_t pos = next[static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)])]++;
      t.col[static_cast<std::size_t>(pos)] = i;
      t.block[static_cast<std::size_t>(pos)] = a.block[static_cast<std::size_t>(e)];
    }
  return t;
}

// Element strides (row, column) of a dense operand.
std::pair<std::int64_t, std::int64_t> strides_of(Layout l, std::int64_t ld) {
  return l == Layout::col_major ? std::pair<std::int64_t, std::int64_t>{1, ld} : std::pair<std::int64_t, std::int64_t>{ld, 1};
}

void check_dense(std::int64_t rows, std::int64_t cols, std::int64_t ld, Layout layout, const void* data, DType t,
                 const char* name) {
  if (rows < 0 || cols < 0) invalid(std::string("negative dimension of ") + name, name);
  const std::int64_t inner = layout == Layout::col_major ? rows : cols;
  if (ld < std::max<std::int64_t>(1, inner)) invalid(std::string("leading dimension of ") + name + " too small", name);
  if (rows > 0 && cols > 0 && data == nullptr) invalid(std::string(name) + " is NULL", name);
  if (!value_dtype_ok(t)) invalid(std::string("value type of ") + name + " not supported", name);
  const std::int64_t outer = layout == Layout::col_major ? cols : rows;
  if (outer > 0 && cshim::checked_mul(ld, outer) < 0) invalid(std::string("extent of ") + name + " overflows", name);
}

// op(X) of a dense operand as a [K, F] view: op(X)(f, k) for `contraction_first == false`
// (op(X) is F x K, e.g. op(A) of SDDMM), op(X)(k, f) otherwise (op(B)).
HbmTensor op_view(const DenseRef& x, Op op, bool contraction_first, std::int64_t K, std::int64_t F) {
  const auto [rs, cs] = strides_of(x.layout, x.ld);
  // op(X)(i, j) = X(i, j) -> strides {rs, cs}; op T -> X(j, i) -> {cs, rs}.
  std::int64_t s_i = op == Op::N ? rs : cs, s_j = op == Op::N ? cs : rs;
  void* p = const_cast<void*>(x.data);
  // View (k, f): k is op(X)'s row index when contraction_first, its column index otherwise.
  return contraction_first ? HbmTensor::wrap(p, x.dtype, {K, F}, {s_i, s_j}) : HbmTensor::wrap(p, x.dtype, {K, F}, {s_j, s_i});
}

DType load_dtype(DType a, DType b) {
  return a == b && (a == DType::bf16 || a == DType::f16) ? a : DType::f32;
}

LaunchConfig launch_config(const Settings& s) { return s.launch_config(); }

void finish_report(CallReport* r, const Settings& s, Trace&& t, std::int64_t blocks) {
  if (r == nullptr) return;
  r->matmuls = t.per_engine[static_cast<int>(Engine::tensor)];
  r->blocks = blocks;
  trn::finish_report(*r, std::move(t), ReportSettings::of(s));
}

void check_bsr_shape(const BsrView& a) {
  if (a.row_block < 1) invalid("row block size must be >= 1", "rowBlockSize");
  if (a.col_block < 1) invalid("column block size must be >= 1", "colBlockSize");
  if (a.brows < 0 || a.bcols < 0) invalid("negative number of block rows or columns", "brows");
  if (cshim::checked_mul(a.brows, a.row_block) < 0 || cshim::checked_mul(a.bcols, a.col_block) < 0)
    invalid("matrix size overflows", "brows");
  if (cshim::checked_mul(cshim::checked_mul(a.row_block, a.col_block), std::max<std::int64_t>(a.bnnz, 1)) < 0)
    invalid("value count overflows", "bnnz");
  if (!value_dtype_ok(a.value_type)) invalid("value type not supported", "valueType");
}

}  // namespace

void validate(const BsrView& a) {
  check_bsr_shape(a);
  if (a.bnnz > 0 && a.values == nullptr) invalid("values is NULL", "values");
  validate_compressed(a.brows, a.bcols, a.bnnz, a.offsets, a.offsets_type, a.columns, a.columns_type, a.base);
}

void validate(const CsrView& a) {
  if (a.nnz > 0 && a.values == nullptr) invalid("values is NULL", "values");
  if (!value_dtype_ok(a.value_type)) invalid("value type not supported", "valueType");
  validate_compressed(a.rows, a.cols, a.nnz, a.offsets, a.offsets_type, a.columns, a.columns_type, a.base);
}

namespace {

// The small-block SpMV (bsr_kernels.hpp "Small-block SpMV"): pack, predict when a plan is wanted, launch.
void slot_spmv(const Settings& s, LaunchConfig lc, const detail::SpmmArgs& g, std::int64_t M, std::int64_t K,
               std::int64_t blocks, CallReport* report) {
  detail::SlotSpmvPlan plan = detail::plan_slot_spmv(hardware_spec(s.target), g, lc.num_cores);
  const detail::SlotSpmvOperands o(g, plan);
  lc.grid = {plan.programs, 1, 1};
  const auto kernel = [&](NeuronCore& nc) { detail::slot_spmv_kernel(nc, g, plan, o); };
  const bool plans = report != nullptr && report->plans_wanted;
  if (plans) plan.predicted_ns = detail::predicted_launch_ns(lc, kernel, ReportSettings::of(s));
  LaunchResult r = launch(lc, kernel);
  const std::string printed = plans ? plan.print(M, K, r) : std::string();
  finish_report(report, s, std::move(r.trace), blocks);
  if (plans) report->add_plan(printed);
}

// SpMM on a validated BSR matrix whose logical size (a_rows x a_cols) may be smaller than its block
// grid (CSR input converted to 128-blocks).
void spmm_logical(const Settings& s, Op opA, Op opB, float alpha, const BsrView& A, std::int64_t a_rows,
                  std::int64_t a_cols, const DenseRef& B, float beta, const MutableDenseRef& C, CallReport* report) {
  const std::int64_t M = opA == Op::N ? a_rows : a_cols, K = opA == Op::N ? a_cols : a_rows;
  const std::int64_t n = C.cols;
  const std::int64_t b_rows = opB == Op::N ? K : n, b_cols = opB == Op::N ? n : K;
  if (B.rows != b_rows || B.cols != b_cols) invalid("op(B) is not K x n", "matB");
  if (C.rows != M) invalid("C does not have the rows of op(A)", "matC");
  check_dense(B.rows, B.cols, B.ld, B.layout, B.data, B.dtype, "matB");
  check_dense(C.rows, C.cols, C.ld, C.layout, C.data, C.dtype, "matC");
  if (M == 0 || n == 0) {
    finish_report(report, s, Trace{}, 0);
    return;
  }
  detail::SpmmArgs g;
  g.a = decode(A);
  if (opA == Op::T) g.a = transpose(g.a);
  g.b = op_view(B, opB, /*contraction_first=*/true, K, n);
  const auto [crs, ccs] = strides_of(C.layout, C.ld);
  g.c = HbmTensor::wrap(C.data, C.dtype, {M, n}, {crs, ccs});
  g.load = load_dtype(A.value_type, B.dtype);
  g.alpha = alpha;
  g.beta = beta;
  g.multiply = alpha != 0.0f && K > 0;
  g.n = n;
  g.m_rows = M;
  g.k_rows = K;
  LaunchConfig lc = launch_config(s);
  if (detail::slot_spmv_applies(hardware_spec(s.target), g)) {
    slot_spmv(s, lc, g, M, K, A.bnnz, report);
    return;
  }
  detail::SpmmPlan plan = detail::plan_spmm(hardware_spec(s.target), g, lc.num_cores);
  lc.grid = {plan.n_chunks, plan.row_groups, 1};
  std::atomic<bool> resident{false};
  if (report != nullptr && report->plans_wanted) {  // predicted before the run (a profile-only report prints no plan)
    std::atomic<bool> ignored{false};
    plan.predicted_ns =
        detail::predicted_launch_ns(lc, [&](NeuronCore& nc) { detail::spmm_kernel(nc, g, plan, &ignored); }, ReportSettings::of(s));
  }
  LaunchResult r = launch(lc, [&](NeuronCore& nc) { detail::spmm_kernel(nc, g, plan, &resident); });
  const std::string printed = report != nullptr ? plan.print(M, n, K, resident.load(), r) : std::string();
  finish_report(report, s, std::move(r.trace), g.multiply ? A.bnnz : 0);
  if (report != nullptr) {
    report->b_resident = resident.load();
    report->add_plan(printed);
  }
}

// The zero-padded block values of a CSR matrix converted for the BSR kernel: bnnz * 128^2 values,
// 64 MiB for a 4096 x 4096 matrix whose 128 x 128 blocks are all stored. A fresh zero-filled
// vector per call cost more host time than the whole emulated SpMV (first-touch faults on 4 KiB
// pages, the vector's memset and csr_to_bsr's memset of every block: ~80% of a 4096 x 4096 SpMV's
// CPU time). Now the buffer is fresh anonymous memory (zero by the kernel: no memset) on
// transparent huge pages (one fault per 2 MiB), and each thread keeps one of up to
// kCachedValueBytes that is all zero between calls: a conversion writes its entries into it and
// the destructor clears exactly the bytes written (O(nnz)). A larger conversion, or one while the
// thread's buffer is in use, maps a one-off buffer. The kernel reads the same bytes as before.
class ZeroedValues {
 public:
  static constexpr std::size_t kCachedValueBytes = std::size_t{256} << 20;
  explicit ZeroedValues(std::size_t bytes) {
    if (bytes == 0) return;
    Cache& c = cache();
    if (bytes <= kCachedValueBytes && !c.busy) {
      if (c.map.size < bytes) c.map = Mapping(bytes);
      c.busy = true;
      data_ = c.map.data;
      owner_ = &c;
      return;
    }
    own_ = Mapping(bytes);
    data_ = own_.data;
  }
  ~ZeroedValues() {
    clear_written();
    detail::give_warm_block(written);
  }
  ZeroedValues(const ZeroedValues&) = delete;
  ZeroedValues& operator=(const ZeroedValues&) = delete;
  std::byte* data() const { return data_; }
  // Byte offsets of the entries written (each entry_bytes long): cleared again by the destructor.
  // Its capacity for `entries` offsets is taken before the conversion writes them: one of the
  // thread's warm blocks (spgemm_blocks.hpp) rather than a vector grown by doubling, whose fresh
  // pages (~2 MB for 84 k fp32 entries, 32 KiB .. 1 MiB regrowths that glibc trims off the heap
  // top again when the call frees them) were ~380 first-touch page faults of every warm fp32 CSR
  // SpMM 4096^2 x 16 (perf stat; ~1/4 of its host time on this VM).
  void reserve_written(std::int64_t entries) {
    detail::warm_capacity(written, static_cast<std::size_t>(entries));
    written.reserve(static_cast<std::size_t>(entries));
  }
  std::vector<std::int64_t> written;
  std::int64_t entry_bytes = 0;

 private:
  void clear_written() {
    if (owner_ == nullptr) return;
    // (constant-size clears are single stores; a memset call per fp32 entry was ~4 % of a C_32F SpMV)
    if (entry_bytes == 4)
      for (const std::int64_t off : written) std::memset(data_ + off, 0, 4);
    else if (entry_bytes == 8)
      for (const std::int64_t off : written) std::memset(data_ + off, 0, 8);
    else
      for (const std::int64_t off : written) std::memset(data_ + off, 0, static_cast<std::size_t>(entry_bytes));
    written.clear();
    owner_->busy = false;  // the cache lent at construction (operands are built and dropped on one thread)
  }
  // Anonymous memory of at least `size` bytes starting on a 2 MiB boundary, huge pages advised.
  struct Mapping {
    static constexpr std::size_t kHuge = std::size_t{2} << 20;
    std::byte* data = nullptr;
    std::size_t size = 0;
    void* base = nullptr;
    std::size_t mapped = 0;
    Mapping() = default;
    explicit Mapping(std::size_t bytes) {
      mapped = (bytes + 2 * kHuge - 1) / kHuge * kHuge;
      base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) {
        base = nullptr;
        throw std::bad_alloc();
      }
      const auto at = (reinterpret_cast<std::uintptr_t>(base) + kHuge - 1) / kHuge * kHuge;
      data = reinterpret_cast<std::byte*>(at);
      size = mapped - (at - reinterpret_cast<std::uintptr_t>(base));
      (void)madvise(data, size / kHuge * kHuge, MADV_HUGEPAGE);  // advice only: speed, not results
    }
    Mapping(Mapping&& o) noexcept { *this = std::move(o); }
    Mapping& operator=(Mapping&& o) noexcept {
      if (this != &o) {
        if (base != nullptr) munmap(base, mapped);
        data = std::exchange(o.data, nullptr);
        size = std::exchange(o.size, 0);
        base = std::exchange(o.base, nullptr);
        mapped = std::exchange(o.mapped, 0);
      }
      return *this;
    }
    ~Mapping() {
      if (base != nullptr) munmap(base, mapped);
    }
  };
  struct Cache {
    Mapping map;
    bool busy = false;
  };
  static Cache& cache() {
    thread_local Cache c;
    return c;
  }
  std::byte* data_ = nullptr;
  Cache* owner_ = nullptr;  // the thread cache lent to this object, or null (own_ holds the buffer)
  Mapping own_;
};

// A CSR matrix as BSR with pmax x pmax blocks (host copy of the values into zero-padded blocks).
// Block order (s20/krylov): the SpMM kernel's stationary operand of a block is [k, m] = the block
// transposed for op N (bsr_kernels.cpp blocks_view: partition k reads the block's column k). Row-major
// blocks made every one of those loads a transposing gather of 4-byte elements, 128 apart (core's
// partition_block_load: 18 % of an fp32 csr_bicgstab's host time, 24 % of a packed C_32F BSR solve's,
// perf); column-major blocks make partition k's row 128 contiguous values. The same values land in
// the same SBUF bytes, the same matmuls run, and the DMA's cost model counts partitions and bytes, not
// the source's strides (core cost_model.cpp instruction_ns): same bits, instructions and modeled time
// (golden_bits_and_times, csr_spmv_150x130). op T reads the transposed pattern (transpose(), block
// order flipped), so it keeps row-major blocks: its loads are the contiguous ones.
struct CsrAsBsr {
  std::vector<std::int64_t> offsets, columns;
  ZeroedValues values;
  BsrView view;
  CsrAsBsr(const Settings& s, const CsrView& A, BlockOrder order);
  CsrAsBsr(const Settings& s, detail::TileSource&& src, BlockOrder order);
};
std::int64_t csr_as_bsr_blocks(const Settings& s, const CsrView& A, std::vector<std::int64_t>& offsets) {
  const std::int64_t bd = hardware_spec(s.target).pmax;
  offsets.resize(static_cast<std::size_t>((A.rows + bd - 1) / bd) + 1);
  return csr_block_offsets(A, bd, IndexBase::zero, offsets.data(), IndexType::i64);  // A validated by CsrTileOperand
}
CsrAsBsr::CsrAsBsr(const Settings& s, const CsrView& A, BlockOrder order)
    : values(static_cast<std::size_t>(csr_as_bsr_blocks(s, A, offsets) * hardware_spec(s.target).pmax *
                                      hardware_spec(s.target).pmax * dtype_size(A.value_type))) {
  const std::int64_t bd = hardware_spec(s.target).pmax;
  const std::int64_t mb = (A.rows + bd - 1) / bd, nb = (A.cols + bd - 1) / bd;
  const std::int64_t bnnz = offsets.back();
  columns.resize(static_cast<std::size_t>(bnnz));
  values.entry_bytes = dtype_size(A.value_type);
  values.reserve_written(A.nnz);
  csr_to_bsr_into(A, bd, order, IndexBase::zero, offsets.data(), IndexType::i64, columns.data(), values.data(),
                  &values.written, /*trusted=*/true);  // A validated by CsrTileOperand, offsets just computed
  view = BsrView{mb, nb, bnnz, bd, bd, offsets.data(), columns.data(), values.data(), IndexType::i64,
                 IndexType::i64, IndexBase::zero, A.value_type, order};
}

CsrAsBsr::CsrAsBsr(const Settings& s, detail::TileSource&& src, BlockOrder order)
    : offsets(std::move(src.offsets)), columns(std::move(src.columns)),
      values(static_cast<std::size_t>(offsets.back() * hardware_spec(s.target).pmax * hardware_spec(s.target).pmax) *
             sizeof(float)) {
  const std::int64_t bd = hardware_spec(s.target).pmax;
  values.entry_bytes = src.entry_bytes;
  src.write(reinterpret_cast<float*>(values.data()), order, offsets.data(), columns.data(), values.written);
  view = BsrView{(src.rows + bd - 1) / bd, (src.cols + bd - 1) / bd, offsets.back(), bd, bd, offsets.data(), columns.data(),
                 values.data(), IndexType::i64, IndexType::i64, IndexBase::zero, DType::f32, order};
}

}  // namespace

// ---- the converted CSR operand (prepared_operand.hpp) --------------------------------------------

struct detail::CsrTileOperand::Converted {
  CsrAsBsr bsr;
  Converted(const Settings& s, const CsrView& A, Op opA) : bsr(s, A, opA == Op::N ? BlockOrder::col : BlockOrder::row) {}
  Converted(const Settings& s, TileSource&& src, Op opA)
      : bsr(s, std::move(src), opA == Op::N ? BlockOrder::col : BlockOrder::row) {}
};

detail::CsrTileOperand::CsrTileOperand(const Settings& s, const CsrView& A, Op opA) : csr_(A), target_(s.target) {
  validate(A);
  converted_ = std::make_unique<Converted>(s, A, opA);
}
detail::CsrTileOperand::CsrTileOperand(const Settings& s, TileSource&& source, Op opA)
    : csr_{source.rows, source.cols, 0, nullptr, nullptr, nullptr}, target_(s.target) {
  converted_ = std::make_unique<Converted>(s, std::move(source), opA);
}
detail::CsrTileOperand::~CsrTileOperand() = default;

void detail::CsrTileOperand::spmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& B, float beta,
                                  const MutableDenseRef& C, CallReport* report) const {
  if (s.target != target_) invalid("the converted operand was built for another target", "matA");
  spmm_logical(s, opA, opB, alpha, converted_->bsr.view, csr_.rows, csr_.cols, B, beta, C, report);
}

void spmm(const Settings& s, Op opA, Op opB, float alpha, const BsrView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  validate(A);
  spmm_logical(s, opA, opB, alpha, A, A.rows(), A.cols(), B, beta, C, report);
}

void validate(const CooView& a) {
  if (a.rows < 0 || a.cols < 0 || a.nnz < 0) invalid("negative size", "rows");
  if (a.nnz > 0 && (a.row_ind == nullptr || a.col_ind == nullptr)) invalid("index array is NULL", "cooRowInd");
  if (a.nnz > 0 && a.values == nullptr) invalid("values is NULL", "values");
  if (!value_dtype_ok(a.value_type)) invalid("value type not supported", "valueType");
  const std::int64_t b = base_of(a.base);
  for (std::int64_t e = 0; e < a.nnz; ++e) {
    const std::int64_t r = load_index(a.row_ind, a.index_type, e) - b, c = load_index(a.col_ind, a.index_type, e) - b;
    if (r < 0 || r >= a.rows) invalid("row index out of range at entry " + std::to_string(e), "cooRowInd");
    if (c < 0 || c >= a.cols) invalid("column index out of range at entry " + std::to_string(e), "cooColInd");
    if (e > 0) {
      const std::int64_t pr = load_index(a.row_ind, a.index_type, e - 1) - b, pc = load_index(a.col_ind, a.index_type, e - 1) - b;
      if (r < pr) invalid("row indices not sorted at entry " + std::to_string(e), "cooRowInd");
      if (r == pr && c <= pc) invalid("column indices not strictly increasing in row " + std::to_string(r), "cooColInd");
    }
  }
}

namespace {

// The CSR view of a validated COO matrix: offsets built here (int64, same base), columns and
// values shared.
struct CooAsCsr {
  std::vector<std::int64_t> offsets;
  CsrView view;
};
CooAsCsr coo_as_csr(const CooView& a) {
  validate(a);
  CooAsCsr o;
  const std::int64_t b = base_of(a.base);
  o.offsets.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (std::int64_t e = 0; e < a.nnz; ++e) ++o.offsets[static_cast<std::size_t>(load_index(a.row_ind, a.index_type, e) - b) + 1];
  for (std::size_t r = 0; r + 1 < o.offsets.size(); ++r) o.offsets[r + 1] += o.offsets[r];
  for (auto& x : o.offsets) x += b;
  o.view = CsrView{a.rows, a.cols, a.nnz, o.offsets.data(), a.col_ind, a.values, IndexType::i64, a.index_type, a.base,
                   a.value_type};
  return o;
}

}  // namespace

void spmm(const Settings& s, Op opA, Op opB, float alpha, const CooView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  const CooAsCsr c = coo_as_csr(A);
  spmm(s, opA, opB, alpha, c.view, B, beta, C, report);
}

void spmv(const Settings& s, Op opA, float alpha, const CooView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report) {
  const CooAsCsr c = coo_as_csr(A);
  spmv(s, opA, alpha, c.view, x, x_type, beta, y, y_type, report);
}

void validate(const CscView& a) { validate(a.transposed()); }

void validate(const BlockedEllView& a) {
  if (a.block < 1) invalid("ellBlockSize must be >= 1", "ellBlockSize");
  if (a.rows < 0 || a.cols < 0) invalid("negative size", "rows");
  if (a.rows % a.block != 0 || a.cols % a.block != 0) invalid("rows and cols must be multiples of ellBlockSize", "rows");
  if (a.ell_cols < 0 || a.ell_cols % a.block != 0 || a.ell_cols > a.cols)
    invalid("ellCols must be a multiple of ellBlockSize in [0, cols]", "ellCols");
  if (cshim::checked_mul(a.rows, a.ell_cols) < 0) invalid("value count overflows", "ellCols");
  if (!value_dtype_ok(a.value_type)) invalid("value type not supported", "valueType");
  const std::int64_t brows = a.rows / a.block, slots = a.ell_cols / a.block, bcols = a.cols / a.block;
  if (brows * slots == 0) return;
  if (a.col_ind == nullptr) invalid("ellColInd is NULL", "ellColInd");
  if (a.values == nullptr) invalid("ellValue is NULL", "values");
  const std::int64_t b = base_of(a.base);
  std::vector<std::int64_t> seen(static_cast<std::size_t>(bcols), -1);  // block row that last used a column
  for (std::int64_t i = 0; i < brows; ++i)
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t raw = load_index(a.col_ind, a.index_type, i * slots + t);
      if (raw == -1) continue;  // empty slot
      const std::int64_t c = raw - b;
      if (c < 0 || c >= bcols) invalid("block column index out of range at slot " + std::to_string(i * slots + t), "ellColInd");
      if (seen[static_cast<std::size_t>(c)] == i) invalid("block column repeated in block row " + std::to_string(i), "ellColInd");
      seen[static_cast<std::size_t>(c)] = i;
    }
}

namespace {

// A validated Blocked-ELL matrix as BSR: per block row the stored slots sorted by block column
// (distinct, so the order is unique), each block's values copied into a contiguous row-major block.
// The block values (every byte written by the copy) live in one of the calling thread's warm blocks
// (spgemm_blocks.hpp) and are not value-initialised first: a fresh zero-filled vector per call was a
// 2 MiB memset plus its first-touch page faults for the bench's 2048^2 matrix of 64-blocks, 4 slots
// (~half of a warm call's ~1.3 ms, perf). Host memory only: the kernel reads the same bytes, and the
// trace names the array by its host address as before.
struct EllAsBsr {
  struct RawByte {  // a byte the copy writes: default-initialised, so resize() does not zero it
    std::byte b;
    RawByte() {}  // NOLINT(modernize-use-equals-default): `= default` would value-initialise in resize()
  };
  std::vector<std::int64_t> offsets, columns;
  std::vector<RawByte> values;
  BsrView view;
  EllAsBsr() = default;
  EllAsBsr(EllAsBsr&&) = default;  // the view's pointers follow the moved buffers
  EllAsBsr& operator=(EllAsBsr&&) = delete;
  ~EllAsBsr() { detail::give_warm_block(values); }
};
EllAsBsr ell_as_bsr(const BlockedEllView& a) {
  validate(a);
  EllAsBsr o;
  const std::int64_t bs = a.block, brows = a.rows / bs, bcols = a.cols / bs, slots = a.ell_cols / bs;
  const std::int64_t b = base_of(a.base);
  const std::size_t es = dtype_size(a.value_type), row_bytes = static_cast<std::size_t>(bs) * es;
  o.offsets.assign(1, 0);
  std::vector<std::pair<std::int64_t, std::int64_t>> row;  // (block column, slot)
  std::vector<std::pair<std::int64_t, std::int64_t>> stored;
  for (std::int64_t i = 0; i < brows; ++i) {
    row.clear();
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t raw = load_index(a.col_ind, a.index_type, i * slots + t);
      if (raw != -1) row.emplace_back(raw - b, t);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [c, t] : row) {
      o.columns.push_back(c);
      stored.emplace_back(i, t);
    }
    o.offsets.push_back(static_cast<std::int64_t>(o.columns.size()));
  }
  const std::size_t value_bytes = stored.size() * static_cast<std::size_t>(bs) * row_bytes;
  detail::warm_capacity(o.values, value_bytes);
  o.values.resize(value_bytes);
  auto* dst = reinterpret_cast<std::byte*>(o.values.data());
  const auto* src = static_cast<const std::byte*>(a.values);
  for (std::size_t e = 0; e < stored.size(); ++e) {
    const auto [i, t] = stored[e];
    for (std::int64_t r = 0; r < bs; ++r)
      std::memcpy(dst + (e * static_cast<std::size_t>(bs) + static_cast<std::size_t>(r)) * row_bytes,
                  src + (static_cast<std::size_t>((i * bs + r) * a.ell_cols + t * bs)) * es, row_bytes);
  }
  o.view = BsrView{brows, bcols, static_cast<std::int64_t>(o.columns.size()), bs, bs, o.offsets.data(), o.columns.data(),
                   dst, IndexType::i64, IndexType::i64, IndexBase::zero, a.value_type, BlockOrder::row};
  return o;
}

Op flip(Op op) { return op == Op::N ? Op::T : Op::N; }

}  // namespace

void spmm(const Settings& s, Op opA, Op opB, float alpha, const CscView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  spmm(s, flip(opA), opB, alpha, A.transposed(), B, beta, C, report);
}

void spmv(const Settings& s, Op opA, float alpha, const CscView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report) {
  spmv(s, flip(opA), alpha, A.transposed(), x, x_type, beta, y, y_type, report);
}

void spmm(const Settings& s, Op opA, Op opB, float alpha, const BlockedEllView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  const EllAsBsr e = ell_as_bsr(A);
  spmm(s, opA, opB, alpha, e.view, B, beta, C, report);
}

void spmv(const Settings& s, Op opA, float alpha, const BlockedEllView& A, const void* x, DType x_type, float beta,
          void* y, DType y_type, CallReport* report) {
  const EllAsBsr e = ell_as_bsr(A);
  spmv(s, opA, alpha, e.view, x, x_type, beta, y, y_type, report);
}

void spmm(const Settings& s, Op opA, Op opB, float alpha, const CsrView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  const detail::CsrTileOperand a(s, A, opA);  // validated, converted for this one product
  a.spmm(s, opA, opB, alpha, B, beta, C, report);
}

void spmv(const Settings& s, Op opA, float alpha, const CsrView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report) {
  const std::int64_t M = opA == Op::N ? A.rows : A.cols, K = opA == Op::N ? A.cols : A.rows;
  const DenseRef X{x, x_type, K, 1, std::max<std::int64_t>(1, K), Layout::col_major};
  const MutableDenseRef Y{y, y_type, M, 1, std::max<std::int64_t>(1, M), Layout::col_major};
  spmm(s, opA, Op::N, alpha, A, X, beta, Y, report);
}

void spmv(const Settings& s, Op opA, float alpha, const BsrView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report) {
  check_bsr_shape(A);
  const std::int64_t M = opA == Op::N ? A.rows() : A.cols(), K = opA == Op::N ? A.cols() : A.rows();
  const DenseRef X{x, x_type, K, 1, std::max<std::int64_t>(1, K), Layout::col_major};
  const MutableDenseRef Y{y, y_type, M, 1, std::max<std::int64_t>(1, M), Layout::col_major};
  spmm(s, opA, Op::N, alpha, A, X, beta, Y, report);
}

namespace {

void sddmm_dims(Op opA, Op opB, const DenseRef& A, const DenseRef& B, std::int64_t M, std::int64_t N, std::int64_t* K) {
  *K = opA == Op::N ? A.cols : A.rows;
  const std::int64_t a_rows = opA == Op::N ? M : *K, a_cols = opA == Op::N ? *K : M;
  if (A.rows != a_rows || A.cols != a_cols) invalid("op(A) is not M x K", "matA");
  const std::int64_t b_rows = opB == Op::N ? *K : N, b_cols = opB == Op::N ? N : *K;
  if (B.rows != b_rows || B.cols != b_cols) invalid("op(B) is not K x N", "matB");
  check_dense(A.rows, A.cols, A.ld, A.layout, A.data, A.dtype, "matA");
  check_dense(B.rows, B.cols, B.ld, B.layout, B.data, B.dtype, "matB");
}

}  // namespace

void sddmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& A, const DenseRef& B, float beta,
           const BsrView& C, CallReport* report) {
  validate(C);
  std::int64_t K = 0;
  sddmm_dims(opA, opB, A, B, C.rows(), C.cols(), &K);
  detail::SddmmArgs g;
  g.c = decode(C);
  g.a = op_view(A, opA, /*contraction_first=*/false, K, C.rows());
  g.b = op_view(B, opB, /*contraction_first=*/true, K, C.cols());
  g.load = load_dtype(A.dtype, B.dtype);
  g.alpha = alpha;
  g.beta = beta;
  g.multiply = alpha != 0.0f && K > 0;
  g.k = K;
  if (C.bnnz == 0) {
    finish_report(report, s, Trace{}, 0);
    return;
  }
  LaunchConfig lc = launch_config(s);
  detail::SpmmArgs shape;  // row groups balanced on C's pattern
  shape.a = g.c;
  shape.n = 1;
  const detail::SpmmPlan plan = detail::plan_spmm(hardware_spec(s.target), shape, lc.num_cores);
  lc.grid = {1, plan.row_groups, 1};
  detail::SddmmPlan sp{"BSR", C.rows(), C.cols(), K, C.bnnz, plan.row_groups, -1, -1, -1, {}};
  LaunchResult r = launch(lc, [&](NeuronCore& nc) { detail::sddmm_bsr_kernel(nc, g, plan); });
  detail::record_launch(sp, r);
  finish_report(report, s, std::move(r.trace), C.bnnz);
  if (report != nullptr) detail::add_plan_after_run(*report, sp);
}

void sddmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& A, const DenseRef& B, float beta,
           const CsrView& C, CallReport* report) {
  validate(C);
  std::int64_t K = 0;
  sddmm_dims(opA, opB, A, B, C.rows, C.cols, &K);
  detail::SddmmCsrArgs g;
  g.c.rows = C.rows;
  g.c.cols = C.cols;
  g.c.values = static_cast<std::byte*>(C.values);
  g.c.value_type = C.value_type;
  const std::int64_t b = base_of(C.base);
  g.c.row_start.resize(static_cast<std::size_t>(C.rows) + 1);
  for (std::int64_t r = 0; r <= C.rows; ++r) g.c.row_start[static_cast<std::size_t>(r)] = load_index(C.offsets, C.offsets_type, r) - b;
  g.c.col.resize(static_cast<std::size_t>(C.nnz));
  for (std::int64_t e = 0; e < C.nnz; ++e) g.c.col[static_cast<std::size_t>(e)] = load_index(C.columns, C.columns_type, e) - b;
  g.a = op_view(A, opA, false, K, C.rows);
  g.b = op_view(B, opB, true, K, C.cols);
  g.load = load_dtype(A.dtype, B.dtype);
  g.alpha = alpha;
  g.beta = beta;
  g.multiply = alpha != 0.0f && K > 0;
  g.k = K;
  if (C.nnz == 0) {
    finish_report(report, s, Trace{}, 0);
    return;
  }
  const HardwareSpec& hw = hardware_spec(s.target);
  LaunchConfig lc = launch_config(s);
  const std::int64_t tiles = (C.rows + hw.gemm_stationary_fmax - 1) / hw.gemm_stationary_fmax;
  lc.grid = {1, static_cast<int>(tiles), 1};
  std::vector<std::int64_t> visited(static_cast<std::size_t>(tiles), 0);
  detail::SddmmPlan sp{"CSR", C.rows, C.cols, K, C.nnz, static_cast<int>(tiles), -1, -1, -1, {}};
  LaunchResult r = launch(lc, [&](NeuronCore& nc) { detail::sddmm_csr_kernel(nc, g, visited.data()); });
  std::int64_t total = 0;
  for (std::int64_t v : visited) total += v;
  detail::record_launch(sp, r);
  finish_report(report, s, std::move(r.trace), total);
  if (report != nullptr) detail::add_plan_after_run(*report, sp);
}

// ---- conversions ------------------------------------------------------------------------------

namespace {

// Distinct block columns of block row R of a CSR matrix, sorted. `mark` (size nb) holds the last
// block row that saw each block column.
void block_columns(const CsrView& csr, std::int64_t bd, std::int64_t R, std::vector<std::int64_t>& mark,
                   std::vector<std::int64_t>& out) {
  out.clear();
  const std::int64_t b = base_of(csr.base);
  const std::int64_t r_end = std::min(csr.rows, (R + 1) * bd);
  for (std::int64_t r = R * bd; r < r_end; ++r)
    for (std::int64_t e = load_index(csr.offsets, csr.offsets_type, r) - b;
         e < load_index(csr.offsets, csr.offsets_type, r + 1) - b; ++e) {
      const std::int64_t j = (load_index(csr.columns, csr.columns_type, e) - b) / bd;
      if (mark[static_cast<std::size_t>(j)] != R) {
        mark[static_cast<std::size_t>(j)] = R;
        out.push_back(j);
      }
    }
  std::sort(out.begin(), out.end());
}

}  // namespace

std::int64_t csr_to_bsr_nnz(const CsrView& csr, std::int64_t block_dim, IndexBase out_base, void* bsr_offsets,
                            IndexType out_index) {
  if (block_dim < 1) invalid("block dimension must be >= 1", "blockDim");
  // The pattern only: values are not read.
  validate_compressed(csr.rows, csr.cols, csr.nnz, csr.offsets, csr.offsets_type, csr.columns, csr.columns_type, csr.base);
  return csr_block_offsets(csr, block_dim, out_base, bsr_offsets, out_index);
}

static std::int64_t csr_block_offsets(const CsrView& csr, std::int64_t block_dim, IndexBase out_base, void* bsr_offsets,
                               IndexType out_index) {
  if (block_dim < 1) invalid("block dimension must be >= 1", "blockDim");
  if (bsr_offsets == nullptr) invalid("bsr offsets is NULL", "bsrRowPtrC");
  const std::int64_t mb = (csr.rows + block_dim - 1) / block_dim, nb = (csr.cols + block_dim - 1) / block_dim;
  std::vector<std::int64_t> mark(static_cast<std::size_t>(nb), -1), cols;
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(mb) + 1, base_of(out_base));
  for (std::int64_t R = 0; R < mb; ++R) {
    block_columns(csr, block_dim, R, mark, cols);
    offsets[static_cast<std::size_t>(R) + 1] = offsets[static_cast<std::size_t>(R)] + static_cast<std::int64_t>(cols.size());
  }
  // Written only after every check passed (32-bit overflow included).
  if (out_index == IndexType::i32 && offsets.back() > std::numeric_limits<std::int32_t>::max())
    invalid("block count does not fit in 32 bits", "bsrRowPtrC");
  for (std::int64_t R = 0; R <= mb; ++R) store_index(bsr_offsets, out_index, R, offsets[static_cast<std::size_t>(R)]);
  return offsets.back() - base_of(out_base);
}

FillReport csr_to_bsr(const CsrView& csr, std::int64_t block_dim, BlockOrder order, IndexBase out_base,
                      const void* bsr_offsets, IndexType out_index, void* bsr_columns, void* bsr_values) {
  return csr_to_bsr_into(csr, block_dim, order, out_base, bsr_offsets, out_index, bsr_columns, bsr_values, nullptr);
}

FillReport csr_to_bsr_into(const CsrView& csr, std::int64_t block_dim, BlockOrder order, IndexBase out_base,
                           const void* bsr_offsets, IndexType out_index, void* bsr_columns, void* bsr_values,
                           std::vector<std::int64_t>* zeroed_written, bool trusted) {
  if (block_dim < 1) invalid("block dimension must be >= 1", "blockDim");
  if (!trusted) validate(csr);
  if (bsr_offsets == nullptr) invalid("bsr offsets is NULL", "bsrRowPtrC");
  const std::int64_t mb = (csr.rows + block_dim - 1) / block_dim, nb = (csr.cols + block_dim - 1) / block_dim;
  const std::int64_t ob = base_of(out_base), cb = base_of(csr.base);
  // The offsets must be the ones csr_to_bsr_nnz produced for this matrix.
  std::vector<std::int64_t> mark(static_cast<std::size_t>(nb), -1), cols;
  std::int64_t total = 0;
  if (trusted) {
    total = load_index(bsr_offsets, out_index, mb) - ob;
  } else {
    for (std::int64_t R = 0; R < mb; ++R) {
      block_columns(csr, block_dim, R, mark, cols);
      if (load_index(bsr_offsets, out_index, R) - ob != total) invalid("bsr offsets do not match the CSR pattern", "bsrRowPtrC");
      total += static_cast<std::int64_t>(cols.size());
    }
    if (load_index(bsr_offsets, out_index, mb) - ob != total) invalid("bsr offsets do not match the CSR pattern", "bsrRowPtrC");
  }
  if (total > 0 && (bsr_columns == nullptr || bsr_values == nullptr)) invalid("bsr columns or values is NULL", "bsrValC");
  const std::int64_t es = dtype_size(csr.value_type), bb = block_dim * block_dim;
  std::fill(mark.begin(), mark.end(), -1);
  std::vector<std::int64_t> slot(static_cast<std::size_t>(nb), -1);
  auto* out = static_cast<std::byte*>(bsr_values);
  const auto* in = static_cast<const std::byte*>(csr.values);
  FillReport fill;
  fill.bnnz = total;
  fill.nnz = csr.nnz;
  if (zeroed_written != nullptr) zeroed_written->reserve(zeroed_written->size() + static_cast<std::size_t>(csr.nnz));
  // Each entry's bytes by a typed copy of the value width (a run-time memcpy size compiled to a byte loop).
  generic_detail::with_value_width(static_cast<std::size_t>(es), [&](auto width) {
    constexpr std::size_t W = decltype(width)::value;
    const std::size_t entry_bytes = W != 0 ? W : static_cast<std::size_t>(es);
    for (std::int64_t R = 0; R < mb; ++R) {
      block_columns(csr, block_dim, R, mark, cols);
      const std::int64_t first = load_index(bsr_offsets, out_index, R) - ob;
      for (std::size_t t = 0; t < cols.size(); ++t) {
        slot[static_cast<std::size_t>(cols[t])] = first + static_cast<std::int64_t>(t);
        store_index(bsr_columns, out_index, first + static_cast<std::int64_t>(t), cols[t] + ob);
      }
      if (!cols.empty() && zeroed_written == nullptr)  // (an empty matrix may have no value array at all: memset(NULL, 0, 0) is UB)
        std::memset(out + first * bb * es, 0, static_cast<std::size_t>(static_cast<std::int64_t>(cols.size()) * bb * es));
      const std::int64_t r_end = std::min(csr.rows, (R + 1) * block_dim);
      for (std::int64_t r = R * block_dim; r < r_end; ++r)
        for (std::int64_t e = load_index(csr.offsets, csr.offsets_type, r) - cb;
             e < load_index(csr.offsets, csr.offsets_type, r + 1) - cb; ++e) {
          const std::int64_t c = load_index(csr.columns, csr.columns_type, e) - cb;
          const std::int64_t br = r - R * block_dim, bc = c % block_dim;
          const std::int64_t within = order == BlockOrder::row ? br * block_dim + bc : br + bc * block_dim;
          const std::int64_t at = (slot[static_cast<std::size_t>(c / block_dim)] * bb + within) * es;
          if (zeroed_written != nullptr) zeroed_written->push_back(at);
          std::memcpy(out + at, in + e * es, entry_bytes);
        }
    }
  });
  fill.fill = total > 0 ? static_cast<double>(fill.nnz) / static_cast<double>(total * bb) : 0.0;
  return fill;
}

void bsr_to_csr(const BsrView& bsr, IndexBase out_base, void* csr_offsets, void* csr_columns, void* csr_values,
                IndexType out_index) {
  validate(bsr);
  const std::int64_t m = bsr.rows(), nnz = bsr.bnnz * bsr.row_block * bsr.col_block;
  if (csr_offsets == nullptr || (nnz > 0 && (csr_columns == nullptr || csr_values == nullptr)))
    invalid("csr output array is NULL", "csrValC");
  if (out_index == IndexType::i32 && nnz > std::numeric_limits<std::int32_t>::max())
    invalid("entry count does not fit in 32 bits", "csrRowPtrC");
  const BlockPattern p = decode(bsr);
  const std::int64_t ob = base_of(out_base), es = dtype_size(bsr.value_type), rb = bsr.row_block, cbk = bsr.col_block;
  const auto* in = static_cast<const std::byte*>(bsr.values);
  auto* out = static_cast<std::byte*>(csr_values);
  for (std::int64_t R = 0; R < bsr.brows; ++R) {
    const std::int64_t s = p.row_start[static_cast<std::size_t>(R)], cnt = p.row_start[static_cast<std::size_t>(R) + 1] - s;
    for (std::int64_t r = 0; r < rb; ++r) {
      const std::int64_t row_first = s * rb * cbk + r * cnt * cbk;
      store_index(csr_offsets, out_index, R * rb + r, row_first + ob);
      for (std::int64_t t = 0; t < cnt; ++t)
        for (std::int64_t c = 0; c < cbk; ++c) {
          const std::int64_t e = row_first + t * cbk + c, blk = s + t;
          store_index(csr_columns, out_index, e, p.col[static_cast<std::size_t>(blk)] * cbk + c + ob);
          const std::int64_t within = p.row_major ? r * cbk + c : r + c * rb;
          std::memcpy(out + e * es, in + (blk * rb * cbk + within) * es, static_cast<std::size_t>(es));
        }
    }
  }
  store_index(csr_offsets, out_index, m, nnz + ob);
}

BsrView OwnedBsr::view() {
  BsrView v;
  v.brows = brows;
  v.bcols = bcols;
  v.bnnz = static_cast<std::int64_t>(columns.size());
  v.row_block = row_block;
  v.col_block = col_block;
  v.offsets = offsets.data();
  v.columns = columns.data();
  v.values = values.data();
  v.offsets_type = v.columns_type = IndexType::i64;
  v.base = IndexBase::zero;
  v.value_type = value_type;
  v.order = order;
  return v;
}

OwnedBsr dense_to_bsr(const DenseRef& A, std::int64_t row_block, std::int64_t col_block, float threshold,
                      BlockOrder order) {
  if (row_block < 1 || col_block < 1) invalid("block size must be >= 1", "blockDim");
  check_dense(A.rows, A.cols, A.ld, A.layout, A.data, A.dtype, "A");
  OwnedBsr o;
  o.row_block = row_block;
  o.col_block = col_block;
  o.order = order;
  o.value_type = A.dtype;
  o.brows = (A.rows + row_block - 1) / row_block;
  o.bcols = (A.cols + col_block - 1) / col_block;
  const auto strides = strides_of(A.layout, A.ld);  // named: lambdas below capture them
  const std::int64_t rs = strides.first, cs = strides.second;
  const std::int64_t es = dtype_size(A.dtype), bb = row_block * col_block;
  const auto* in = static_cast<const std::byte*>(A.data);
  auto value = [&](std::int64_t i, std::int64_t j) { return load_as_f32(A.dtype, in + (i * rs + j * cs) * es); };
  // NaN counts as above the threshold: a block holding one is kept, never silently dropped.
  auto keep = [&](float x) { return !(std::fabs(x) <= threshold); };
  o.offsets.push_back(0);
  for (std::int64_t R = 0; R < o.brows; ++R) {
    for (std::int64_t C = 0; C < o.bcols; ++C) {
      bool any = false;
      std::int64_t count = 0;
      for (std::int64_t i = R * row_block; i < std::min(A.rows, (R + 1) * row_block); ++i)
        for (std::int64_t j = C * col_block; j < std::min(A.cols, (C + 1) * col_block); ++j)
          if (keep(value(i, j))) {
            any = true;
            ++count;
          }
      if (!any) continue;
      const std::size_t at = o.values.size();
      o.values.resize(at + static_cast<std::size_t>(bb * es), std::byte{0});
      for (std::int64_t i = R * row_block; i < std::min(A.rows, (R + 1) * row_block); ++i)
        for (std::int64_t j = C * col_block; j < std::min(A.cols, (C + 1) * col_block); ++j) {
          const std::int64_t r = i - R * row_block, c = j - C * col_block;
          const std::int64_t within = order == BlockOrder::row ? r * col_block + c : r + c * row_block;
          if (keep(value(i, j)))
            std::memcpy(o.values.data() + at + static_cast<std::size_t>(within * es), in + (i * rs + j * cs) * es,
                        static_cast<std::size_t>(es));
        }
      o.columns.push_back(C);
      o.fill.nnz += count;
    }
    o.offsets.push_back(static_cast<std::int64_t>(o.columns.size()));
  }
  o.fill.bnnz = static_cast<std::int64_t>(o.columns.size());
  o.fill.fill = o.fill.bnnz > 0 ? static_cast<double>(o.fill.nnz) / static_cast<double>(o.fill.bnnz * bb) : 0.0;
  return o;
}

}  // namespace trn::sparse
