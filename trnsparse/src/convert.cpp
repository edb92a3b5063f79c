// trnsparse generic API, index part: validation of the generic matrices and sparse vectors, and the
// conversions and sorts (sparse <-> dense, CSR -> CSC, COO <-> CSR, coosort / csrsort / cscsort).
// Host index work only: values are copied byte for byte, never combined; every array is checked
// before the first output is written, so a failing call leaves its outputs untouched.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "generic_detail.hpp"
#include "spvec_engine.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: this file's own helpers

std::size_t value_bytes(Value v) {
  switch (v) {
    case Value::f32: return 4;
    case Value::f64: return 8;
    case Value::c32: return 8;
    case Value::c64: return 16;
  }
  return 0;
}

const char* value_name(Value v) {
  switch (v) {
    case Value::f32: return "R_32F";
    case Value::f64: return "R_64F";
    case Value::c32: return "C_32F";
    case Value::c64: return "C_64F";
  }
  return "?";
}

void validate(const SparseRef& a) {
  switch (a.format) {
    case SparseRef::Format::csr:
      validate(CsrView{a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, a.offsets_type, a.indices_type, a.base,
                       DType::f32});
      return;
    case SparseRef::Format::csc:
      validate(CscView{a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, a.offsets_type, a.indices_type, a.base,
                       DType::f32});
      return;
    case SparseRef::Format::coo:
      validate(CooView{a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, a.indices_type, a.base, DType::f32});
      return;
  }
}

namespace {
// The lowest and highest of ix[0 .. n) (n >= 1), in the array's own type (vectorisable).
template <class T>
void index_range(const T* ix, std::int64_t n, std::int64_t& lo, std::int64_t& hi) {
  T l = ix[0], h = ix[0];
  for (std::int64_t e = 1; e < n; ++e) {
    l = std::min(l, ix[e]);
    h = std::max(h, ix[e]);
  }
  lo = l;
  hi = h;
}
}  // namespace

void validate(const SpVecRef& x) {
  if (x.size < 0) invalid("negative vector size", "size");
  if (x.nnz < 0 || x.nnz > x.size) invalid("nnz must be in [0, size]", "nnz");
  if (x.nnz > 0 && x.indices == nullptr) invalid("indices is NULL", "indices");
  if (x.nnz > 0 && x.values == nullptr) invalid("values is NULL", "values");
  const std::int64_t b = base_value(x.base);
  // The lowest and highest index first (a branch-free pass over the typed array); the entry-by-entry
  // search for the first bad one only when one is out of range (the same error, host speed only).
  if (x.nnz == 0) return;
  std::int64_t lo = 0, hi = 0;
  if (x.index_type == IndexType::i32)
    index_range(static_cast<const std::int32_t*>(x.indices), x.nnz, lo, hi);
  else
    index_range(static_cast<const std::int64_t*>(x.indices), x.nnz, lo, hi);
  if (lo >= b && hi - b < x.size) return;
  for (std::int64_t e = 0; e < x.nnz; ++e) {
    const std::int64_t i = idx(x.indices, x.index_type, e) - b;
    if (i < 0 || i >= x.size) invalid("index out of range at entry " + std::to_string(e), "indices");
  }
}

namespace {

std::byte* elem(const DenseAny& d, std::int64_t r, std::int64_t c) {
  const std::int64_t off = d.layout == Layout::col_major ? r + c * d.ld : r * d.ld + c;
  return static_cast<std::byte*>(d.data) + off * static_cast<std::int64_t>(value_bytes(d.value));
}

bool nonzero(const std::byte* p, Value v) {
  switch (v) {
    case Value::f32: { float x; std::memcpy(&x, p, 4); return x != 0.0f; }
    case Value::f64: { double x; std::memcpy(&x, p, 8); return x != 0.0; }
    case Value::c32: { float x[2]; std::memcpy(x, p, 8); return x[0] != 0.0f || x[1] != 0.0f; }
    case Value::c64: { double x[2]; std::memcpy(x, p, 16); return x[0] != 0.0 || x[1] != 0.0; }
  }
  return false;
}

// Visits the dense matrix in the output's storage order (CSR/COO: by rows; CSC: by columns):
// f(major, minor, element pointer).
template <class F>
void for_each_dense(const DenseAny& A, SparseRef::Format fmt, F&& f) {
  const bool by_cols = fmt == SparseRef::Format::csc;
  const std::int64_t major = by_cols ? A.cols : A.rows, minor = by_cols ? A.rows : A.cols;
  for (std::int64_t m = 0; m < major; ++m)
    for (std::int64_t k = 0; k < minor; ++k) f(m, k, by_cols ? elem(A, k, m) : elem(A, m, k));
}

void check_same_shape(const DenseAny& A, const SparseRef& s) {
  if (A.value != s.value) invalid("dense and sparse value types differ", "valueType");
  if (A.rows != s.rows || A.cols != s.cols) invalid("dense and sparse shapes differ", "matB");
}

}  // namespace

