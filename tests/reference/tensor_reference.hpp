// The one tensor oracle of the trntensor tests, `trnsci validate`'s tensor suite and the benches:
// einsum loops over every assignment of every mode label -- `einsum_loop` (explicit-form einsum of
// any number of operands in FP64, NumPy semantics), `contract` / `contract_complex` (binary
// D = alpha A B + beta C in long double next to the plain FP64 loop) -- plus the DF-MP2 energy
// reference. Tensors are (modes, extents, strides, data). Nothing here calls trntensor or trnblas.
#pragma once
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tensor_ref {

struct Tensor {
  std::vector<std::int32_t> modes;
  std::vector<std::int64_t> extents, strides;  // strides in elements
  std::vector<double> data;                    // span of the strides (padding included)
  std::int64_t span() const {
    std::int64_t s = 1;
    for (std::size_t i = 0; i < extents.size(); ++i)
      if (extents[i] > 0) s += (extents[i] - 1) * strides[i];
    return s;
  }
};

// A tensor with the given mode letters; `pad` adds that many elements to each stride step
// (non-packed layout); `order` (optional) lists mode positions from fastest to slowest.
inline Tensor make(const std::string& modes, const std::map<char, std::int64_t>& ext, std::mt19937_64& rng,
                   std::int64_t pad = 0, std::vector<int> order = {}) {
  Tensor t;
  for (char c : modes) {
    t.modes.push_back(c);
    t.extents.push_back(ext.at(c));
  }
  if (order.empty())
    for (std::size_t i = 0; i < modes.size(); ++i) order.push_back(static_cast<int>(i));
  t.strides.assign(modes.size(), 0);
  std::int64_t acc = 1;
  for (int q : order) {
    t.strides[static_cast<std::size_t>(q)] = acc;
    acc = acc * std::max<std::int64_t>(1, t.extents[static_cast<std::size_t>(q)]) + pad;
  }
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  t.data.resize(static_cast<std::size_t>(t.span()));
  for (double& x : t.data) x = u(rng);
  return t;
}

inline std::vector<float> to_float(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }
inline std::vector<double> round_to_float(const std::vector<double>& v) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = static_cast<float>(v[i]);
  return r;
}

inline std::int64_t offset(const Tensor& t, const std::map<std::int32_t, std::int64_t>& idx) {
  std::int64_t o = 0;
  for (std::size_t i = 0; i < t.modes.size(); ++i) o += idx.at(t.modes[i]) * t.strides[i];
  return o;
}

// The next assignment of `labels` (the first fastest) in `idx`; false after the last one.
inline bool advance(std::map<std::int32_t, std::int64_t>& idx, const std::vector<std::int32_t>& labels,
                    std::map<std::int32_t, std::int64_t>& ext) {
  for (std::size_t q = 0; q < labels.size(); ++q) {
    if (++idx[labels[q]] < ext[labels[q]]) return true;
    idx[labels[q]] = 0;
  }
  return false;
}

// D = alpha A B + beta C over the elements of D (C has D's modes). `ref` in long double, `loop`
// the plain FP64 loop (for the "2x an FP64 loop" bound), `abs` = |alpha| sum |a||b| + |beta||c|.
struct Result {
  std::vector<long double> ref;
  std::vector<double> loop, abs;
};
inline Result contract(const Tensor& A, const Tensor& B, const Tensor& C, const Tensor& D, double alpha, double beta,
                       const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c) {
  std::vector<std::int32_t> labels;
  std::map<std::int32_t, std::int64_t> ext;
  for (const Tensor* t : {&A, &B, &D})
    for (std::size_t i = 0; i < t->modes.size(); ++i)
      if (!ext.count(t->modes[i])) {
        labels.push_back(t->modes[i]);
        ext[t->modes[i]] = t->extents[i];
      }
  Result r;
  r.ref.assign(D.data.size(), 0.0L);
  r.loop.assign(D.data.size(), 0.0);
  r.abs.assign(D.data.size(), 0.0);
  std::vector<long double> sum(D.data.size(), 0.0L);
  std::vector<double> sumd(D.data.size(), 0.0), sumabs(D.data.size(), 0.0);
  std::map<std::int32_t, std::int64_t> idx;
  for (auto l : labels) idx[l] = 0;
  bool empty = false;
  for (auto l : labels) empty = empty || ext[l] == 0;
  while (!empty) {
    const auto od = static_cast<std::size_t>(offset(D, idx));
    const double x = a[static_cast<std::size_t>(offset(A, idx))], y = b[static_cast<std::size_t>(offset(B, idx))];
    sum[od] += static_cast<long double>(x) * static_cast<long double>(y);
    sumd[od] += x * y;
    sumabs[od] += std::fabs(x) * std::fabs(y);
    if (!advance(idx, labels, ext)) break;
  }
  // Only D's elements (not its padding) are results.
  std::map<std::int32_t, std::int64_t> di;
  for (auto l : D.modes) di[l] = 0;
  bool dempty = false;
  for (auto e : D.extents) dempty = dempty || e == 0;
  while (!dempty) {
    const auto od = static_cast<std::size_t>(offset(D, di));
    const auto oc = static_cast<std::size_t>(offset(C, di));
    const double cv = beta != 0.0 ? c[oc] : 0.0;
    r.ref[od] = static_cast<long double>(alpha) * sum[od] + static_cast<long double>(beta) * cv;
    r.loop[od] = alpha * sumd[od] + beta * cv;
    r.abs[od] = std::fabs(alpha) * sumabs[od] + std::fabs(beta) * std::fabs(cv);
    std::size_t q = 0;
    for (; q < D.modes.size(); ++q) {
      if (++di[D.modes[q]] < D.extents[q]) break;
      di[D.modes[q]] = 0;
    }
    if (q == D.modes.size()) break;
  }
  return r;
}

