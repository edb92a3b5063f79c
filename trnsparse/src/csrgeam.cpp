// csrgeam2: the union-pattern merge (host index work) and the engines' alpha a + beta b of trn/sparse/csrgeam.hpp.
#include "trn/sparse/csrgeam.hpp"

#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "pair_sums.hpp"
#include "spgemm_blocks.hpp"
#include "trn/core/spmd.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: index helpers
using namespace generic_host;    // NOLINT: host-step helpers
using detail::give_warm_block;
using detail::take_warm_block;

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

void check_shapes(const SparseRef& A, const SparseRef& B) {
  if (A.rows != B.rows || A.cols != B.cols) invalid("csrgeam2: A and B must have one shape", "shape");
  if (A.value != B.value) invalid("csrgeam2: A and B must have one value type", "valueType");
}

// The union pattern of validated CSR A and B (host index work), row by row in column order: a merge of
// the two rows' sorted columns, one step per entry of C (column loads typed: no per-entry index-type
// test). Writes C's row offsets from 0 (rows + 1) and, when `entries`, per entry of C its column and
// its terms' mask (bit 0: A's next entry, bit 1: B's). Returns nnz(C).
struct UnionOut {
  std::int64_t* offsets = nullptr;
  std::int64_t* columns = nullptr;  // nnz(A) + nnz(B) at most
  std::uint8_t* mask = nullptr;
};
template <bool kEntries, class IA, class IB>
std::int64_t merge_rows(const SparseRef& A, const SparseRef& B, const std::vector<std::int64_t>& a_off,
                        const std::vector<std::int64_t>& b_off, const UnionOut& o) {
  const IA* __restrict ac = static_cast<const IA*>(A.indices);
  const IB* __restrict bc = static_cast<const IB*>(B.indices);
  const std::int64_t ab = base_value(A.base), bb = base_value(B.base);
  std::int64_t* __restrict col = o.columns;
  std::uint8_t* __restrict mask = o.mask;
  std::int64_t out = 0;
  o.offsets[0] = 0;
  for (std::int64_t i = 0; i < A.rows; ++i) {
    std::int64_t ea = a_off[z(i)], eb = b_off[z(i)];
    const std::int64_t ea1 = a_off[z(i) + 1], eb1 = b_off[z(i) + 1];
    while (ea < ea1 && eb < eb1) {
      const std::int64_t ca = std::int64_t{ac[ea]} - ab, cb = std::int64_t{bc[eb]} - bb;
      const bool ta = ca <= cb, tb = cb <= ca;
      if constexpr (kEntries) {
        col[out] = ta ? ca : cb;
        mask[out] = static_cast<std::uint8_t>(static_cast<unsigned>(ta) | static_cast<unsigned>(tb) << 1);
      }
      ea += ta;
      eb += tb;
      ++out;
    }
    if constexpr (kEntries) {
      for (; ea < ea1; ++ea, ++out) {
        col[out] = std::int64_t{ac[ea]} - ab;
        mask[out] = 1;
      }
      for (; eb < eb1; ++eb, ++out) {
        col[out] = std::int64_t{bc[eb]} - bb;
        mask[out] = 2;
      }
    } else {
      out += (ea1 - ea) + (eb1 - eb);
    }
    o.offsets[z(i) + 1] = out;
  }
  return out;
}