void sparse_to_dense(const SparseRef& A, const DenseAny& B) {
  validate(A);
  check_same_shape(B, A);
  const std::size_t w = value_bytes(A.value);
  for (std::int64_t c = 0; c < B.cols; ++c)
    for (std::int64_t r = 0; r < B.rows; ++r) std::memset(elem(B, r, c), 0, w);
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    std::memcpy(elem(B, i, j), static_cast<const std::byte*>(A.values) + e * static_cast<std::int64_t>(w), w);
  });
}

// On the engines (spvec_engine.cpp fill_and_scatter_engines): B's lines (columns of a column-major B,
// rows of a row-major one) zero-filled by DMA from one VectorE-memset tile, then A's values scattered
// to their element offsets in storage order (the entry order of the loop above; validate() admits
// no position twice). The same bytes as the host loop: values moved as fp32 words.
void sparse_to_dense(const Settings& s, const SparseRef& A, const DenseAny& B, CallReport* report) {
  validate(A);
  check_same_shape(B, A);
  const bool col_major = B.layout == Layout::col_major;
  std::vector<std::int64_t> offset(static_cast<std::size_t>(A.nnz));
  for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    offset[static_cast<std::size_t>(e)] = col_major ? i + j * B.ld : i * B.ld + j;
  });
  const DenseLines lines{B.data, col_major ? B.cols : B.rows, col_major ? B.rows : B.cols, B.ld};
  const std::int64_t extent = lines.lines > 0 ? (lines.lines - 1) * lines.stride + lines.line_len : 0;
  fill_and_scatter_engines(s, lines, {extent, A.nnz, offset.data(), A.values, IndexType::i64, IndexBase::zero, A.value},
                           report);
}

// Blocked-ELL: entry e = i * ell_cols + t * block + c of the values (row i, slot t, column c of the
// slot's block) goes to (i, J * block + c), J the slot's block column; empty slots (-1) move nothing.
void sparse_to_dense(const Settings& s, const BlockedEllView& A, Value v, const DenseAny& B, CallReport* report) {
  BlockedEllView pattern = A;
  pattern.value_type = DType::f32;  // the values are v's (any of the four), checked by the caller
  validate(pattern);
  if (B.value != v) invalid("dense and sparse value types differ", "valueType");
  if (B.rows != A.rows || B.cols != A.cols) invalid("dense and sparse shapes differ", "matB");
  const bool col_major = B.layout == Layout::col_major;
  const std::int64_t slots = A.ell_cols / A.block, b = base_value(A.base);
  std::vector<std::int64_t> offset(static_cast<std::size_t>(A.rows * A.ell_cols), 0), entries;
  for (std::int64_t i = 0; i < A.rows; ++i)
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t raw = idx(A.col_ind, A.index_type, (i / A.block) * slots + t);
      if (raw == -1) continue;
      for (std::int64_t c = 0; c < A.block; ++c) {
        const std::int64_t e = i * A.ell_cols + t * A.block + c, j = (raw - b) * A.block + c;
        offset[static_cast<std::size_t>(e)] = col_major ? i + j * B.ld : i * B.ld + j;
        entries.push_back(e);
      }
    }
  const DenseLines lines{B.data, col_major ? B.cols : B.rows, col_major ? B.rows : B.cols, B.ld};
  const std::int64_t extent = lines.lines > 0 ? (lines.lines - 1) * lines.stride + lines.line_len : 0;
  fill_and_scatter_engines(s, lines, {extent, A.rows * A.ell_cols, offset.data(), A.values, IndexType::i64, IndexBase::zero, v},
                           report, &entries);
}

