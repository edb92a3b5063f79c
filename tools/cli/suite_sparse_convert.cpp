// Validation cases of trnsparse's format conversions (issue #28): Csr2cscEx2, Xcoo2csr / Xcsr2coo,
// DenseToSparse / SparseToDense for CSR, CSC and COO, Xcsr2bsrNnz + Scsr2bsr, Xcsr2gebsrNnz +
// {S,D,C,Z}csr2gebsr, {S,D,C,Z}gebsr2gebsc, Xgebsr2gebsrNnz + {S,D,C,Z}gebsr2gebsr,
// {X,S,D,C,Z}gebsr2csr through the C API, and the Sliced-ELL gather (trn/sparse/sell.hpp's
// sell_as_csr), in every value type they take. Conversions move values and never combine them, so
// each case is exact: every output array, element by element (values bit for bit), against the
// formats built here from one random dense matrix by plain loops (independent of trnsparse's
// code). Metric bit_exact: the number of mismatching elements (a failed call counts as one more);
// bound 0. docs/trnsparse.md "Conversions".
#include <trnsparse.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "sparse_columns.hpp"
#include "trn/sparse/generic.hpp"
#include "trn/sparse/sell.hpp"

namespace trnsci::cli {
namespace {

namespace sp = trn::sparse;
using Bytes = std::vector<unsigned char>;

trnDataType_t data_type(sp::Value v) {
  switch (v) {
    case sp::Value::f32: return TRN_R_32F;
    case sp::Value::f64: return TRN_R_64F;
    case sp::Value::c32: return TRN_C_32F;
    default: return TRN_C_64F;
  }
}

// An m x n matrix with ~density nonzeros (row 7 and column 11 empty), column-major with ld = m + 3
// (the padding rows hold 0xAB bytes, which SparseToDense must leave alone), and its CSR, CSC and
// COO (base 0, sorted) built by scanning it.
struct Ref {
  int m = 0, n = 0, ld = 0;
  std::size_t vb = 0;
  sp::Value value = sp::Value::f32;
  Bytes dense;
  std::vector<int> csr_off{0}, csr_col, csc_off{0}, csc_row, coo_row;
  Bytes csr_val, csc_val;
  const unsigned char* at(int i, int j) const { return dense.data() + (static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld) * vb; }
  bool nonzero(int i, int j) const { return std::any_of(at(i, j), at(i, j) + vb, [](unsigned char c) { return c != 0; }); }
};

Ref make_ref(sp::Value v, int m, int n, double density, std::uint64_t seed) {
  Ref r;
  r.m = m, r.n = n, r.ld = m + 3, r.value = v, r.vb = sp::value_bytes(v);
  r.dense.assign(static_cast<std::size_t>(r.ld) * n * r.vb, 0);
  std::mt19937_64 g(seed);
  std::bernoulli_distribution keep(density);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < r.ld; ++i) {
      unsigned char* p = r.dense.data() + (static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * r.ld) * r.vb;
      if (i >= m) {
        std::memset(p, 0xAB, r.vb);
        continue;
      }
      if (i == 7 || j == 11 || !keep(g)) continue;
      const double parts[2] = {g() % 2 ? u(g) : -u(g), g() % 2 ? u(g) : -u(g)};
      if (v == sp::Value::f32 || v == sp::Value::c32) {
        const float f[2] = {static_cast<float>(parts[0]), static_cast<float>(parts[1])};
        std::memcpy(p, f, r.vb);
      } else {
        std::memcpy(p, parts, r.vb);
      }
    }
  auto push = [&](Bytes& vals, int i, int j) { vals.insert(vals.end(), r.at(i, j), r.at(i, j) + r.vb); };
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j)
      if (r.nonzero(i, j)) {
        r.csr_col.push_back(j);
        r.coo_row.push_back(i);
        push(r.csr_val, i, j);
      }
    r.csr_off.push_back(static_cast<int>(r.csr_col.size()));
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i)
      if (r.nonzero(i, j)) {
        r.csc_row.push_back(i);
        push(r.csc_val, i, j);
      }
    r.csc_off.push_back(static_cast<int>(r.csc_row.size()));
  }
  return r;
}

// Mismatching elements of got against want (element = `width` bytes; a length difference counts
// every missing or extra element).
std::int64_t mismatches(const void* got, std::size_t got_n, const void* want, std::size_t want_n, std::size_t width) {
  std::int64_t bad = static_cast<std::int64_t>(std::max(got_n, want_n) - std::min(got_n, want_n));
  for (std::size_t e = 0; e < std::min(got_n, want_n); ++e)
    bad += std::memcmp(static_cast<const unsigned char*>(got) + e * width, static_cast<const unsigned char*>(want) + e * width, width) != 0;
  return bad;
}
template <class T>
std::int64_t mismatches(const std::vector<T>& got, const std::vector<T>& want) {
  return mismatches(got.data(), got.size(), want.data(), want.size(), sizeof(T));
}
std::int64_t mismatches(const Bytes& got, const Bytes& want, std::size_t vb) {
  return mismatches(got.data(), got.size() / vb, want.data(), want.size() / vb, vb);
}
std::vector<int> plus(std::vector<int> x, int k) {
  for (int& e : x) e += k;
  return x;
}

// What a case found: mismatches, and the calls that did not return SUCCESS.
struct Tally {
  std::int64_t bad = 0;
  std::string failed;
  void call(trnsparseStatus_t st, const char* what) {
    if (st == TRNSPARSE_STATUS_SUCCESS) return;
    ++bad;
    failed += std::string(failed.empty() ? "" : ", ") + what + " -> " + std::to_string(static_cast<int>(st));
  }
};

CaseResult result_of(const Tally& t, const std::string& note, double seconds) {
  return exact_result(static_cast<double>(t.bad), note + (t.failed.empty() ? "" : "; failed calls: " + t.failed), seconds);
}

