// trn::tile complex arithmetic on planes: complex fp32 values as two real planes (re, im), e.g. the
// step-2 views of interleaved data (trn::tile::complex_plane), computed with real VectorE
// instructions. No NeuronCore engine has complex arithmetic; these are the instruction sequences
// the libraries (trnblas Ctrsm diagonal blocks, batched complex LU, Cdgmm) share, so one place
// fixes their order and rounding. Each function lists its instructions in order: the order is part
// of the contract (bits and modeled times of the callers depend on it).
//
// Operands: every plane of one call has the same [partitions, free...] shape, except the
// ScalarOperand arguments (an fp32 immediate or a per-partition [P, 1] tile, as tensor_scalar).
// Scratch tiles have the output's shape and must not alias the operands unless said.
//
// Rounding (u = 2^-24): a complex product is fl(fl(ar br) -+ fl(ai bi)) per component, so
// |d(ab)| <= sqrt(2) gamma_2 |a||b| (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
// ed., §3.6); the scaled reciprocal is within gamma_7 |1/e| componentwise (Higham §27.4).
#pragma once
#include "trn/core/memory.hpp"
#include "trn/core/neuron_core.hpp"

namespace trn::tile {

// A complex operand as its real and imaginary planes.
struct ComplexPlanes {
  Tile re, im;
};

// out = a * b, b a tile pair (tensor_tensor) or per-partition scalars (tensor_scalar):
//   out.re = a.re b.re; t = a.im b.im; out.re -= t; out.im = a.re b.im; t = a.im b.re; out.im += t
// 6 VectorE instructions. out may not alias a or b (out.re is written before a.im b.im is read).
void complex_multiply(NeuronCore& nc, const ComplexPlanes& out, const ComplexPlanes& a, const ComplexPlanes& b,
                      const Tile& t);
void complex_multiply(NeuronCore& nc, const ComplexPlanes& out, const ComplexPlanes& a, ScalarOperand b_re,
                      ScalarOperand b_im, const Tile& t);

// acc -= a * b (tiles):
//   t1 = a.re b.re; t2 = a.im b.im; t1 -= t2; acc.re -= t1;
//   t1 = a.re b.im; t2 = a.im b.re; t1 += t2; acc.im -= t1
// 8 VectorE instructions; the product is rounded before it is subtracted (two roundings per
// component), as scalar complex substitution does. a and b may be stride-0 broadcasts.
void complex_multiply_subtract(NeuronCore& nc, const ComplexPlanes& acc, const ComplexPlanes& a,
                               const ComplexPlanes& b, const Tile& t1, const Tile& t2);

// x *= s in place, s = (s_re, s_im) immediates or per-partition scalars:
//   t1 = x.re s_re; t2 = x.im s_im; t3 = t1 - t2; t1 = x.re s_im; t2 = x.im s_re; x.im = t1 + t2;
//   x.re = t3 (tensor_copy)
// 7 VectorE instructions (x.re is kept until x.im is done, so x may be updated in place).
void complex_scale(NeuronCore& nc, const ComplexPlanes& x, ScalarOperand s_re, ScalarOperand s_im, const Tile& t1,
                   const Tile& t2, const Tile& t3);

// Work tiles of complex_reciprocal, each [P, 1] (P the partitions of the pivot).
struct ReciprocalWork {
  Tile er, ei, q, t;
};

// r = 1 / e per partition, scaled against overflow and underflow (Smith's idea; Higham §27.4),
// given m = max(|e.re|, |e.im|) > 0 computed by the caller (tensor_tensor abs_max, possibly with a
// zero-pivot fix-up between; trnblas lu_batched.cpp):
//   w.er = e_re / m; w.ei = e_im / m; w.q = w.er^2; w.t = w.ei^2; w.q += w.t; w.q *= m;
//   r.re = w.er / w.q; r.im = (w.ei / w.q) * -1
// 8 VectorE instructions. e_re may be w.er itself (divided in place).
void complex_reciprocal(NeuronCore& nc, const Tile& e_re, const Tile& e_im, const Tile& m, const ReciprocalWork& w,
                        const ComplexPlanes& r);

}  // namespace trn::tile
