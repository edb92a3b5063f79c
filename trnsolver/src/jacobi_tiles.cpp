// Jacobi pair ordering, 2x2 angles and column-pair rotations shared by ssyevj and sgesvdj
// (jacobi_tiles.hpp).
#include "jacobi_tiles.hpp"

#include <cmath>

namespace trn::solver::detail {

std::int64_t round_robin_next(std::int64_t pos, std::int64_t m) {
  if (m == 1) return pos;
  const std::int64_t k = pos / 2;
  if (pos % 2 == 0) {  // top_k
    if (k == 0) return 0;
    return k + 1 <= m - 1 ? 2 * (k + 1) : 2 * (m - 1) + 1;
  }
  return k == 0 ? 2 : 2 * (k - 1) + 1;  // bot_k
}

void jacobi_angles(NeuronCore& nc, const AngleScratch& w, const Tile& app, const Tile& aqq, const Tile& apq,
                   const Tile& c, const Tile& s) {
  nc.tensor_tensor(w.theta, aqq, app, AluOp::subtract);
  nc.tensor_scalar(w.sg, w.theta, AluOp::greater_equal, 0.0f, AluOp::multiply, 4.0f);  // 4 or 0
  nc.tensor_scalar(w.sg, w.sg, AluOp::subtract, 2.0f);                                   // 2 sgn(theta), sgn(0) = 1
  nc.tensor_tensor(w.r, apq, apq, AluOp::multiply);
  nc.tensor_scalar(w.r, w.r, AluOp::multiply, 4.0f);
  nc.tensor_tensor(w.tmp, w.theta, w.theta, AluOp::multiply);
  nc.tensor_tensor(w.r, w.r, w.tmp, AluOp::add);
  // sqrt(r + 2^-100): the floor keeps ScalarE's sqrt in its valid range [2^-116, 2^118].
  nc.activation(w.den, w.r, ActFunc::sqrt, std::ldexp(1.0f, -100));
  nc.tensor_scalar(w.tmp, w.theta, AluOp::abs_max, 0.0f);
  nc.tensor_tensor(w.den, w.den, w.tmp, AluOp::add);
  nc.tensor_tensor(w.tmp, apq, w.sg, AluOp::multiply);
  nc.tensor_tensor(w.tmp, w.tmp, w.den, AluOp::divide);  // t, |t| <= 1
  nc.tensor_tensor(w.r, w.tmp, w.tmp, AluOp::multiply);
  nc.activation(c, w.r, ActFunc::rsqrt, 1.0f);  // c = 1 / sqrt(1 + t^2)
  nc.tensor_tensor(s, w.tmp, c, AluOp::multiply);  // s = t c
}

void rotate_pairs(NeuronCore& nc, const Tile& X, const Tile& Y, const Tile& C, const Tile& Sn, const Tile& E,
                  const Tile& O, const Tile& W, const Tile& W2, std::int64_t m) {
  const auto rows = static_cast<std::int32_t>(X.partitions);
  const Tile c = C.rows(0, rows), s = Sn.rows(0, rows), e = E.rows(0, rows), o = O.rows(0, rows), w = W.rows(0, rows);
  const Tile xe = X.slice(0, 0, m, 2), xo = X.slice(0, 1, m, 2);
  nc.tensor_tensor(e, xe, c, AluOp::multiply);
  nc.tensor_tensor(w, xo, s, AluOp::multiply);
  nc.tensor_tensor(e, e, w, AluOp::subtract);  // c x_p - s x_q
  // The odd outputs on GpSimdE, in parallel with VectorE (same fp32 arithmetic, same bits).
  const Engine g = Engine::gpsimd;
  const Tile w2 = W2.rows(0, rows).cols(0, m);
  nc.tensor_tensor(o, xe, s, AluOp::multiply, g);
  nc.tensor_tensor(w2, xo, c, AluOp::multiply, g);
  nc.tensor_tensor(o, o, w2, AluOp::add, g);  // s x_p + c x_q
  if (m == 1) {
    nc.tensor_copy(Y.cols(0, 1), e, g);
    nc.tensor_copy(Y.cols(1, 1), o, g);
    return;
  }
  nc.tensor_copy(Y.cols(0, 1), e.cols(0, 1), g);                            // top_0 stays
  nc.tensor_copy(Y.cols(2, 1), o.cols(0, 1), g);                            // bot_0 -> top_1
  if (m > 2) nc.tensor_copy(Y.slice(0, 4, m - 2, 2), e.cols(1, m - 2), g);  // top_k -> top_{k+1}
  nc.tensor_copy(Y.cols(2 * m - 1, 1), e.cols(m - 1, 1), g);                // top_{m-1} -> bot_{m-1}
  nc.tensor_copy(Y.slice(0, 1, m - 1, 2), o.cols(1, m - 1), g);             // bot_k -> bot_{k-1}
}

}  // namespace trn::solver::detail