// A handle for the case's calls.
struct Handle {
  trnsparseHandle_t h = nullptr;
  Handle() { trnsparseCreate(&h); }
  ~Handle() { trnsparseDestroy(h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
};

// A handle and the legacy descriptors of csr2bsr / csr2gebsr: A general base 0, C general base 1.
struct Legacy {
  Handle handle;
  trnsparseHandle_t h = handle.h;
  trnsparseMatDescr_t dA = nullptr, dC = nullptr;
  Legacy() {
    trnsparseCreateMatDescr(&dA);
    trnsparseCreateMatDescr(&dC);
    trnsparseSetMatIndexBase(dC, TRNSPARSE_INDEX_BASE_ONE);
  }
  ~Legacy() {
    trnsparseDestroyMatDescr(dA);
    trnsparseDestroyMatDescr(dC);
  }
  Legacy(const Legacy&) = delete;
  Legacy& operator=(const Legacy&) = delete;
};

constexpr int kM = 300, kN = 200;
constexpr double kDensity = 0.05;
std::uint64_t seed_of(sp::Value v) { return 1000 + static_cast<std::uint64_t>(v); }

// The timed call of a bench row: host seconds, and the modeled profile of the C API call.
struct Timed {
  double seconds = 0;
  trnProfile_t profile{};
};

// Csr2cscEx2 (numeric, base 0 and base 1) against the CSC scanned from the dense matrix (m x n at
// `density`; the validate case's 300 x 200 at 5% unless given). timed: the base-0 call's time and profile.
Tally csr2csc(sp::Value v, int m = kM, int n = kN, double density = kDensity,
              Timed* timed = nullptr, trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  Handle h;
  trnsparseSetTarget(h.h, static_cast<trnTarget_t>(target));
  Tally t;
  const int nnz = static_cast<int>(r.csr_col.size());
  for (int base : {0, 1}) {
    const std::vector<int> off = plus(r.csr_off, base), col = plus(r.csr_col, base);
    std::vector<int> cptr(static_cast<std::size_t>(n) + 1, -7), rind(static_cast<std::size_t>(nnz), -7);
    Bytes cval(r.csr_val.size(), 0xCD);
    std::size_t bytes = 0;
    const auto b = static_cast<trnsparseIndexBase_t>(base);
    t.call(trnsparseCsr2cscEx2_bufferSize(h.h, m, n, nnz, r.csr_val.data(), off.data(), col.data(), cval.data(), cptr.data(),
                                          rind.data(), data_type(v), TRNSPARSE_ACTION_NUMERIC, b, TRNSPARSE_CSR2CSC_ALG1, &bytes),
           "Csr2cscEx2_bufferSize");
    std::vector<unsigned char> buffer(std::max<std::size_t>(bytes, 1));
    const double t0 = now_seconds();
    t.call(trnsparseCsr2cscEx2(h.h, m, n, nnz, r.csr_val.data(), off.data(), col.data(), cval.data(), cptr.data(), rind.data(),
                               data_type(v), TRNSPARSE_ACTION_NUMERIC, b, TRNSPARSE_CSR2CSC_ALG1, buffer.data()),
           "Csr2cscEx2");
    if (timed && base == 0) {
      timed->seconds = seconds_since(t0);
      trnsparseGetLastProfile(h.h, &timed->profile);
    }
    t.bad += mismatches(cptr, plus(r.csc_off, base)) + mismatches(rind, plus(r.csc_row, base)) + mismatches(cval, r.csc_val, r.vb);
  }
  return t;
}

// Xcoo2csr and Xcsr2coo (index arrays only), base 0 and base 1, on the reference's pattern (the
// validate case's 300 x 200 at 5% unless given). to_csr / to_coo: the base-0 calls' times and profiles.
Tally coo_csr(int m = kM, int n = kN, double density = kDensity, Timed* to_csr = nullptr, Timed* to_coo = nullptr,
              trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(sp::Value::f32, m, n, density, seed_of(sp::Value::f32));
  Handle h;
  trnsparseSetTarget(h.h, static_cast<trnTarget_t>(target));
  Tally t;
  const int nnz = static_cast<int>(r.coo_row.size());
  auto timed_call = [&h, &t](Timed* timed, const char* what, auto call) {
    const double t0 = now_seconds();
    t.call(call(), what);
    if (timed == nullptr) return;
    timed->seconds = seconds_since(t0);
    trnsparseGetLastProfile(h.h, &timed->profile);
  };
  for (int base : {0, 1}) {
    const auto b = static_cast<trnsparseIndexBase_t>(base);
    std::vector<int> off(static_cast<std::size_t>(m) + 1, -7), rows(static_cast<std::size_t>(nnz), -7);
    const std::vector<int> coo = plus(r.coo_row, base), csr = plus(r.csr_off, base);
    timed_call(base == 0 ? to_csr : nullptr, "Xcoo2csr", [&] { return trnsparseXcoo2csr(h.h, coo.data(), nnz, m, off.data(), b); });
    timed_call(base == 0 ? to_coo : nullptr, "Xcsr2coo", [&] { return trnsparseXcsr2coo(h.h, csr.data(), nnz, m, rows.data(), b); });
    t.bad += mismatches(off, csr) + mismatches(rows, coo);
  }
  return t;
}

enum class Fmt { csr, csc, coo };
const char* fmt_name(Fmt f) { return f == Fmt::csr ? "csr" : f == Fmt::csc ? "csc" : "coo"; }

// DenseToSparse (bufferSize, analysis, SetPointers, convert) into `f`, then SparseToDense from the
// reference arrays into a dense matrix whose padding rows must keep their bytes.
// The validate case's 300 x 200 at 5% unless given; timed: DenseToSparse_convert's time and profile
// (time_to_dense: SparseToDense's instead).
Tally dense_sparse(sp::Value v, Fmt f, int m = kM, int n = kN, double density = kDensity,
                   Timed* timed = nullptr, trn::Generation target = trn::Generation::trn1, bool time_to_dense = false) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  Handle h;
  trnsparseSetTarget(h.h, static_cast<trnTarget_t>(target));
  Tally t;
  const trnDataType_t dt = data_type(v);
  const std::vector<int>& want_off = f == Fmt::csc ? r.csc_off : r.csr_off;
  const std::vector<int>& want_idx = f == Fmt::csc ? r.csc_row : r.csr_col;
  const Bytes& want_val = f == Fmt::csc ? r.csc_val : r.csr_val;
  const std::size_t nnz = want_idx.size();
  trnsparseDnMatDescr_t A = nullptr;
  trnsparseSpMatDescr_t B = nullptr;
  t.call(trnsparseCreateDnMat(&A, m, n, r.ld, const_cast<unsigned char*>(r.dense.data()), dt, TRNSPARSE_ORDER_COL), "CreateDnMat");
  std::vector<int> off(static_cast<std::size_t>(f == Fmt::csc ? n : m) + 1, -7), idx(nnz, -7), rows(nnz, -7);
  Bytes val(want_val.size(), 0xCD);
  if (f == Fmt::csr)
    t.call(trnsparseCreateCsr(&B, m, n, 0, off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, dt), "CreateCsr");
  else if (f == Fmt::csc)
    t.call(trnsparseCreateCsc(&B, m, n, 0, off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, dt), "CreateCsc");
  else
    t.call(trnsparseCreateCoo(&B, m, n, 0, nullptr, nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, dt),
           "CreateCoo");
  std::size_t bytes = 0;
  t.call(trnsparseDenseToSparse_bufferSize(h.h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes), "DenseToSparse_bufferSize");
  std::vector<unsigned char> buffer(std::max<std::size_t>(bytes, 1));
  t.call(trnsparseDenseToSparse_analysis(h.h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer.data()), "DenseToSparse_analysis");
  std::int64_t rows_got = 0, cols_got = 0, nnz_got = 0;
  t.call(trnsparseSpMatGetSize(B, &rows_got, &cols_got, &nnz_got), "SpMatGetSize");
  t.bad += nnz_got != static_cast<std::int64_t>(nnz);
  if (f == Fmt::csr) t.call(trnsparseCsrSetPointers(B, off.data(), idx.data(), val.data()), "CsrSetPointers");
  if (f == Fmt::csc) t.call(trnsparseCscSetPointers(B, off.data(), idx.data(), val.data()), "CscSetPointers");
  if (f == Fmt::coo) t.call(trnsparseCooSetPointers(B, rows.data(), idx.data(), val.data()), "CooSetPointers");
  if (nnz_got == static_cast<std::int64_t>(nnz)) {
    const double t0 = now_seconds();
    t.call(trnsparseDenseToSparse_convert(h.h, A, B, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer.data()), "DenseToSparse_convert");
    if (timed != nullptr && !time_to_dense) {
      timed->seconds = seconds_since(t0);
      trnsparseGetLastProfile(h.h, &timed->profile);
    }
  }
  t.bad += mismatches(idx, want_idx) + mismatches(val, want_val, r.vb);
  t.bad += f == Fmt::coo ? mismatches(rows, r.coo_row) : mismatches(off, want_off);
  trnsparseDestroySpMat(B);
  trnsparseDestroyDnMat(A);
  // SparseToDense from the reference arrays.
  trnsparseConstSpMatDescr_t S = nullptr;
  trnsparseDnMatDescr_t D = nullptr;
  const void* vals = want_val.data();
  if (f == Fmt::csr)
    t.call(trnsparseCreateConstCsr(&S, m, n, static_cast<std::int64_t>(nnz), r.csr_off.data(), r.csr_col.data(), vals,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, dt), "CreateConstCsr");
  else if (f == Fmt::csc)
    t.call(trnsparseCreateConstCsc(&S, m, n, static_cast<std::int64_t>(nnz), r.csc_off.data(), r.csc_row.data(), vals,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, dt), "CreateConstCsc");
  else
    t.call(trnsparseCreateConstCoo(&S, m, n, static_cast<std::int64_t>(nnz), r.coo_row.data(), r.csr_col.data(), vals,
                                   TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, dt), "CreateConstCoo");
  Bytes out(r.dense.size(), 0xEE);
  for (int j = 0; j < n; ++j)  // the padding rows as the reference holds them; the matrix part garbage
    std::memset(out.data() + (static_cast<std::size_t>(m) + static_cast<std::size_t>(j) * r.ld) * r.vb, 0xAB, 3 * r.vb);
  t.call(trnsparseCreateDnMat(&D, m, n, r.ld, out.data(), dt, TRNSPARSE_ORDER_COL), "CreateDnMat");
  t.call(trnsparseSparseToDense_bufferSize(h.h, S, D, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, &bytes), "SparseToDense_bufferSize");
  buffer.assign(std::max<std::size_t>(bytes, 1), 0);
  const double t0 = now_seconds();
  t.call(trnsparseSparseToDense(h.h, S, D, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer.data()), "SparseToDense");
  if (timed != nullptr && time_to_dense) {
    timed->seconds = seconds_since(t0);
    trnsparseGetLastProfile(h.h, &timed->profile);
  }
  t.bad += mismatches(out, r.dense, r.vb);
  trnsparseDestroySpMat(S);
  trnsparseDestroyDnMat(D);
  return t;
}

// The general BSR of the reference in rb x cb blocks (block order row or column), counted from base:
// a block of the rows x cols matrix is stored iff stored(i, j) for one of its entries; its values
// zero-filled, then the reference's copied in (zero outside its m x n).
struct Gebsr {
  std::vector<int> row{0}, col;
  Bytes val;
};
// Block (I, J) of that matrix into `block` (rb cb values, zero-filled, then the reference's copied
// in); false when none of its entries is stored.
bool cover_block(const Ref& r, int I, int J, int rb, int cb, bool row_order, int rows, int cols,
                 const std::function<bool(int, int)>& stored, Bytes& block) {
  block.assign(static_cast<std::size_t>(rb) * cb * r.vb, 0);
  bool any = false;
  for (int i = I * rb; i < std::min(rows, (I + 1) * rb); ++i)
    for (int j = J * cb; j < std::min(cols, (J + 1) * cb); ++j)
      if (stored(i, j)) {
        any = true;
        const int a = i - I * rb, c = j - J * cb;
        if (i < r.m && j < r.n)
          std::memcpy(block.data() + static_cast<std::size_t>(row_order ? a * cb + c : a + c * rb) * r.vb, r.at(i, j), r.vb);
      }
  return any;
}
Gebsr gebsr_cover(const Ref& r, int rb, int cb, bool row_order, int base, int rows, int cols,
                  const std::function<bool(int, int)>& stored) {
  Gebsr b;
  b.row[0] = base;
  Bytes block;
  for (int I = 0; I * rb < rows; ++I) {
    for (int J = 0; J * cb < cols; ++J) {
      if (!cover_block(r, I, J, rb, cb, row_order, rows, cols, stored, block)) continue;
      b.col.push_back(J + base);
      b.val.insert(b.val.end(), block.begin(), block.end());
    }
    b.row.push_back(static_cast<int>(b.col.size()) + base);
  }
  return b;
}
// A block is stored iff one of its entries is nonzero.
Gebsr gebsr_of(const Ref& r, int rb, int cb, bool row_order, int base) {
  return gebsr_cover(r, rb, cb, row_order, base, r.m, r.n, [&r](int i, int j) { return r.nonzero(i, j); });
}

// Xcsr2gebsrNnz + <t>csr2gebsr (rb x cb = 3 x 5 and 4 x 4; row and column block order; output base 1).
// m, n, density: the reference's (the validate case's unless given); timed: the first <t>csr2gebsr
// call's time and profile.
Tally csr2gebsr(sp::Value v, int m = kM, int n = kN, double density = kDensity, Timed* timed = nullptr,
                trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  const Legacy L;
  trnsparseSetTarget(L.h, static_cast<trnTarget_t>(target));
  const trnsparseMatDescr_t dA = L.dA, dC = L.dC;
  Tally t;
  for (const auto& [rb, cb, row_order] : {std::tuple{3, 5, true}, std::tuple{4, 4, false}}) {
    const Gebsr want = gebsr_of(r, rb, cb, row_order, 1);
    const auto dir = row_order ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    std::vector<int> row(static_cast<std::size_t>((m + rb - 1) / rb) + 1, -7);
    int nnzb = -1;
    t.call(trnsparseXcsr2gebsrNnz(L.h, dir, m, n, dA, r.csr_off.data(), r.csr_col.data(), dC, row.data(), rb, cb, &nnzb, nullptr),
           "Xcsr2gebsrNnz");
    t.bad += mismatches(row, want.row) + (nnzb != static_cast<int>(want.col.size()));
    if (nnzb != static_cast<int>(want.col.size())) continue;
    std::vector<int> col(want.col.size(), -7);
    Bytes val(want.val.size(), 0xCD);
    const void* in = r.csr_val.data();
    void* out = val.data();
    const int* rp = r.csr_off.data();
    const int* ci = r.csr_col.data();
    trnsparseStatus_t st = TRNSPARSE_STATUS_SUCCESS;
    const double t0 = now_seconds();
    switch (v) {
      case sp::Value::f32:
        st = trnsparseScsr2gebsr(L.h, dir, m, n, dA, static_cast<const float*>(in), rp, ci, dC, static_cast<float*>(out), row.data(),
                                 col.data(), rb, cb, nullptr);
        break;
      case sp::Value::f64:
        st = trnsparseDcsr2gebsr(L.h, dir, m, n, dA, static_cast<const double*>(in), rp, ci, dC, static_cast<double*>(out),
                                 row.data(), col.data(), rb, cb, nullptr);
        break;
      case sp::Value::c32:
        st = trnsparseCcsr2gebsr(L.h, dir, m, n, dA, static_cast<const trnComplex*>(in), rp, ci, dC, static_cast<trnComplex*>(out),
                                 row.data(), col.data(), rb, cb, nullptr);
        break;
      case sp::Value::c64:
        st = trnsparseZcsr2gebsr(L.h, dir, m, n, dA, static_cast<const trnDoubleComplex*>(in), rp, ci, dC,
                                 static_cast<trnDoubleComplex*>(out), row.data(), col.data(), rb, cb, nullptr);
        break;
    }
    if (timed != nullptr && rb == 3) {
      timed->seconds = seconds_since(t0);
      trnsparseGetLastProfile(L.h, &timed->profile);
    }
    t.call(st, "csr2gebsr");
    t.bad += mismatches(col, want.col) + mismatches(val, want.val, r.vb);
  }
  return t;
}

// ---- gebsr2gebsr / gebsr2csr (s11/spconv) ----------------------------------------------------

// A general BSR input: the reference in rb x cb blocks (base 0), its padded size, and which of its
// entries a stored block covers (every value of a stored block is an entry of C, explicit zeros too).
struct GebsrInput {
  int rb = 1, cb = 1, mb = 0, nb = 0;
  bool row_order = true;
  Gebsr a;
  std::vector<char> covered;  // mb rb x nb cb, row-major
  int rows() const { return mb * rb; }
  int cols() const { return nb * cb; }
  std::function<bool(int, int)> stored() const {
    return [this](int i, int j) { return covered[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols()) + static_cast<std::size_t>(j)] != 0; };
  }
};
GebsrInput gebsr_input(const Ref& r, int rb, int cb, bool row_order) {
  GebsrInput in{rb, cb, (r.m + rb - 1) / rb, (r.n + cb - 1) / cb, row_order, gebsr_of(r, rb, cb, row_order, 0), {}};
  in.covered.assign(static_cast<std::size_t>(in.rows()) * static_cast<std::size_t>(in.cols()), 0);
  for (int I = 0; I < in.mb; ++I)
    for (int k = in.a.row[static_cast<std::size_t>(I)]; k < in.a.row[static_cast<std::size_t>(I) + 1]; ++k)
      for (int i = I * rb; i < (I + 1) * rb; ++i)
        for (int j = in.a.col[static_cast<std::size_t>(k)] * cb; j < (in.a.col[static_cast<std::size_t>(k)] + 1) * cb; ++j)
          in.covered[static_cast<std::size_t>(i) * static_cast<std::size_t>(in.cols()) + static_cast<std::size_t>(j)] = 1;
  return in;
}