// Element offsets of D's elements (not the padding between them).
inline std::vector<std::size_t> element_offsets(const Tensor& D) {
  std::vector<std::size_t> out;
  std::map<std::int32_t, std::int64_t> di;
  for (auto l : D.modes) di[l] = 0;
  for (auto e : D.extents)
    if (e == 0) return out;
  while (true) {
    out.push_back(static_cast<std::size_t>(offset(D, di)));
    std::size_t q = 0;
    for (; q < D.modes.size(); ++q) {
      if (++di[D.modes[q]] < D.extents[q]) break;
      di[D.modes[q]] = 0;
    }
    if (q == D.modes.size()) return out;
  }
}

// Complex D = alpha op(A) op(B) + beta C (op = conjugation when conj_a / conj_b) over D's elements,
// in std::complex<long double> (`ref`) and as a plain std::complex<double> loop (`loop`); `abs` =
// |alpha| sum |a||b| + |beta||c| (complex moduli). Data are complex values at the tensors' offsets.
struct ComplexResult {
  std::vector<std::complex<long double>> ref;
  std::vector<std::complex<double>> loop;
  std::vector<double> abs;
};
inline ComplexResult contract_complex(const Tensor& A, const Tensor& B, const Tensor& C, const Tensor& D,
                                      std::complex<double> alpha, std::complex<double> beta, bool conj_a, bool conj_b,
                                      const std::vector<std::complex<double>>& a, const std::vector<std::complex<double>>& b,
                                      const std::vector<std::complex<double>>& c) {
  using CL = std::complex<long double>;
  std::vector<std::int32_t> labels;
  std::map<std::int32_t, std::int64_t> ext;
  for (const Tensor* t : {&A, &B, &D})
    for (std::size_t i = 0; i < t->modes.size(); ++i)
      if (!ext.count(t->modes[i])) {
        labels.push_back(t->modes[i]);
        ext[t->modes[i]] = t->extents[i];
      }
  const std::size_t nd = D.data.size();
  std::vector<CL> sum(nd);
  std::vector<std::complex<double>> sumd(nd);
  std::vector<double> sumabs(nd, 0.0);
  std::map<std::int32_t, std::int64_t> idx;
  bool empty = false;
  for (auto l : labels) {
    idx[l] = 0;
    empty = empty || ext[l] == 0;
  }
  while (!empty) {
    const auto od = static_cast<std::size_t>(offset(D, idx));
    std::complex<double> x = a[static_cast<std::size_t>(offset(A, idx))], y = b[static_cast<std::size_t>(offset(B, idx))];
    if (conj_a) x = std::conj(x);
    if (conj_b) y = std::conj(y);
    sum[od] += CL(x.real(), x.imag()) * CL(y.real(), y.imag());
    sumd[od] += x * y;
    sumabs[od] += std::abs(x) * std::abs(y);
    if (!advance(idx, labels, ext)) break;
  }
  ComplexResult r;
  r.ref.assign(nd, CL(0));
  r.loop.assign(nd, 0.0);
  r.abs.assign(nd, 0.0);
  const CL al(alpha.real(), alpha.imag()), be(beta.real(), beta.imag());
  const std::vector<std::size_t> elems = element_offsets(D);
  for (std::size_t od : elems) {
    r.ref[od] = al * sum[od];
    r.loop[od] = alpha * sumd[od];
    r.abs[od] = std::abs(alpha) * sumabs[od];
  }
  if (beta != 0.0 && !elems.empty()) {
    std::map<std::int32_t, std::int64_t> di;
    for (auto l : D.modes) di[l] = 0;
    while (true) {
      const auto od = static_cast<std::size_t>(offset(D, di));
      const std::complex<double> cv = c[static_cast<std::size_t>(offset(C, di))];
      r.ref[od] += be * CL(cv.real(), cv.imag());
      r.loop[od] += beta * cv;
      r.abs[od] += std::abs(beta) * std::abs(cv);
      std::size_t q = 0;
      for (; q < D.modes.size(); ++q) {
        if (++di[D.modes[q]] < D.extents[q]) break;
        di[D.modes[q]] = 0;
      }
      if (q == D.modes.size()) break;
    }
  }
  return r;
}

