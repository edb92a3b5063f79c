// trn::tile TensorE collectives (contracts in trn/tile/matmul.hpp).
#include "trn/tile/matmul.hpp"

#include <algorithm>
#include <array>

#include "trn/core/error.hpp"

namespace trn::tile {

void Accumulator::matmul(const Tile& stationary, const Tile& moving, MatmulPerfMode mode) {
  if (nc_ == nullptr) throw UsageError("tile::Accumulator::matmul", "accumulator", "no core (default-constructed)");
  nc_->nc_matmul(psum_, stationary, moving, /*accumulate=*/started_, mode);
  started_ = true;
}

void Accumulator::terms(std::span<const Tile> stationary, std::span<const Tile> moving, std::span<const TermPair> pairs) {
  for (const TermPair& p : pairs) {
    if (p.stationary < 0 || static_cast<std::size_t>(p.stationary) >= stationary.size() || p.moving < 0 ||
        static_cast<std::size_t>(p.moving) >= moving.size())
      throw UsageError("tile::Accumulator::terms", "pairs", "term index outside the given terms");
    matmul(stationary[static_cast<std::size_t>(p.stationary)], moving[static_cast<std::size_t>(p.moving)]);
  }
}

void Accumulator::copy_out(const Tile& dst, Engine engine) {
  if (nc_ == nullptr) throw UsageError("tile::Accumulator::copy_out", "accumulator", "no core (default-constructed)");
  nc_->tensor_copy(dst, psum_, engine);
  started_ = false;
}

void matmul_by_columns(NeuronCore& nc, const Tile& dst, const Tile& stationary, const Tile& moving, std::int64_t chunk) {
  if (chunk <= 0) throw UsageError("tile::matmul_by_columns", "chunk", "must be positive");
  const std::int64_t n = moving.size[static_cast<std::size_t>(moving.ndim - 1)];
  for (std::int64_t c0 = 0; c0 < n; c0 += chunk) {
    const std::int64_t w = std::min(chunk, n - c0);
    nc.nc_matmul(dst.cols(c0, w), stationary, moving.cols(c0, w), /*accumulate=*/false);
  }
}

PsumRing::PsumRing(AllocScope& psum, int slots, std::int32_t partitions, std::int64_t width, std::string_view name,
                   AllocFill fill) {
  if (slots < 1) throw UsageError("tile::PsumRing", "slots", "at least one slot");
  for (int s = 0; s < slots; ++s) tiles_.push_back(psum.alloc(DType::f32, partitions, {width}, name, 0, fill));
}

Accumulator PsumRing::open(NeuronCore& nc, std::int32_t rows, std::int64_t cols) {
  current_ = static_cast<int>(next_++ % static_cast<std::int64_t>(tiles_.size()));
  return Accumulator(nc, tiles_[static_cast<std::size_t>(current_)].rows(0, rows).cols(0, cols));
}

void evacuate(NeuronCore& nc, const Tile& v, const Tile& psum, float alpha, bool accumulated) {
  if (!accumulated)
    nc.memset(v, 0.0f);
  else if (alpha == 1.0f)
    nc.tensor_copy(v, psum);
  else
    nc.tensor_scalar(v, psum, AluOp::multiply, alpha);
}

Tile add_beta_c_and_cast(NeuronCore& nc, const Tile& v, const Tile* c, float beta, const Tile* cast) {
  if (c != nullptr) {
    nc.tensor_scalar(*c, *c, AluOp::multiply, beta);
    nc.tensor_tensor(v, v, *c, AluOp::add);
  }
  if (cast == nullptr) return v;
  nc.tensor_copy(*cast, v);
  return *cast;
}

void split_terms(NeuronCore& nc, std::span<const SplitOperand> operands, const TermSplit& how) {
  std::size_t terms = 0;
  for (const SplitOperand& o : operands) {
    if (o.terms.size() < 2) throw UsageError("tile::split_terms", "terms", "at least two terms per operand");
    if (terms != 0 && o.terms.size() != terms) throw UsageError("tile::split_terms", "terms", "operands split in lockstep need one term count");
    terms = o.terms.size();
  }
  if (!how.first_term_loaded)
    for (const SplitOperand& o : operands) nc.tensor_copy(o.terms[0], o.x, how.round, how.options);
  for (std::size_t t = 1; t < terms; ++t) {
    for (const SplitOperand& o : operands)
      nc.tensor_tensor(o.resid, t == 1 ? o.x : o.resid, o.terms[t - 1], AluOp::subtract, how.subtract, how.options);
    for (const SplitOperand& o : operands) nc.tensor_copy(o.terms[t], o.resid, how.round, how.options);
  }
}

void RowSelector::select(std::int64_t row, std::int32_t partitions) {
  const std::array<std::int64_t, 2> pattern{0, sel_.size[static_cast<std::size_t>(sel_.ndim - 1)]};
  nc_->affine_select(sel_.rows(0, partitions), std::span(&pattern, 1), -row, 1, AluOp::equal, ones_.rows(0, partitions),
                     0.0f);
  partitions_ = partitions;
}

void RowSelector::broadcast(const Tile& dst, const Tile& src) const {
  if (partitions_ == 0) throw UsageError("tile::RowSelector::broadcast", "selector", "select() a row first");
  nc_->nc_matmul(dst, sel_.rows(0, partitions_), src, /*accumulate=*/false);
}

void PartitionSum::add(const Tile& x) {
  if (layout_ == Layout::broadcast)
    acc_.matmul(ones_.rows(0, x.partitions).cols(0, acc_.psum().partitions), x);
  else
    acc_.matmul(x, ones_.rows(0, x.partitions).cols(0, 1));
}

}  // namespace trn::tile
