// Pieces shared by the Jacobi tile kernels (ssyevj, sgesvdj) and their fp64 host twins: the
// round-robin (Brent & Luk 1985) pair ordering, the 2x2 rotation angles and the column-pair
// rotation of a row tile. Not installed.
#pragma once
#include <cstdint>
#include <span>

#include "trn/core/core.hpp"

namespace trn::solver::detail {

// The round-robin successor of every position: each step moves every element one place along
// the ring top_1 -> top_2 -> ... -> top_{m-1} -> bot_{m-1} -> ... -> bot_0 -> top_1 (top_k = 2k,
// bot_k = 2k + 1, top_0 fixed), so that over 2m - 1 steps every pair meets exactly once.
std::int64_t round_robin_next(std::int64_t pos, std::int64_t m);

// Work tiles of jacobi_angles, each [P, m] fp32 (m = pairs).
struct AngleScratch {
  Tile theta, sg, r, den, tmp;
};

// The rotation (c, s) that diagonalises every symmetric 2x2 [[app, apq], [apq, aqq]] (Golub & Van
// Loan, Matrix Computations 4th ed., Alg. 8.5.2 sym.schur2, in the overflow-safe form):
// theta = aqq - app, t = 2 apq sgn(theta) / (|theta| + sqrt(theta^2 + 4 apq^2)), c = rsqrt(1 + t^2),
// s = t c. VectorE (arithmetic) and ScalarE (sqrt, rsqrt); every operand [P, m], computed
// redundantly on every partition. Limits: theta^2 and 4 apq^2 must not overflow fp32; the sqrt
// argument is floored at 2^-100 (ScalarE's valid range), so |apq| below ~2^-50 is not rotated.
void jacobi_angles(NeuronCore& nc, const AngleScratch& w, const Tile& app, const Tile& aqq, const Tile& apq,
                   const Tile& c, const Tile& s);

// Several independent problems (e.g. matrices of a batch) in lockstep: each instruction of the
// sequence is issued for every problem before the next, so that their dependency chains overlap
// on the engines; each problem's instructions and bits are those of the single call.
struct AngleArgs {
  AngleScratch w;
  Tile app, aqq, apq, c, s;
};
void jacobi_angles(NeuronCore& nc, std::span<const AngleArgs> problems);

// Y = X J P for one row tile X [rows, 2m]: columns (2k, 2k+1) rotated (x_p' = c x_p - s x_q,
// x_q' = s x_p + c x_q; c, s [>= rows, m]), then moved to their next round-robin positions. Even
// outputs on VectorE, odd outputs on GpSimdE (same fp32 arithmetic), copies on GpSimdE; c, s may
// be in PSUM (then VectorE takes all four products: a PSUM operand halves their cost). e, o, w,
// w2: [>= rows, m] SBUF scratch.
void rotate_pairs(NeuronCore& nc, const Tile& X, const Tile& Y, const Tile& c, const Tile& s, const Tile& e,
                  const Tile& o, const Tile& w, const Tile& w2, std::int64_t m);

// rotate_pairs of several independent problems in lockstep (as jacobi_angles above).
struct RotateArgs {
  Tile X, Y, c, s, e, o, w, w2;
};
void rotate_pairs(NeuronCore& nc, std::span<const RotateArgs> problems, std::int64_t m);

}  // namespace trn::solver::detail