// <t>gebsr2gebsr for value type v (the arrays as bytes).
trnsparseStatus_t call_gebsr2gebsr(sp::Value v, trnsparseHandle_t h, trnsparseDirection_t dir, const GebsrInput& in,
                                   trnsparseMatDescr_t dA, trnsparseMatDescr_t dC, void* val, int* row, int* col, int rbc, int cbc) {
  const int nnzb = static_cast<int>(in.a.col.size());
  const void* av = in.a.val.data();
  const int *ar = in.a.row.data(), *ac = in.a.col.data();
  switch (v) {
    case sp::Value::f32:
      return trnsparseSgebsr2gebsr(h, dir, in.mb, in.nb, nnzb, dA, static_cast<const float*>(av), ar, ac, in.rb, in.cb, dC,
                                   static_cast<float*>(val), row, col, rbc, cbc, nullptr);
    case sp::Value::f64:
      return trnsparseDgebsr2gebsr(h, dir, in.mb, in.nb, nnzb, dA, static_cast<const double*>(av), ar, ac, in.rb, in.cb, dC,
                                   static_cast<double*>(val), row, col, rbc, cbc, nullptr);
    case sp::Value::c32:
      return trnsparseCgebsr2gebsr(h, dir, in.mb, in.nb, nnzb, dA, static_cast<const trnComplex*>(av), ar, ac, in.rb, in.cb, dC,
                                   static_cast<trnComplex*>(val), row, col, rbc, cbc, nullptr);
    default:
      return trnsparseZgebsr2gebsr(h, dir, in.mb, in.nb, nnzb, dA, static_cast<const trnDoubleComplex*>(av), ar, ac, in.rb, in.cb, dC,
                                   static_cast<trnDoubleComplex*>(val), row, col, rbc, cbc, nullptr);
  }
}
// <t>gebsr2csr for value type v.
trnsparseStatus_t call_gebsr2csr(sp::Value v, trnsparseHandle_t h, trnsparseDirection_t dir, const GebsrInput& in,
                                 trnsparseMatDescr_t dA, trnsparseMatDescr_t dC, void* val, int* row, int* col) {
  const void* av = in.a.val.data();
  const int *ar = in.a.row.data(), *ac = in.a.col.data();
  switch (v) {
    case sp::Value::f32:
      return trnsparseSgebsr2csr(h, dir, in.mb, in.nb, dA, static_cast<const float*>(av), ar, ac, in.rb, in.cb, dC, static_cast<float*>(val),
                                 row, col);
    case sp::Value::f64:
      return trnsparseDgebsr2csr(h, dir, in.mb, in.nb, dA, static_cast<const double*>(av), ar, ac, in.rb, in.cb, dC,
                                 static_cast<double*>(val), row, col);
    case sp::Value::c32:
      return trnsparseCgebsr2csr(h, dir, in.mb, in.nb, dA, static_cast<const trnComplex*>(av), ar, ac, in.rb, in.cb, dC,
                                 static_cast<trnComplex*>(val), row, col);
    default:
      return trnsparseZgebsr2csr(h, dir, in.mb, in.nb, dA, static_cast<const trnDoubleComplex*>(av), ar, ac, in.rb, in.cb, dC,
                                 static_cast<trnDoubleComplex*>(val), row, col);
  }
}

