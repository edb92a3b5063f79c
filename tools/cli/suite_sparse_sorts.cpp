// Validation cases and bench rows of trnsparse's index sorts (issue #28 audit: no case or row existed):
// Xcoosort ByRow / ByColumn, Xcsrsort, Xcscsort with the permutation P carried along, index bases
// 0 and 1, on a random 300 x 200 pattern with duplicate entries (stability is observable through P).
// The reference is std::stable_sort over (major, minor) keys written here; the metric is bit_exact
// (mismatching entries of the sorted indices and P, 0 expected: indices moved, never combined).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "trnsparse.h"

namespace trnsci::cli {
namespace {

struct Pattern {
  int m = 0, n = 0;
  std::vector<int> rows, cols, perm;  // unsorted COO entries (base 0), P_in
};

// nnz random entries (every 7th a duplicate of the previous one), P_in[k] = 3 k + 1.
Pattern pattern(int m, int n, int nnz, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  Pattern p{m, n, {}, {}, {}};
  for (int k = 0; k < nnz; ++k) {
    const bool dup = k > 0 && k % 7 == 0;
    p.rows.push_back(dup ? p.rows.back() : static_cast<int>(g() % static_cast<std::uint64_t>(m)));
    p.cols.push_back(dup ? p.cols.back() : static_cast<int>(g() % static_cast<std::uint64_t>(n)));
    p.perm.push_back(3 * k + 1);
  }
  return p;
}

// The stable order of the entries by (major, minor).
std::vector<int> stable_order(const std::vector<int>& major, const std::vector<int>& minor) {
  std::vector<int> o(major.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](int a, int b) {
    return major[static_cast<std::size_t>(a)] != major[static_cast<std::size_t>(b)]
               ? major[static_cast<std::size_t>(a)] < major[static_cast<std::size_t>(b)]
               : minor[static_cast<std::size_t>(a)] < minor[static_cast<std::size_t>(b)];
  });
  return o;
}

std::int64_t mismatches(const std::vector<int>& got, const std::vector<int>& want) {
  std::int64_t bad = std::abs(static_cast<std::int64_t>(got.size()) - static_cast<std::int64_t>(want.size()));
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) bad += got[i] != want[i];
  return bad;
}
std::vector<int> gather(const std::vector<int>& v, const std::vector<int>& order, int add = 0) {
  std::vector<int> out;
  for (int k : order) out.push_back(v[static_cast<std::size_t>(k)] + add);
  return out;
}

struct Outcome {
  std::int64_t bad = 0;
  std::string failed;
  double seconds = 0;  // the sort calls alone
};
void call(Outcome& o, trnsparseStatus_t st, const char* what) {
  if (st == TRNSPARSE_STATUS_SUCCESS) return;
  ++o.bad;
  o.failed += std::string(o.failed.empty() ? "" : ", ") + what + " -> " + std::to_string(static_cast<int>(st));
}

// Xcoosort by row (by_row) or by column, base 0 and 1.
Outcome coo_sort(const Pattern& p, bool by_row) {
  Outcome o;
  trnsparseHandle_t h = nullptr;
  trnsparseCreate(&h);
  const int nnz = static_cast<int>(p.rows.size());
  const std::vector<int> order = by_row ? stable_order(p.rows, p.cols) : stable_order(p.cols, p.rows);
  for (int base : {0, 1}) {
    std::vector<int> r, c, P = p.perm;
    for (int k = 0; k < nnz; ++k) {
      r.push_back(p.rows[static_cast<std::size_t>(k)] + base);
      c.push_back(p.cols[static_cast<std::size_t>(k)] + base);
    }
    std::size_t bytes = 0;
    call(o, trnsparseXcoosort_bufferSizeExt(h, p.m, p.n, nnz, r.data(), c.data(), &bytes), "Xcoosort_bufferSizeExt");
    std::vector<unsigned char> buffer(std::max<std::size_t>(bytes, 1));
    const double t0 = now_seconds();
    call(o, by_row ? trnsparseXcoosortByRow(h, p.m, p.n, nnz, r.data(), c.data(), P.data(), buffer.data())
                   : trnsparseXcoosortByColumn(h, p.m, p.n, nnz, r.data(), c.data(), P.data(), buffer.data()),
         by_row ? "XcoosortByRow" : "XcoosortByColumn");
    o.seconds += seconds_since(t0);
    o.bad += mismatches(r, gather(p.rows, order, base)) + mismatches(c, gather(p.cols, order, base)) +
             mismatches(P, gather(p.perm, order));
  }
  trnsparseDestroy(h);
  return o;
}

