// Reverse Cuthill-McKee reordering (host index work: a breadth-first search over the pattern; no
// value is combined). Sources: Cuthill & McKee, "Reducing the bandwidth of sparse symmetric
// matrices", ACM 1969; George & Liu 1981, §4.3 (reversal and the pseudo-peripheral start vertex).
#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <string>

#include "generic_host.hpp"
#include "trn/sparse/sparse.hpp"

namespace trn::sparse {

namespace {

std::int64_t load_idx(const void* p, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(p)[i]} : static_cast<const std::int64_t*>(p)[i];
}

// Adjacency of the symmetrised pattern without the diagonal, neighbours sorted.
std::vector<std::vector<std::int64_t>> adjacency(const CsrView& A) {
  const std::int64_t n = A.rows, b = A.base == IndexBase::one ? 1 : 0;
  std::vector<std::vector<std::int64_t>> adj(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t e = load_idx(A.offsets, A.offsets_type, i) - b; e < load_idx(A.offsets, A.offsets_type, i + 1) - b; ++e) {
      const std::int64_t j = load_idx(A.columns, A.columns_type, e) - b;
      if (j == i) continue;
      adj[static_cast<std::size_t>(i)].push_back(j);
      adj[static_cast<std::size_t>(j)].push_back(i);
    }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return adj;
}

// BFS levels from `root` inside the unvisited part; returns the last level.
std::vector<std::int64_t> last_level(const std::vector<std::vector<std::int64_t>>& adj, std::int64_t root,
                                     std::vector<std::int64_t>& depth, std::int64_t* eccentricity) {
  std::vector<std::int64_t> frontier{root}, last;
  std::vector<std::int64_t> touched{root};
  depth[static_cast<std::size_t>(root)] = 0;
  std::int64_t d = 0;
  while (!frontier.empty()) {
    last = frontier;
    std::vector<std::int64_t> next;
    for (std::int64_t v : frontier)
      for (std::int64_t w : adj[static_cast<std::size_t>(v)])
        if (depth[static_cast<std::size_t>(w)] < 0) {
          depth[static_cast<std::size_t>(w)] = d + 1;
          next.push_back(w);
          touched.push_back(w);
        }
    frontier = std::move(next);
    ++d;
  }
  for (std::int64_t v : touched) depth[static_cast<std::size_t>(v)] = -1;
  *eccentricity = d - 1;
  return last;
}

}  // namespace