std::int64_t dense_to_sparse_analysis(const DenseAny& A, const SparseRef& out) {
  check_same_shape(A, out);
  const bool compressed = out.format != SparseRef::Format::coo;
  if (compressed && out.offsets == nullptr) invalid("offsets is NULL", "offsets");
  const std::int64_t major = out.format == SparseRef::Format::csc ? A.cols : A.rows;
  std::vector<std::int64_t> count(static_cast<std::size_t>(major), 0);
  for_each_dense(A, out.format, [&](std::int64_t m, std::int64_t, const std::byte* p) {
    if (nonzero(p, A.value)) ++count[static_cast<std::size_t>(m)];
  });
  const std::int64_t nnz = std::accumulate(count.begin(), count.end(), std::int64_t{0});
  const bool narrow = (compressed ? out.offsets_type : out.indices_type) == IndexType::i32;
  if (narrow && nnz + 1 > std::numeric_limits<std::int32_t>::max()) invalid("nnz does not fit 32-bit indices", "offsets");
  if (!compressed) return nnz;
  std::int64_t run = base_value(out.base);
  put_index(out.offsets, out.offsets_type, 0, run);
  for (std::int64_t m = 0; m < major; ++m) put_index(out.offsets, out.offsets_type, m + 1, run += count[static_cast<std::size_t>(m)]);
  return nnz;
}

namespace {

// A value is stored when some part differs from zero (NaN included, -0 not), as nonzero() decides.
template <class T, int N>
bool stored(const std::byte* p) {
  T x[N];
  std::memcpy(x, p, sizeof x);
  for (int n = 0; n < N; ++n)
    if (x[n] != T(0)) return true;
  return false;
}

// The magnitude bits of a part of type T (all but the sign): a part differs from zero (+0 or -0)
// iff they are not all zero, NaN included.
template <class T>
using PartBits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
template <class T>
constexpr PartBits<T> kMagnitudeBits = ~(PartBits<T>{1} << (sizeof(T) * 8 - 1));

// Appends to `at` the positions t in [0, len) of the line v (len values of N parts of T, adjacent)
// whose value is stored, in increasing t. Groups of kGroup values whose magnitude bits OR to zero
// hold no stored value and are passed over by that one branch-free OR (vectorisable); the others
// are tested value by value with stored(), as before (s26/conv).
template <class T, int N>
void stored_positions(const std::byte* v, std::int64_t len, std::vector<std::int64_t>& at) {
  constexpr std::int64_t kGroup = 16, w = static_cast<std::int64_t>(sizeof(T)) * N;
  std::int64_t t = 0;
  for (; t + kGroup <= len; t += kGroup) {
    PartBits<T> any = 0;
    for (std::int64_t q = 0; q < kGroup * N; ++q) {
      PartBits<T> x;
      std::memcpy(&x, v + (t * N + q) * static_cast<std::int64_t>(sizeof(T)), sizeof x);
      any |= x;
    }
    if ((any & kMagnitudeBits<T>) == 0) continue;  // (OR of x) & mask = OR of (x & mask)
    for (std::int64_t u = t; u < t + kGroup; ++u)
      if (stored<T, N>(v + u * w)) at.push_back(u);
  }
  for (; t < len; ++t)
    if (stored<T, N>(v + t * w)) at.push_back(t);
}

// DenseToSparse_convert in ONE pass over A in its memory order (s16/sparse; s26/conv): the values of
// a line (a column of a column-major A, a row of a row-major one) are adjacent, so a CSR / COO output
// of a column-major A (or CSC of a row-major one) does not walk A across its lines. The scan records
// each line's stored positions (`at`, line l's from first[l]) and counts them per output major m;
// the writes then replay the record -- slot next[m]++, lines (the minors k) in increasing order -- so
// every major's entries land in the order the row-by-row loop wrote them: the same arrays, bit for
// bit, without reading A a second time. `stored` is nonzero() for the value type.
template <class T, int N>
void dense_to_sparse_typed(const DenseAny& A, const SparseRef& out) {
  const bool by_cols = out.format == SparseRef::Format::csc, col_major = A.layout == Layout::col_major;
  const std::int64_t major = by_cols ? A.cols : A.rows;
  const std::int64_t lines = col_major ? A.cols : A.rows, len = col_major ? A.rows : A.cols;
  const bool lines_are_majors = by_cols == col_major;
  constexpr std::int64_t w = static_cast<std::int64_t>(sizeof(T)) * N;
  const auto* base = static_cast<const std::byte*>(A.data);
  auto line_of = [&](std::int64_t l) { return base + l * A.ld * w; };
  std::vector<std::int64_t> at, first(static_cast<std::size_t>(lines) + 1, 0);
  // The analysis' nnz sizes the record; never more than A holds (a wrong nnz is an error below, not an allocation).
  at.reserve(static_cast<std::size_t>(std::clamp<std::int64_t>(out.nnz, 0, lines * len)));
  for (std::int64_t l = 0; l < lines; ++l) {
    stored_positions<T, N>(line_of(l), len, at);
    first[static_cast<std::size_t>(l) + 1] = static_cast<std::int64_t>(at.size());
  }
  const auto nnz = static_cast<std::int64_t>(at.size());
  if (nnz != out.nnz) invalid("nnz differs from the analysis (call DenseToSparse_analysis first)", "nnz");
  if (nnz > 0 && (out.indices == nullptr || out.values == nullptr || out.offsets == nullptr))
    invalid("index or value array is NULL", "matB");
  const std::int64_t b = base_value(out.base);
  const bool coo = out.format == SparseRef::Format::coo;
  auto* values = static_cast<std::byte*>(out.values);
  auto put = [&](std::int64_t e, std::int64_t m, std::int64_t k, const std::byte* p) {
    if (coo) put_index(out.offsets, out.indices_type, e, m + b);
    put_index(out.indices, out.indices_type, e, k + b);
    std::memcpy(values + e * w, p, w);
  };
  if (lines_are_majors) {
    for (std::int64_t m = 0, e = 0; m < lines; ++m) {
      const std::byte* v = line_of(m);
      for (; e < first[static_cast<std::size_t>(m) + 1]; ++e) put(e, m, at[static_cast<std::size_t>(e)], v + at[static_cast<std::size_t>(e)] * w);
    }
    return;
  }
  std::vector<std::int64_t> next(static_cast<std::size_t>(major) + 1, 0);
  for (const std::int64_t t : at) ++next[static_cast<std::size_t>(t) + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());  // next[m]: major m's first slot
  for (std::int64_t k = 0; k < lines; ++k) {
    const std::byte* v = line_of(k);
    for (std::int64_t q = first[static_cast<std::size_t>(k)]; q < first[static_cast<std::size_t>(k) + 1]; ++q) {
      const std::int64_t m = at[static_cast<std::size_t>(q)];
      put(next[static_cast<std::size_t>(m)]++, m, k, v + m * w);
    }
  }
}

}  // namespace