// The (input blocks, output blocks) pairs of the gebsr cases: dims that do not divide 300 x 200
// (padding rows / columns), both block orders.
struct Reblock {
  int rb, cb, rbc, cbc;
  bool row_order;
};
constexpr Reblock kReblocks[] = {{7, 3, 4, 5, true}, {4, 6, 5, 2, false}};

// Xgebsr2gebsrNnz + <t>gebsr2gebsr (output base 1) against gebsr_cover of the covered entries.
// m, n, density: the reference's (the validate case's 300 x 200 at 5% unless given); timed: the
// first gebsr2gebsr call's time and profile.
Tally gebsr2gebsr(sp::Value v, int m = kM, int n = kN, double density = kDensity, Timed* timed = nullptr,
                  trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  const Legacy L;
  trnsparseSetTarget(L.h, static_cast<trnTarget_t>(target));
  Tally t;
  for (const Reblock& b : kReblocks) {
    const GebsrInput in = gebsr_input(r, b.rb, b.cb, b.row_order);
    const Gebsr want = gebsr_cover(r, b.rbc, b.cbc, b.row_order, 1, in.rows(), in.cols(), in.stored());
    const auto dir = b.row_order ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    std::vector<int> row(static_cast<std::size_t>((in.rows() + b.rbc - 1) / b.rbc) + 1, -7);
    int nnzb = -1;
    t.call(trnsparseXgebsr2gebsrNnz(L.h, dir, in.mb, in.nb, static_cast<int>(in.a.col.size()), L.dA, in.a.row.data(), in.a.col.data(),
                                    b.rb, b.cb, L.dC, row.data(), b.rbc, b.cbc, &nnzb, nullptr),
           "Xgebsr2gebsrNnz");
    t.bad += mismatches(row, want.row) + (nnzb != static_cast<int>(want.col.size()));
    if (nnzb != static_cast<int>(want.col.size())) continue;
    std::vector<int> col(want.col.size(), -7);
    Bytes val(want.val.size(), 0xCD);
    const double t0 = now_seconds();
    t.call(call_gebsr2gebsr(v, L.h, dir, in, L.dA, L.dC, val.data(), row.data(), col.data(), b.rbc, b.cbc), "gebsr2gebsr");
    if (timed != nullptr && &b == &kReblocks[0]) {
      timed->seconds = seconds_since(t0);
      trnsparseGetLastProfile(L.h, &timed->profile);
    }
    t.bad += mismatches(col, want.col) + mismatches(val, want.val, r.vb);
  }
  return t;
}