// nnz(C) of each row only (csrgeam_nnz): |A row| + |B row| - |common columns|, the common columns
// counted by a bitmap of the columns (A's row sets its bits, B's row tests its columns, A's clears
// them: no chain of dependent loads, as the merge's next loads wait on its compare). Writes C's row
// offsets from 0 (rows + 1); bits: (cols + 63) / 64 words, zero, left zero. The offsets merge_rows
// writes.
template <class IA, class IB>
std::int64_t count_rows(const SparseRef& A, const SparseRef& B, const std::vector<std::int64_t>& a_off,
                        const std::vector<std::int64_t>& b_off, std::int64_t* __restrict offsets, std::uint64_t* __restrict bits) {
  const IA* __restrict ac = static_cast<const IA*>(A.indices);
  const IB* __restrict bc = static_cast<const IB*>(B.indices);
  const std::int64_t ab = base_value(A.base), bb = base_value(B.base);
  std::int64_t out = 0;
  offsets[0] = 0;
  for (std::int64_t i = 0; i < A.rows; ++i) {
    const std::int64_t ea0 = a_off[z(i)], ea1 = a_off[z(i) + 1], eb0 = b_off[z(i)], eb1 = b_off[z(i) + 1];
    for (std::int64_t ea = ea0; ea < ea1; ++ea) {
      const auto j = static_cast<std::uint64_t>(std::int64_t{ac[ea]} - ab);
      bits[j >> 6] |= std::uint64_t{1} << (j & 63);
    }
    std::int64_t common = 0;
    for (std::int64_t eb = eb0; eb < eb1; ++eb) {
      const auto j = static_cast<std::uint64_t>(std::int64_t{bc[eb]} - bb);
      common += static_cast<std::int64_t>((bits[j >> 6] >> (j & 63)) & 1u);
    }
    for (std::int64_t ea = ea0; ea < ea1; ++ea) bits[static_cast<std::uint64_t>(std::int64_t{ac[ea]} - ab) >> 6] = 0;
    out += (ea1 - ea0) + (eb1 - eb0) - common;
    offsets[z(i) + 1] = out;
  }
  return out;
}

// A validated CSR's row offsets, base removed.
std::vector<std::int64_t> offsets_of(const SparseRef& m) {
  std::vector<std::int64_t> off(z(m.rows) + 1);
  const std::int64_t b = base_value(m.base);
  for (std::int64_t i = 0; i <= m.rows; ++i) off[z(i)] = idx(m.offsets, m.offsets_type, i) - b;
  return off;
}

// merge_rows for A's and B's column index types into off (C's offsets, rows + 1, from 0) and, when
// col and mask are given, C's columns and masks (sized nnz(A) + nnz(B), warm blocks). Validates A and
// B first; throws when C would have more than 2^31 - 2 entries (its offsets are int32).
std::int64_t union_pattern(const SparseRef& A, const SparseRef& B, std::vector<std::int64_t>& off,
                           std::vector<std::int64_t>* col = nullptr, std::vector<std::uint8_t>* mask = nullptr) {
  check_shapes(A, B);
  validate(A);
  validate(B);
  off.resize(z(A.rows) + 1);
  UnionOut o{.offsets = off.data()};
  const bool entries = col != nullptr;
  if (entries) {
    const std::size_t most = z(A.nnz) + z(B.nnz);
    *col = take_warm_block<std::int64_t>(most);
    *mask = take_warm_block<std::uint8_t>(most);
    col->resize(most);
    mask->resize(most);
    o.columns = col->data();
    o.mask = mask->data();
  }
  const std::vector<std::int64_t> a_off = offsets_of(A), b_off = offsets_of(B);
  const bool a32 = A.indices_type == IndexType::i32, b32 = B.indices_type == IndexType::i32;
  const auto merge = [&]<bool kEntries>() {
    return a32 ? (b32 ? merge_rows<kEntries, std::int32_t, std::int32_t>(A, B, a_off, b_off, o)
                      : merge_rows<kEntries, std::int32_t, std::int64_t>(A, B, a_off, b_off, o))
               : (b32 ? merge_rows<kEntries, std::int64_t, std::int32_t>(A, B, a_off, b_off, o)
                      : merge_rows<kEntries, std::int64_t, std::int64_t>(A, B, a_off, b_off, o));
  };
  // nnz only: the counts by a bitmap of the columns when it is at most one word per stored entry
  // (count_rows; the bitmap's memory then stays below the entries' own), else the merge without its
  // entries. (A.cols / 64 + 1: no overflow for cols near INT64_MAX, the C++ API's limit.)
  const std::int64_t words = A.cols / 64 + 1;
  std::int64_t nnz = 0;
  if (entries) {
    nnz = merge.template operator()<true>();
  } else if (words <= A.nnz + B.nnz) {
    std::vector<std::uint64_t> bits(z(words), 0);
    nnz = a32 ? (b32 ? count_rows<std::int32_t, std::int32_t>(A, B, a_off, b_off, o.offsets, bits.data())
                     : count_rows<std::int32_t, std::int64_t>(A, B, a_off, b_off, o.offsets, bits.data()))
              : (b32 ? count_rows<std::int64_t, std::int32_t>(A, B, a_off, b_off, o.offsets, bits.data())
                     : count_rows<std::int64_t, std::int64_t>(A, B, a_off, b_off, o.offsets, bits.data()));
  } else {
    nnz = merge.template operator()<false>();
  }
  if (nnz > INT32_MAX - 1) invalid("csrgeam2: C has more than 2^31 - 2 entries", "nnzC");
  return nnz;
}

}  // namespace