void dense_to_sparse_convert(const DenseAny& A, const SparseRef& out) {
  check_same_shape(A, out);
  switch (A.value) {
    case Value::f32: return dense_to_sparse_typed<float, 1>(A, out);
    case Value::f64: return dense_to_sparse_typed<double, 1>(A, out);
    case Value::c32: return dense_to_sparse_typed<float, 2>(A, out);
    case Value::c64: return dense_to_sparse_typed<double, 2>(A, out);
  }
}

namespace {

// Offsets of a compressed int32 pattern: [0] = base, monotone, [major] - base = nnz.
void check_offsets(const std::int32_t* off, std::int64_t major, std::int64_t nnz, std::int64_t b, const char* item) {
  if (off == nullptr) invalid("offsets is NULL", item);
  if (off[0] != b) invalid("offsets[0] differs from the index base", item);
  // One branch-free pass (vectorisable, s26/conv) decides; a failing array is walked again by the
  // loop below, which names its first fault as before.
  unsigned down = 0;
  for (std::int64_t m = 0; m < major; ++m) down |= static_cast<unsigned>(off[m + 1] < off[m]);
  if (down != 0)
    for (std::int64_t m = 0; m < major; ++m)
      if (off[m + 1] < off[m]) invalid("offsets are not monotone at " + std::to_string(m), item);
  if (off[major] - b != nnz) invalid("offsets[last] - base differs from nnz", item);
}
// Whether every ind[e] lies in [lo, hi): one branch-free pass over unsigned differences
// (vectorisable; s26/conv). Exact when lo >= INT32_MIN, hi <= 2^31 and hi - lo < 2^32 (check_range
// clamps the range to int32's first): a value below lo then wraps to at least 2^31 - lo >= hi - lo.
// Without the clamp, a C++ call with a dimension above 2^31 let INT32_MIN through (session 26 review).
bool in_range(const std::int32_t* ind, std::int64_t nnz, std::int64_t lo, std::int64_t hi) {
  const auto ulo = static_cast<std::uint32_t>(lo), span = static_cast<std::uint32_t>(hi - lo);
  unsigned out = 0;
  for (std::int64_t e = 0; e < nnz; ++e) out |= static_cast<unsigned>(static_cast<std::uint32_t>(ind[e]) - ulo >= span);
  return out == 0;
}
void check_range(const std::int32_t* ind, std::int64_t nnz, std::int64_t lo, std::int64_t hi, const char* item) {
  if (nnz > 0 && ind == nullptr) invalid("index array is NULL", item);
  // An int32 index lies in [lo, hi) exactly when it lies in [lo, hi) clamped to int32's range.
  const std::int64_t lo32 = std::max<std::int64_t>(lo, INT32_MIN), hi32 = std::min<std::int64_t>(hi, std::int64_t{1} << 31);
  if (hi32 - lo32 < (std::int64_t{1} << 32) && hi32 >= lo32 && in_range(ind, nnz, lo32, hi32)) return;
  for (std::int64_t e = 0; e < nnz; ++e)
    if (ind[e] < lo || ind[e] >= hi) invalid("index out of range at entry " + std::to_string(e), item);
}


}  // namespace