// <t>gebsr2csr and Xgebsr2csr (output base 1) against the covered entries scanned row by row (the
// 1 x 1 blocks of gebsr_cover). timed: the first <t>gebsr2csr call's time and profile.
Tally gebsr2csr(sp::Value v, int m = kM, int n = kN, double density = kDensity, Timed* timed = nullptr,
                trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  const Legacy L;
  trnsparseSetTarget(L.h, static_cast<trnTarget_t>(target));
  Tally t;
  for (const Reblock& b : kReblocks) {
    const GebsrInput in = gebsr_input(r, b.rb, b.cb, b.row_order);
    const Gebsr want = gebsr_cover(r, 1, 1, true, 1, in.rows(), in.cols(), in.stored());
    const auto dir = b.row_order ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    std::vector<int> row(want.row.size(), -7), col(want.col.size(), -7), xrow(row), xcol(col);
    Bytes val(want.val.size(), 0xCD);
    const double t0 = now_seconds();
    t.call(call_gebsr2csr(v, L.h, dir, in, L.dA, L.dC, val.data(), row.data(), col.data()), "gebsr2csr");
    if (timed != nullptr && &b == &kReblocks[0]) {
      timed->seconds = seconds_since(t0);
      trnsparseGetLastProfile(L.h, &timed->profile);
    }
    t.call(trnsparseXgebsr2csr(L.h, dir, in.mb, in.nb, L.dA, in.a.row.data(), in.a.col.data(), b.rb, b.cb, L.dC, xrow.data(), xcol.data()),
           "Xgebsr2csr");
    t.bad += mismatches(row, want.row) + mismatches(col, want.col) + mismatches(val, want.val, r.vb);
    t.bad += mismatches(xrow, want.row) + mismatches(xcol, want.col);
  }
  return t;
}