// ---- explicit-form einsum of any number of operands -------------------------------------------

struct Operand {
  std::vector<std::int64_t> shape, strides;  // strides in elements (any order)
  std::vector<double> data;
};

// Explicit-form einsum ("ab,bc->ac", letters only) by looping over every label assignment (the
// labels in alphabetical order, the first fastest); an axis of extent 1 broadcasts. Each term is
// the product 1 * x_0 * x_1 * ... in operand order, summed into the output in loop order, in FP64.
// Returns C-contiguous output values, their |.|-sums (for error bounds; optional) and the shape.
inline void einsum_loop(const std::string& expr, const std::vector<Operand>& ops, std::vector<double>* out,
                        std::vector<double>* absout, std::vector<std::int64_t>* out_shape) {
  const auto arrow = expr.find("->");
  const std::string lhs = expr.substr(0, arrow), rhs = expr.substr(arrow + 2);
  std::vector<std::string> terms(1);
  for (char c : lhs) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  std::map<char, std::int64_t> size;
  for (std::size_t k = 0; k < terms.size(); ++k)
    for (std::size_t a = 0; a < terms[k].size(); ++a) {
      auto& s = size[terms[k][a]];
      s = std::max(s, ops[k].shape[a]);
    }
  for (std::size_t k = 0; k < terms.size(); ++k)
    for (std::size_t a = 0; a < terms[k].size(); ++a)
      if (ops[k].shape[a] == 0) size[terms[k][a]] = 0;
  std::vector<char> labels;
  std::vector<std::int64_t> ext;
  for (auto& [l, e] : size) {
    labels.push_back(l);
    ext.push_back(e);
  }
  const auto pos = [&](char c) { return static_cast<std::size_t>(std::find(labels.begin(), labels.end(), c) - labels.begin()); };
  // Element offset of every operand (and of the output) = sum over labels of index * coefficient.
  std::vector<std::vector<std::int64_t>> coef(terms.size(), std::vector<std::int64_t>(labels.size(), 0));
  for (std::size_t k = 0; k < terms.size(); ++k)
    for (std::size_t a = 0; a < terms[k].size(); ++a)
      if (ops[k].shape[a] != 1) coef[k][pos(terms[k][a])] += ops[k].strides[a];
  std::vector<std::int64_t> out_coef(labels.size(), 0);
  out_shape->clear();
  std::int64_t n = 1;
  for (std::size_t j = rhs.size(); j-- > 0;) {
    out_coef[pos(rhs[j])] += n;
    n *= size[rhs[j]];
  }
  for (char c : rhs) out_shape->push_back(size[c]);
  out->assign(static_cast<std::size_t>(n), 0.0);
  if (absout != nullptr) absout->assign(static_cast<std::size_t>(n), 0.0);
  if (std::find(ext.begin(), ext.end(), 0) != ext.end()) return;
  std::vector<std::int64_t> idx(labels.size(), 0);
  const auto dot = [&](const std::vector<std::int64_t>& c) {
    std::int64_t o = 0;
    for (std::size_t q = 0; q < idx.size(); ++q) o += idx[q] * c[q];
    return static_cast<std::size_t>(o);
  };
  while (true) {
    double p = 1, ap = 1;
    for (std::size_t k = 0; k < terms.size(); ++k) {
      const double x = ops[k].data[dot(coef[k])];
      p *= x;
      ap *= std::fabs(x);
    }
    const std::size_t o = dot(out_coef);
    (*out)[o] += p;
    if (absout != nullptr) (*absout)[o] += ap;
    std::size_t q = 0;
    for (; q < labels.size(); ++q) {
      if (++idx[q] < ext[q]) break;
      idx[q] = 0;
    }
    if (q == labels.size()) return;
  }
}