void csr_to_csc(std::int64_t m, std::int64_t n, std::int64_t nnz, const void* csr_val, const std::int32_t* row_ptr,
                const std::int32_t* col_ind, void* csc_val, std::int32_t* col_ptr, std::int32_t* row_ind,
                std::size_t vbytes, bool numeric, IndexBase base) {
  const std::int64_t b = base_value(base);
  check_offsets(row_ptr, m, nnz, b, "csrRowPtr");
  check_range(col_ind, nnz, b, n + b, "csrColInd");
  if (col_ptr == nullptr) invalid("cscColPtr is NULL", "cscColPtr");
  if (nnz > 0 && row_ind == nullptr) invalid("cscRowInd is NULL", "cscRowInd");
  if (numeric && nnz > 0 && (csr_val == nullptr || csc_val == nullptr)) invalid("value array is NULL", "cscVal");
  std::vector<std::int64_t> next(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t e = 0; e < nnz; ++e) ++next[static_cast<std::size_t>(col_ind[e] - b) + 1];
  std::partial_sum(next.begin(), next.end(), next.begin());
  for (std::int64_t j = 0; j <= n; ++j) col_ptr[j] = static_cast<std::int32_t>(next[static_cast<std::size_t>(j)] + b);
  with_value_width(numeric ? vbytes : 0, [&](auto width) {
    constexpr std::size_t W = decltype(width)::value;
    const auto* in = static_cast<const std::byte*>(csr_val);
    auto* out = static_cast<std::byte*>(csc_val);
    for (std::int64_t r = 0; r < m; ++r)
      for (std::int64_t e = row_ptr[r] - b; e < row_ptr[r + 1] - b; ++e) {
        const std::int64_t dst = next[static_cast<std::size_t>(col_ind[e] - b)]++;
        row_ind[dst] = static_cast<std::int32_t>(r + b);
        if constexpr (W != 0) {
          std::memcpy(out + dst * static_cast<std::int64_t>(W), in + e * static_cast<std::int64_t>(W), W);
        } else if (numeric) {
          std::memcpy(out + dst * static_cast<std::int64_t>(vbytes), in + e * static_cast<std::int64_t>(vbytes), vbytes);
        }
      }
  });
}