// ---- gebsr2gebsc (s13/spgap) -----------------------------------------------------------------

// The general BSC of the reference's rb x cb block pattern (what gebsr2gebsc must write): block
// columns in order, each one's stored blocks by increasing block row, every block's values as the
// BSR stores them (gebsr2gebsc moves blocks whole, their inner order kept), counted from base.
struct Gebsc {
  std::vector<int> col{0}, row;
  Bytes val;
};
Gebsc gebsc_of(const Ref& r, int rb, int cb, bool row_order, int base) {
  Gebsc c;
  c.col[0] = base;
  Bytes block;
  const auto stored = [&r](int i, int j) { return r.nonzero(i, j); };
  for (int J = 0; J * cb < r.n; ++J) {
    for (int I = 0; I * rb < r.m; ++I) {
      if (!cover_block(r, I, J, rb, cb, row_order, r.m, r.n, stored, block)) continue;
      c.row.push_back(I + base);
      c.val.insert(c.val.end(), block.begin(), block.end());
    }
    c.col.push_back(static_cast<int>(c.row.size()) + base);
  }
  return c;
}

// <t>gebsr2gebsc for value type v on the general BSR `a` (mb x nb blocks of rb x cb).
trnsparseStatus_t call_gebsr2gebsc(sp::Value v, trnsparseHandle_t h, int mb, int nb, const Gebsr& a, int rb, int cb, void* val,
                                   int* row, int* col, trnsparseAction_t act, trnsparseIndexBase_t base) {
  const int nnzb = static_cast<int>(a.col.size());
  const void* av = a.val.data();
  const int *ar = a.row.data(), *ac = a.col.data();
  switch (v) {
    case sp::Value::f32:
      return trnsparseSgebsr2gebsc(h, mb, nb, nnzb, static_cast<const float*>(av), ar, ac, rb, cb, static_cast<float*>(val), row, col,
                                   act, base, nullptr);
    case sp::Value::f64:
      return trnsparseDgebsr2gebsc(h, mb, nb, nnzb, static_cast<const double*>(av), ar, ac, rb, cb, static_cast<double*>(val), row,
                                   col, act, base, nullptr);
    case sp::Value::c32:
      return trnsparseCgebsr2gebsc(h, mb, nb, nnzb, static_cast<const trnComplex*>(av), ar, ac, rb, cb, static_cast<trnComplex*>(val),
                                   row, col, act, base, nullptr);
    default:
      return trnsparseZgebsr2gebsc(h, mb, nb, nnzb, static_cast<const trnDoubleComplex*>(av), ar, ac, rb, cb,
                                   static_cast<trnDoubleComplex*>(val), row, col, act, base, nullptr);
  }
}

// <t>gebsr2gebsc NUMERIC (7x3 row-order and 4x6 column-order blocks, base 0 and 1) against gebsc_of,
// then SYMBOLIC (base 1), whose bscVal must keep its bytes. m, n, density: the reference's (the
// validate case's unless given); timed: the first NUMERIC call's time and profile.
Tally gebsr2gebsc(sp::Value v, int m = kM, int n = kN, double density = kDensity, Timed* timed = nullptr,
                  trn::Generation target = trn::Generation::trn1) {
  const Ref r = make_ref(v, m, n, density, seed_of(v));
  Handle h;
  trnsparseSetTarget(h.h, static_cast<trnTarget_t>(target));
  Tally t;
  for (const Reblock& b : kReblocks) {
    const int mb = (m + b.rb - 1) / b.rb, nb = (n + b.cb - 1) / b.cb;
    for (int base : {0, 1}) {
      const Gebsr a = gebsr_of(r, b.rb, b.cb, b.row_order, base);
      const Gebsc want = gebsc_of(r, b.rb, b.cb, b.row_order, base);
      std::vector<int> row(want.row.size(), -7), col(want.col.size(), -7);
      Bytes val(want.val.size(), 0xCD);
      const double t0 = now_seconds();
      t.call(call_gebsr2gebsc(v, h.h, mb, nb, a, b.rb, b.cb, val.data(), row.data(), col.data(), TRNSPARSE_ACTION_NUMERIC,
                              static_cast<trnsparseIndexBase_t>(base)),
             "gebsr2gebsc");
      if (timed != nullptr && &b == &kReblocks[0] && base == 0) {
        timed->seconds = seconds_since(t0);
        trnsparseGetLastProfile(h.h, &timed->profile);
      }
      t.bad += mismatches(row, want.row) + mismatches(col, want.col) + mismatches(val, want.val, r.vb);
      if (base == 0) continue;
      std::vector<int> srow(want.row.size(), -7), scol(want.col.size(), -7);
      const Bytes untouched(want.val.size(), 0xCD);
      Bytes sval = untouched;
      t.call(call_gebsr2gebsc(v, h.h, mb, nb, a, b.rb, b.cb, sval.data(), srow.data(), scol.data(), TRNSPARSE_ACTION_SYMBOLIC,
                              TRNSPARSE_INDEX_BASE_ONE),
             "gebsr2gebsc (SYMBOLIC)");
      t.bad += mismatches(srow, want.row) + mismatches(scol, want.col) + mismatches(sval, untouched, r.vb);
    }
  }
  return t;
}