// A packed operand: `shape` with the first axis fastest (column-major, as trntensor's descriptors
// with empty strides) over `data`.
inline Operand column_major(const std::vector<std::int64_t>& shape, std::vector<double> data) {
  Operand o{shape, {}, std::move(data)};
  std::int64_t s = 1;
  for (std::int64_t e : shape) {
    o.strides.push_back(s);
    s *= e;
  }
  return o;
}

// ---- block-sparse tensors ---------------------------------------------------------------------

// The dense, zero-filled column-major tensor of a block-sparse one: mode i cut into sections[i],
// stored block b at section coordinates blocks[b] holding data[b] (packed, first mode fastest).
inline Operand block_sparse_dense(const std::vector<std::vector<std::int64_t>>& sections,
                                  const std::vector<std::vector<std::int32_t>>& blocks,
                                  const std::vector<std::vector<double>>& data) {
  std::vector<std::int64_t> shape;
  for (const auto& sec : sections) {
    std::int64_t t = 0;
    for (std::int64_t e : sec) t += e;
    shape.push_back(t);
  }
  std::size_t n = 1;
  for (std::int64_t e : shape) n *= static_cast<std::size_t>(e);
  Operand d = column_major(shape, std::vector<double>(n, 0.0));
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    std::vector<std::int64_t> ext, base;
    for (std::size_t i = 0; i < sections.size(); ++i) {
      const auto c = static_cast<std::size_t>(blocks[b][i]);
      ext.push_back(sections[i][c]);
      std::int64_t o = 0;
      for (std::size_t j = 0; j < c; ++j) o += sections[i][j];
      base.push_back(o);
    }
    std::vector<std::int64_t> idx(ext.size(), 0);
    for (std::size_t k = 0; k < data[b].size(); ++k) {
      std::int64_t off = 0;
      for (std::size_t i = 0; i < idx.size(); ++i) off += (base[i] + idx[i]) * d.strides[i];
      d.data[static_cast<std::size_t>(off)] = data[b][k];
      for (std::size_t i = 0; i < idx.size() && ++idx[i] == ext[i]; ++i) idx[i] = 0;
    }
  }
  return d;
}

// ---- DF-MP2 -----------------------------------------------------------------------------------

// The DF-MP2 correlation energy (Weigend-Haser) of B (row-major [naux, o v], fp32 values) and the
// orbital energies: (ia|jb) = B^T B by OpenBLAS DGEMM in FP64, then
// sum_ijab (ia|jb) (2 (ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b) accumulated in long double.
inline long double dfmp2_energy(std::int64_t naux, std::int64_t o, std::int64_t v, const std::vector<float>& B,
                                const std::vector<float>& eo, const std::vector<float>& ev) {
  const std::int64_t ov = o * v;
  std::vector<double> Bd(B.begin(), B.end()), V(static_cast<std::size_t>(ov * ov));
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(ov), static_cast<int>(ov), static_cast<int>(naux), 1.0,
              Bd.data(), static_cast<int>(ov), Bd.data(), static_cast<int>(ov), 0.0, V.data(), static_cast<int>(ov));
  long double e = 0;
  for (std::int64_t i = 0; i < o; ++i)
    for (std::int64_t j = 0; j < o; ++j)
      for (std::int64_t a = 0; a < v; ++a)
        for (std::int64_t b = 0; b < v; ++b) {
          const double iajb = V[static_cast<std::size_t>((i * v + a) * ov + j * v + b)];
          const double ibja = V[static_cast<std::size_t>((i * v + b) * ov + j * v + a)];
          const double d = static_cast<double>(eo[static_cast<std::size_t>(i)]) + eo[static_cast<std::size_t>(j)] -
                           ev[static_cast<std::size_t>(a)] - ev[static_cast<std::size_t>(b)];
          e += static_cast<long double>(iajb * (2 * iajb - ibja) / d);
        }
  return e;
}

}  // namespace tensor_ref