// Xcsrsort (csc: Xcscsort on the transposed roles): entries grouped by major index in their
// unsorted order, sorted within each group; base 0 and 1 through descrA.
Outcome compressed_sort(const Pattern& p, bool csc) {
  Outcome o;
  trnsparseHandle_t h = nullptr;
  trnsparseMatDescr_t d = nullptr;
  trnsparseCreate(&h);
  trnsparseCreateMatDescr(&d);
  const std::vector<int>& major = csc ? p.cols : p.rows;
  const std::vector<int>& minor = csc ? p.rows : p.cols;
  const int groups = csc ? p.n : p.m, nnz = static_cast<int>(major.size());
  // Group by major index, keeping the unsorted minor order: the input arrays.
  std::vector<int> grouped(major.size());
  std::iota(grouped.begin(), grouped.end(), 0);
  std::stable_sort(grouped.begin(), grouped.end(),
                   [&](int a, int b) { return major[static_cast<std::size_t>(a)] < major[static_cast<std::size_t>(b)]; });
  const std::vector<int> order = stable_order(major, minor);
  for (int base : {0, 1}) {
    trnsparseSetMatIndexBase(d, base == 1 ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    std::vector<int> off(static_cast<std::size_t>(groups) + 1, 0);
    for (int k : grouped) ++off[static_cast<std::size_t>(major[static_cast<std::size_t>(k)]) + 1];
    for (int i = 0; i < groups; ++i) off[static_cast<std::size_t>(i) + 1] += off[static_cast<std::size_t>(i)];
    for (int& e : off) e += base;
    std::vector<int> idx = gather(minor, grouped, base), P = gather(p.perm, grouped);
    std::size_t bytes = 0;
    call(o, csc ? trnsparseXcscsort_bufferSizeExt(h, p.m, p.n, nnz, off.data(), idx.data(), &bytes)
                : trnsparseXcsrsort_bufferSizeExt(h, p.m, p.n, nnz, off.data(), idx.data(), &bytes),
         "bufferSizeExt");
    std::vector<unsigned char> buffer(std::max<std::size_t>(bytes, 1));
    const double t0 = now_seconds();
    call(o, csc ? trnsparseXcscsort(h, p.m, p.n, nnz, d, off.data(), idx.data(), P.data(), buffer.data())
                : trnsparseXcsrsort(h, p.m, p.n, nnz, d, off.data(), idx.data(), P.data(), buffer.data()),
         csc ? "Xcscsort" : "Xcsrsort");
    o.seconds += seconds_since(t0);
    o.bad += mismatches(idx, gather(minor, order, base)) + mismatches(P, gather(p.perm, order));
  }
  trnsparseDestroyMatDescr(d);
  trnsparseDestroy(h);
  return o;
}

Outcome sort_case(int which, int m, int n, int nnz) {
  const Pattern p = pattern(m, n, nnz, 2027 + static_cast<std::uint64_t>(which));
  return which < 2 ? coo_sort(p, which == 0) : compressed_sort(p, which == 3);
}
const char* const kOps[] = {"xcoosort_by_row", "xcoosort_by_column", "xcsrsort", "xcscsort"};

void add_sparse_sorts(Registry& reg) {
  for (int which = 0; which < 4; ++which) {
    reg.add(ValidationCase{
        .suite = "sparse", .library = "trnsparse", .op = kOps[which], .mode = "int32, P carried (base 0 and 1)",
        .shape = "300x200, 3000 entries (every 7th duplicated)", .metric = "bit_exact",
        .bound_text = "0 mismatches vs std::stable_sort (indices and P moved, never combined)",
        .run = [which] {
          const Outcome o = sort_case(which, 300, 200, 3000);
          return exact_result(static_cast<double>(o.bad),
                              "sorted indices and P vs a stable sort" + (o.failed.empty() ? "" : "; failed: " + o.failed),
                              o.seconds);
        }});
    reg.add(BenchCase{.suite = "sparse", .library = "trnsparse", .op = kOps[which], .variant = "int32, host index work",
                      .shape = "20000x20000, 400000 entries", .run = [which](trn::Generation) {
                        const Outcome o = sort_case(which, 20000, 20000, 400000);
                        BenchResult b;
                        b.error = static_cast<double>(o.bad);
                        b.error_metric = "mismatches";
                        b.host_seconds = o.seconds;
                        return b;
                      }});
  }
}

const Registrar kRegistrar(add_sparse_sorts);

}  // namespace
}  // namespace trnsci::cli