void coo_to_csr(const std::int32_t* coo_rows, std::int64_t nnz, std::int64_t m, std::int32_t* row_ptr, IndexBase base) {
  const std::int64_t b = base_value(base);
  // Sorted rows lie in [b, m + b) iff the first and last do: one branch-free pass over neighbours
  // (vectorisable) decides; an array that fails it is checked by the loops that name its first
  // fault (the range first, then the order, as before). s26/conv.
  if (nnz > 0 && coo_rows == nullptr) invalid("index array is NULL", "cooRowInd");
  unsigned down = 0;
  for (std::int64_t e = 1; e < nnz; ++e) down |= static_cast<unsigned>(coo_rows[e] < coo_rows[e - 1]);
  if (nnz > 0 && (down != 0 || coo_rows[0] < b || coo_rows[nnz - 1] >= m + b)) {
    check_range(coo_rows, nnz, b, m + b, "cooRowInd");
    for (std::int64_t e = 1; e < nnz; ++e)
      if (coo_rows[e] < coo_rows[e - 1]) invalid("row indices not sorted at entry " + std::to_string(e), "cooRowInd");
  }
  if (row_ptr == nullptr) invalid("csrSortedRowPtr is NULL", "csrSortedRowPtr");
  // row_ptr[r] = b + the first entry whose row is r or later (nnz if none): written when the scan
  // reaches that entry, so each entry costs one compare and each row one store.
  std::int64_t r = 0;
  for (std::int64_t e = 0; e < nnz; ++e) {
    const std::int64_t row = coo_rows[e] - b;
    while (r <= row) row_ptr[r++] = static_cast<std::int32_t>(e + b);
  }
  for (; r <= m; ++r) row_ptr[r] = static_cast<std::int32_t>(nnz + b);
}

void csr_to_coo(const std::int32_t* row_ptr, std::int64_t nnz, std::int64_t m, std::int32_t* coo_rows, IndexBase base) {
  const std::int64_t b = base_value(base);
  check_offsets(row_ptr, m, nnz, b, "csrSortedRowPtr");
  if (nnz > 0 && coo_rows == nullptr) invalid("cooRowInd is NULL", "cooRowInd");
  for (std::int64_t r = 0; r < m; ++r) std::fill(coo_rows + (row_ptr[r] - b), coo_rows + (row_ptr[r + 1] - b), static_cast<std::int32_t>(r + b));
}

namespace {

// Applies the stable order `ord` of nnz entries to the arrays (each may be NULL).
void permute_all(const std::vector<std::int64_t>& ord, std::int32_t* a, std::int32_t* b, std::int32_t* P) {
  for (std::int32_t* v : {a, b, P}) {
    if (v == nullptr) continue;
    std::vector<std::int32_t> tmp(ord.size());
    for (std::size_t k = 0; k < ord.size(); ++k) tmp[k] = v[ord[k]];
    std::copy(tmp.begin(), tmp.end(), v);
  }
}

}  // namespace

void coo_sort(std::int64_t m, std::int64_t n, std::int64_t nnz, std::int32_t* rows, std::int32_t* cols, std::int32_t* P,
              bool by_row) {
  // Either index base: rows in [0, m], columns in [0, n].
  check_range(rows, nnz, 0, m + 1, "cooRowsA");
  check_range(cols, nnz, 0, n + 1, "cooColsA");
  if (nnz > 0 && P == nullptr) invalid("P is NULL", "P");
  std::vector<std::int64_t> ord(static_cast<std::size_t>(nnz));
  std::iota(ord.begin(), ord.end(), std::int64_t{0});
  const std::int32_t* major = by_row ? rows : cols;
  const std::int32_t* minor = by_row ? cols : rows;
  std::stable_sort(ord.begin(), ord.end(), [&](std::int64_t x, std::int64_t y) {
    return major[x] != major[y] ? major[x] < major[y] : minor[x] < minor[y];
  });
  permute_all(ord, rows, cols, P);
}

void compressed_sort(std::int64_t major, std::int64_t minor, std::int64_t nnz, const std::int32_t* offsets,
                     std::int32_t* indices, std::int32_t* P, IndexBase base) {
  const std::int64_t b = base_value(base);
  check_offsets(offsets, major, nnz, b, "offsets");
  check_range(indices, nnz, b, minor + b, "indices");
  if (nnz > 0 && P == nullptr) invalid("P is NULL", "P");
  std::vector<std::int64_t> ord(static_cast<std::size_t>(nnz));
  std::iota(ord.begin(), ord.end(), std::int64_t{0});
  for (std::int64_t m = 0; m < major; ++m)
    std::stable_sort(ord.begin() + (offsets[m] - b), ord.begin() + (offsets[m + 1] - b),
                     [&](std::int64_t x, std::int64_t y) { return indices[x] < indices[y]; });
  permute_all(ord, indices, nullptr, P);
}

}  // namespace trn::sparse