// Xcsr2bsrNnz + Scsr2bsr (square blocks 8 and 16, row and column order, output base 1).
Tally csr2bsr() {
  const Ref r = make_ref(sp::Value::f32, kM, kN, kDensity, seed_of(sp::Value::f32));
  const Legacy L;
  const trnsparseMatDescr_t dA = L.dA, dC = L.dC;
  Tally t;
  for (const auto& [bd, row_order] : {std::pair{8, true}, std::pair{16, false}}) {
    const Gebsr want = gebsr_of(r, bd, bd, row_order, 1);
    const auto dir = row_order ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    std::vector<int> row(static_cast<std::size_t>((kM + bd - 1) / bd) + 1, -7), col(want.col.size(), -7);
    int nnzb = -1;
    t.call(trnsparseXcsr2bsrNnz(L.h, dir, kM, kN, dA, r.csr_off.data(), r.csr_col.data(), bd, dC, row.data(), &nnzb), "Xcsr2bsrNnz");
    t.bad += mismatches(row, want.row) + (nnzb != static_cast<int>(want.col.size()));
    if (nnzb != static_cast<int>(want.col.size())) continue;
    std::vector<float> val(want.val.size() / sizeof(float), -7.0f);
    t.call(trnsparseScsr2bsr(L.h, dir, kM, kN, dA, reinterpret_cast<const float*>(r.csr_val.data()), r.csr_off.data(),
                             r.csr_col.data(), bd, dC, val.data(), row.data(), col.data()),
           "Scsr2bsr");
    t.bad += mismatches(col, want.col) + mismatches(val.data(), val.size(), want.val.data(), val.size(), sizeof(float));
  }
  return t;
}

// The reference CSR as a Sliced-ELL (slice 32, each row's entries in reverse column order, padding
// -1), then sell_as_csr's pattern and gathered values against the CSR.
Tally sell(sp::Value v) {
  const Ref r = make_ref(v, kM, kN, kDensity, seed_of(v));
  Tally t;
  constexpr int S = 32;
  std::vector<std::int32_t> off{0}, col;
  Bytes val;
  for (int r0 = 0; r0 < kM; r0 += S) {
    int width = 0;
    for (int i = r0; i < std::min(kM, r0 + S); ++i) width = std::max(width, r.csr_off[i + 1] - r.csr_off[i]);
    const std::size_t at = col.size();
    col.resize(at + static_cast<std::size_t>(width) * S, -1);
    val.resize(col.size() * r.vb, 0);
    for (int i = r0; i < std::min(kM, r0 + S); ++i)
      for (int e = r.csr_off[i + 1] - 1, slot = 0; e >= r.csr_off[i]; --e, ++slot) {
        const std::size_t k = at + static_cast<std::size_t>(slot) * S + static_cast<std::size_t>(i - r0);
        col[k] = r.csr_col[static_cast<std::size_t>(e)];
        std::memcpy(val.data() + k * r.vb, r.csr_val.data() + static_cast<std::size_t>(e) * r.vb, r.vb);
      }
    off.push_back(static_cast<std::int32_t>(col.size()));
  }
  const sp::SellView view{kM, kN, static_cast<std::int64_t>(r.csr_col.size()), static_cast<std::int64_t>(col.size()), S,
                          off.data(), col.data(), val.data(), sp::IndexType::i32, sp::IndexType::i32, sp::IndexBase::zero,
                          trn::DType::f32};
  try {
    const sp::SellAsCsr c = sp::sell_as_csr(view, r.vb);
    const std::vector<std::int64_t> want_off(r.csr_off.begin(), r.csr_off.end()), want_col(r.csr_col.begin(), r.csr_col.end());
    t.bad += mismatches(c.pattern.offsets, want_off) + mismatches(c.pattern.columns, want_col);
    t.bad += mismatches(c.values.data(), c.values.size() / r.vb, r.csr_val.data(), r.csr_val.size() / r.vb, r.vb);
  } catch (const std::exception& e) {
    ++t.bad;
    t.failed = e.what();
  }
  return t;
}

void add_sparse_convert(Registry& reg) {
  const sp::Value types[] = {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64};
  const std::string shape = "300x200, 5%";
  auto add = [&](const std::string& op, const std::string& mode, const std::string& note, std::function<Tally()> f) {
    reg.add(ValidationCase{.suite = "sparse", .library = "trnsparse", .op = op, .mode = mode, .shape = shape, .metric = "bit_exact",
                           .bound_text = "0 mismatches (values moved, never combined)",
                           .run = [f, note] {
                             const double t0 = now_seconds();
                             const Tally t = f();
                             return result_of(t, note, seconds_since(t0));
                           }});
  };
  for (sp::Value v : types) {
    const std::string tn = sp::value_name(v);
    add("csr2csc", tn + " (Csr2cscEx2)", "cscColPtr, cscRowInd, cscVal vs a column scan; base 0 and 1", [v] { return csr2csc(v); });
    for (Fmt f : {Fmt::csr, Fmt::csc, Fmt::coo})
      add(std::string("dense2sparse_") + fmt_name(f), tn + " (and SparseToDense)",
          "DenseToSparse arrays vs a scan of the dense matrix; SparseToDense of the scan vs the matrix, padding kept",
          [v, f] { return dense_sparse(v, f); });
    add("csr2gebsr", tn + " (Xcsr2gebsrNnz)", "3x5 row-order and 4x4 column-order blocks, base 1, vs a block scan",
        [v] { return csr2gebsr(v); });
    add("gebsr2gebsr", tn + " (Xgebsr2gebsrNnz)", "7x3 row-order -> 4x5 and 4x6 column-order -> 5x2 blocks, base 0 -> 1, vs a cover scan",
        [v] { return gebsr2gebsr(v); });
    add("gebsr2gebsc", tn, "7x3 row-order and 4x6 column-order blocks, base 0 and 1, NUMERIC and SYMBOLIC, vs a block-column scan",
        [v] { return gebsr2gebsc(v); });
    add("gebsr2csr", tn + " (and Xgebsr2csr)", "7x3 row-order and 4x6 column-order blocks, base 0 -> 1, every stored value vs a row scan",
        [v] { return gebsr2csr(v); });
    add("sell2csr", tn + " (sell_as_csr)", "slice 32, rows stored in reverse order; CSR pattern and values vs the CSR",
        [v] { return sell(v); });
  }
  add("coo2csr", "int32 (Xcoo2csr/Xcsr2coo)", "row offsets and COO rows vs the scan; base 0 and 1", [] { return coo_csr(); });
  add("csr2bsr", "R_32F (Xcsr2bsrNnz/Scsr2bsr)", "8x8 row-order and 16x16 column-order blocks, base 1, vs a block scan",
      [] { return csr2bsr(); });
}

