// Jacobi pair ordering, 2x2 angles and column-pair rotations shared by ssyevj and sgesvdj
// (jacobi_tiles.hpp).
#include "jacobi_tiles.hpp"

#include <cmath>
#include <vector>

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

void jacobi_angles(NeuronCore& nc, std::span<const AngleArgs> problems) {
  const auto each = [&](auto&& f) {
    for (const AngleArgs& q : problems) f(q.w, q);
  };
  each([&](const AngleScratch& w, const AngleArgs& q) { nc.tensor_tensor(w.theta, q.aqq, q.app, AluOp::subtract); });
  each([&](const AngleScratch& w, const AngleArgs&) {
    nc.tensor_scalar(w.sg, w.theta, AluOp::greater_equal, 0.0f, AluOp::multiply, 4.0f);  // 4 or 0
  });
  each([&](const AngleScratch& w, const AngleArgs&) {
    nc.tensor_scalar(w.sg, w.sg, AluOp::subtract, 2.0f);  // 2 sgn(theta), sgn(0) = 1
  });
  each([&](const AngleScratch& w, const AngleArgs& q) { nc.tensor_tensor(w.r, q.apq, q.apq, AluOp::multiply); });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_scalar(w.r, w.r, AluOp::multiply, 4.0f); });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_tensor(w.tmp, w.theta, w.theta, AluOp::multiply); });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_tensor(w.r, w.r, w.tmp, AluOp::add); });
  // sqrt(r + 2^-100): the floor keeps ScalarE's sqrt in its valid range [2^-116, 2^118].
  each([&](const AngleScratch& w, const AngleArgs&) {
    nc.activation(w.den, w.r, ActFunc::sqrt, std::ldexp(1.0f, -100));
  });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_scalar(w.tmp, w.theta, AluOp::abs_max, 0.0f); });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_tensor(w.den, w.den, w.tmp, AluOp::add); });
  each([&](const AngleScratch& w, const AngleArgs& q) { nc.tensor_tensor(w.tmp, q.apq, w.sg, AluOp::multiply); });
  each([&](const AngleScratch& w, const AngleArgs&) {
    nc.tensor_tensor(w.tmp, w.tmp, w.den, AluOp::divide);  // t, |t| <= 1
  });
  each([&](const AngleScratch& w, const AngleArgs&) { nc.tensor_tensor(w.r, w.tmp, w.tmp, AluOp::multiply); });
  each([&](const AngleScratch& w, const AngleArgs& q) {
    nc.activation(q.c, w.r, ActFunc::rsqrt, 1.0f);  // c = 1 / sqrt(1 + t^2)
  });
  each([&](const AngleScratch& w, const AngleArgs& q) { nc.tensor_tensor(q.s, w.tmp, q.c, AluOp::multiply); });  // s = t c
}

void jacobi_angles(NeuronCore& nc, const AngleScratch& w, const Tile& app, const Tile& aqq, const Tile& apq,
                   const Tile& c, const Tile& s) {
  const AngleArgs one{w, app, aqq, apq, c, s};
  jacobi_angles(nc, std::span(&one, 1));
}

void rotate_pairs(NeuronCore& nc, std::span<const RotateArgs> problems, std::int64_t m) {
  struct Views {
    Tile X, Y, c, s, e, o, w, w2, xe, xo;
  };
  std::vector<Views> v;
  v.reserve(problems.size());
  for (const RotateArgs& q : problems) {
    const auto rows = static_cast<std::int32_t>(q.X.partitions);
    v.push_back(Views{q.X, q.Y, q.c.rows(0, rows), q.s.rows(0, rows), q.e.rows(0, rows), q.o.rows(0, rows),
                      q.w.rows(0, rows), q.w2.rows(0, rows).cols(0, m), q.X.slice(0, 0, m, 2), q.X.slice(0, 1, m, 2)});
  }
  const auto each = [&](auto&& f) {
    for (const Views& q : v) f(q);
  };
  each([&](const Views& q) { nc.tensor_tensor(q.e, q.xe, q.c, AluOp::multiply); });
  each([&](const Views& q) { nc.tensor_tensor(q.w, q.xo, q.s, AluOp::multiply); });
  each([&](const Views& q) { nc.tensor_tensor(q.e, q.e, q.w, AluOp::subtract); });  // c x_p - s x_q
  // The odd outputs on GpSimdE, in parallel with VectorE (same fp32 arithmetic, same bits). With c
  // and s in PSUM, VectorE takes all four products (one SBUF and one PSUM input: one element per
  // cycle instead of two, ISA tensor_tensor; GpSimdE cannot read PSUM).
  const Engine g = Engine::gpsimd;
  const Engine product = v.front().c.mem == MemSpace::psum ? Engine::vector : g;
  each([&](const Views& q) { nc.tensor_tensor(q.o, q.xe, q.s, AluOp::multiply, product); });
  each([&](const Views& q) { nc.tensor_tensor(q.w2, q.xo, q.c, AluOp::multiply, product); });
  each([&](const Views& q) { nc.tensor_tensor(q.o, q.o, q.w2, AluOp::add, g); });  // s x_p + c x_q
  if (m == 1) {
    each([&](const Views& q) { nc.tensor_copy(q.Y.cols(0, 1), q.e, g); });
    each([&](const Views& q) { nc.tensor_copy(q.Y.cols(1, 1), q.o, g); });
    return;
  }
  each([&](const Views& q) { nc.tensor_copy(q.Y.cols(0, 1), q.e.cols(0, 1), g); });  // top_0 stays
  each([&](const Views& q) { nc.tensor_copy(q.Y.cols(2, 1), q.o.cols(0, 1), g); });  // bot_0 -> top_1
  if (m > 2) each([&](const Views& q) { nc.tensor_copy(q.Y.slice(0, 4, m - 2, 2), q.e.cols(1, m - 2), g); });  // top_k -> top_{k+1}
  each([&](const Views& q) { nc.tensor_copy(q.Y.cols(2 * m - 1, 1), q.e.cols(m - 1, 1), g); });  // top_{m-1} -> bot_{m-1}
  each([&](const Views& q) { nc.tensor_copy(q.Y.slice(0, 1, m - 1, 2), q.o.cols(1, m - 1), g); });  // bot_k -> bot_{k-1}
}

void rotate_pairs(NeuronCore& nc, const Tile& X, const Tile& Y, const Tile& C, const Tile& Sn, const Tile& E,
                  const Tile& O, const Tile& W, const Tile& W2, std::int64_t m) {
  const RotateArgs one{X, Y, C, Sn, E, O, W, W2};
  rotate_pairs(nc, std::span(&one, 1), m);
}

}  // namespace trn::solver::detail