std::int64_t csrgeam_nnz(const SparseRef& A, const SparseRef& B, IndexBase c_base, std::int32_t* c_offsets) {
  std::vector<std::int64_t> off;
  const std::int64_t nnz = union_pattern(A, B, off);
  for (std::size_t i = 0; i < off.size(); ++i) c_offsets[i] = static_cast<std::int32_t>(off[i] + base_value(c_base));
  return nnz;
}

void csrgeam(const Settings& s, Scalar alpha, const SparseRef& A, Scalar beta, const SparseRef& B, const SparseRef& C,
             CallReport* report) {
  // C's pattern into scratch first: C is left untouched when its offsets are not the union's
  std::vector<std::int64_t> off, col;
  std::vector<std::uint8_t> mask;
  const std::int64_t nnz = union_pattern(A, B, off, &col, &mask);
  const std::int64_t cb = base_value(C.base);
  for (std::int64_t i = 0; i <= A.rows; ++i)
    if (idx(C.offsets, IndexType::i32, i) != static_cast<std::int32_t>(off[z(i)] + cb))
      invalid("csrgeam2: C's row offsets are not Xcsrgeam2Nnz's", "offsetsC");
  if (nnz > 0 && (C.indices == nullptr || C.values == nullptr)) invalid("csrgeam2: C's columns or values are NULL", "columnsC");
  auto* __restrict c_col = static_cast<std::int32_t*>(const_cast<void*>(C.indices));
  for (std::int64_t e = 0; e < nnz; ++e) c_col[e] = static_cast<std::int32_t>(col[z(e)] + cb);
  const std::vector<double> coef = pair_coefficients(A.value, alpha, beta);
  const TermMasks terms{.mask = mask.data(), .entries = nnz, .terms = A.nnz + B.nnz, .u0 = 0, .u1 = A.nnz};
  Trace trace;
  const PairRun run = pair_sums_terms(s, A.value, terms, {A.values, A.nnz, B.values, B.nnz}, {coef.data(), 2}, C.values, trace);
  give_warm_block(col);
  give_warm_block(mask);
  PlanFacts p;
  p.routine = "csrgeam2";
  p.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + " nnzA=" + std::to_string(A.nnz) + " nnzB=" + std::to_string(B.nnz) +
            " nnzC=" + std::to_string(nnz);
  p.variant = std::string(value_name(A.value)) +
              ": row-wise merge of sorted columns (host index work), alpha a + beta b as segment sums of (a, alpha), (b, beta): " +
              "";
  p.ops = std::to_string(static_cast<long long>(pair_flops(A.value, terms.terms))) + " flops";
  p.why = value_is_single(A.value) ? "fp32 values: consecutive entries of C per partition, A's and B's values staged by runs, two slots per entry"
                                   : "no fp64 engine: exact slice pairs on TensorE (the segmented SpMV kernel), one rounding";
  finish_pair_report(s, std::move(trace), p, run, report);
}

}  // namespace trn::sparse