const Registrar kRegistrar(add_sparse_convert);

// A conversion row's result: its mismatches against the plain-loop reference (exact operations) and
// the timed call's host seconds and modeled cost.
BenchResult conversion_result(const Tally& t, const Timed& timed) {
  BenchResult b;
  b.error = static_cast<double>(t.bad);
  b.error_metric = "mismatches";
  b.host_seconds = timed.seconds;
  b.device = DeviceCost::from(timed.profile);
  return b;
}

// Bench rows (issue #28: every op a bench row): Csr2cscEx2, DenseToSparse (CSR) and SparseToDense
// (CSR; s13/spgap) per value type on a 2048 x 2048 matrix at 1%, the conversion call timed alone, its
// costed host step's modeled time (SparseToDense: its device program's, s14/spcross), and Eigen's host time for the same conversion (sparse_columns.hpp;
// SparseToDense: Eigen's toDense). Error: the mismatches of the whole case (0 expected).
void add_sparse_convert_bench(Registry& reg) {
  constexpr int n = 2048;
  constexpr double density = 0.01;
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
    for (const char* op : {"csr2csc", "dense2sparse_csr", "sparse2dense_csr"})
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op,
                        .variant = std::string(sp::value_name(v)) +
                                   (std::string(op) == "sparse2dense_csr" ? ", DMA zero-fill + scatter" : ", host step"),
                        .shape = "2048x2048, 1%", .run = [v, op](trn::Generation target) {
                          const std::string name = op;
                          Timed timed;
                          const Tally t = name == "csr2csc" ? csr2csc(v, n, n, density, &timed, target)
                                                            : dense_sparse(v, Fmt::csr, n, n, density, &timed, target,
                                                                           name == "sparse2dense_csr");
                          BenchResult b = conversion_result(t, timed);
                          const Ref r = make_ref(v, n, n, density, seed_of(v));
                          b.native_name = "Eigen sparse";
                          const CsrArrays a{n, n, static_cast<std::int64_t>(r.csr_col.size()), r.csr_off.data(), r.csr_col.data(),
                                            r.csr_val.data(), v};
                          b.native_seconds = name == "csr2csc"            ? eigen_csr2csc_seconds(a)
                                             : name == "sparse2dense_csr" ? eigen_sparse2dense_seconds(a)
                                                                          : eigen_dense2sparse_seconds(v, n, n, r.ld, r.dense.data());
                          return b;
                        }});
}
const Registrar kBenchRegistrar(add_sparse_convert_bench);

// Bench rows of gebsr2gebsr (7x3 row-order -> 4x5 blocks), gebsr2csr and gebsr2gebsc (7x3 blocks;
// s13/spgap) and csr2gebsr (3x5 blocks; s13/spgap) per value type, 2048 x 2048 at 1% (the input
// blocks of a uniformly random pattern): the first call timed alone, its host round trip's modeled
// time. No native column: Eigen has no block-sparse format.
void add_sparse_gebsr_bench(Registry& reg) {
  constexpr int n = 2048;
  constexpr double density = 0.01;
  for (sp::Value v : {sp::Value::f32, sp::Value::f64, sp::Value::c32, sp::Value::c64})
    for (const char* op : {"gebsr2gebsr", "gebsr2csr", "gebsr2gebsc", "csr2gebsr"}) {
      const std::string name = op;
      reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op, .variant = std::string(sp::value_name(v)) + ", host step",
                        .shape = name == "csr2gebsr" ? "2048x2048, 1%, 3x5 blocks" : "2048x2048, 1%, 7x3 blocks",
                        .run = [v, name](trn::Generation target) {
                          Timed timed;
                          const Tally t = name == "gebsr2gebsr" ? gebsr2gebsr(v, n, n, density, &timed, target)
                                          : name == "gebsr2csr" ? gebsr2csr(v, n, n, density, &timed, target)
                                          : name == "gebsr2gebsc" ? gebsr2gebsc(v, n, n, density, &timed, target)
                                                                  : csr2gebsr(v, n, n, density, &timed, target);
                          return conversion_result(t, timed);
                        }});
    }
}
const Registrar kGebsrBenchRegistrar(add_sparse_gebsr_bench);

// Bench rows of Xcoo2csr and Xcsr2coo (s13/spgap; index arrays only) on the pattern of a 2048 x 2048
// matrix at 1%: the base-0 call timed alone, its host round trip's modeled time. No native column:
// Eigen has no COO format (its setFromTriplets sorts and sums values, another operation).
void add_sparse_coo_bench(Registry& reg) {
  constexpr int n = 2048;
  constexpr double density = 0.01;
  for (const char* op : {"coo2csr", "csr2coo"}) {
    const bool to_csr = std::string(op) == "coo2csr";
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = op,
                      .variant = std::string("int32 (") + (to_csr ? "Xcoo2csr" : "Xcsr2coo") + "), host step",
                      .shape = "2048x2048, 1%", .run = [to_csr](trn::Generation target) {
                        Timed to_c, to_o;
                        const Tally t = coo_csr(n, n, density, &to_c, &to_o, target);
                        const Timed& timed = to_csr ? to_c : to_o;
                        return conversion_result(t, timed);
                      }});
  }
}
const Registrar kCooBenchRegistrar(add_sparse_coo_bench);

}  // namespace
}  // namespace trnsci::cli