std::vector<std::int64_t> rcm_ordering(const CsrView& A) {
  if (A.rows != A.cols) throw InvalidArgument("trnsparse rcm: the matrix must be square", "matA");
  CsrView pattern = A;
  if (pattern.values == nullptr) pattern.values = &pattern;  // values are not read
  pattern.value_type = DType::f32;
  validate(pattern);
  const std::int64_t n = A.rows;
  const auto adj = adjacency(A);
  auto degree = [&](std::int64_t v) { return static_cast<std::int64_t>(adj[static_cast<std::size_t>(v)].size()); };
  std::vector<std::int64_t> order, depth(static_cast<std::size_t>(n), -1);
  std::vector<bool> placed(static_cast<std::size_t>(n), false);
  order.reserve(static_cast<std::size_t>(n));
  // Components in order of their lowest-degree, lowest-index vertex.
  std::vector<std::int64_t> by_degree(static_cast<std::size_t>(n));
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](std::int64_t a, std::int64_t b) { return degree(a) < degree(b); });
  for (std::int64_t seed : by_degree) {
    if (placed[static_cast<std::size_t>(seed)]) continue;
    // Pseudo-peripheral root (George-Liu): move to a minimum-degree vertex of the last BFS level
    // while the eccentricity grows.
    std::int64_t root = seed, ecc = -1;
    for (int guard = 0; guard < 32; ++guard) {
      std::int64_t e = 0;
      const auto last = last_level(adj, root, depth, &e);
      if (e <= ecc) break;
      ecc = e;
      root = *std::min_element(last.begin(), last.end(), [&](std::int64_t a, std::int64_t b) {
        return degree(a) != degree(b) ? degree(a) < degree(b) : a < b;
      });
    }
    // Cuthill-McKee BFS: neighbours by increasing degree (ties by index).
    std::size_t head = order.size();
    order.push_back(root);
    placed[static_cast<std::size_t>(root)] = true;
    while (head < order.size()) {
      const std::int64_t v = order[head++];
      std::vector<std::int64_t> next;
      for (std::int64_t w : adj[static_cast<std::size_t>(v)])
        if (!placed[static_cast<std::size_t>(w)]) {
          placed[static_cast<std::size_t>(w)] = true;
          next.push_back(w);
        }
      std::stable_sort(next.begin(), next.end(), [&](std::int64_t a, std::int64_t b) { return degree(a) < degree(b); });
      order.insert(order.end(), next.begin(), next.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

CsrView OwnedCsr::view() {
  return CsrView{rows, cols, static_cast<std::int64_t>(columns.size()), offsets.data(), columns.data(), values.data(),
                 IndexType::i64, IndexType::i64, IndexBase::zero, value_type};
}

OwnedCsr permute_symmetric(const CsrView& A, const std::vector<std::int64_t>& perm) {
  validate(A);
  if (A.rows != A.cols || static_cast<std::int64_t>(perm.size()) != A.rows)
    throw InvalidArgument("trnsparse permute: square matrix and a permutation of its size", "perm");
  const std::int64_t n = A.rows, b = A.base == IndexBase::one ? 1 : 0, es = dtype_size(A.value_type);
  std::vector<std::int64_t> inverse(static_cast<std::size_t>(n), -1);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = perm[static_cast<std::size_t>(i)];
    if (p < 0 || p >= n || inverse[static_cast<std::size_t>(p)] >= 0) throw InvalidArgument("trnsparse permute: not a permutation", "perm");
    inverse[static_cast<std::size_t>(p)] = i;
  }
  OwnedCsr o;
  o.rows = o.cols = n;
  o.value_type = A.value_type;
  o.offsets.push_back(0);
  const auto* in = static_cast<const std::byte*>(A.values);
  std::vector<std::pair<std::int64_t, std::int64_t>> row;  // (new column, old entry)
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t old = perm[static_cast<std::size_t>(i)];
    row.clear();
    for (std::int64_t e = load_idx(A.offsets, A.offsets_type, old) - b; e < load_idx(A.offsets, A.offsets_type, old + 1) - b; ++e)
      row.emplace_back(inverse[static_cast<std::size_t>(load_idx(A.columns, A.columns_type, e) - b)], e);
    std::sort(row.begin(), row.end());
    for (const auto& [c, e] : row) {
      o.columns.push_back(c);
      const std::size_t at = o.values.size();
      o.values.resize(at + static_cast<std::size_t>(es));
      std::memcpy(o.values.data() + at, in + e * es, static_cast<std::size_t>(es));
    }
    o.offsets.push_back(static_cast<std::int64_t>(o.columns.size()));
  }
  return o;
}

namespace {
// A CSR's index arrays (offsets, columns) as host-step reads.
std::array<HostSpan, 2> csr_index_spans(const CsrView& A) {
  return {generic_host::index_span(A.offsets, A.rows + 1, A.offsets_type), generic_host::index_span(A.columns, A.nnz, A.columns_type)};
}
}  // namespace

std::vector<std::int64_t> rcm_ordering(const Settings& s, const CsrView& A, CallReport* report) {
  std::vector<std::int64_t> perm = rcm_ordering(A);
  const auto [off, col] = csr_index_spans(A);
  generic_host::host_only_report(s,
                                 HostStep{.name = "trnsparse.rcm.ordering", .flops = static_cast<double>(A.nnz),
                                          .reads = {off, col}, .writes = {HostSpan(perm.data(), A.rows)}},
                                 report);
  return perm;
}

OwnedCsr permute_symmetric(const Settings& s, const CsrView& A, const std::vector<std::int64_t>& perm, CallReport* report) {
  OwnedCsr o = permute_symmetric(A, perm);
  const auto [off, col] = csr_index_spans(A);
  const std::int64_t n = A.rows, nnz = static_cast<std::int64_t>(o.columns.size());
  const auto es = static_cast<std::size_t>(dtype_size(A.value_type));
  generic_host::host_only_report(
      s,
      HostStep{.name = "trnsparse.permute.symmetric", .flops = static_cast<double>(nnz),
               .reads = {off, col, generic_host::bytes_span(A.values, A.nnz, es), HostSpan(perm.data(), n)},
               .writes = {HostSpan(o.offsets.data(), n + 1), HostSpan(o.columns.data(), nnz),
                          generic_host::bytes_span(o.values.data(), nnz, es)}},
      report);
  return o;
}

}  // namespace trn::sparse
