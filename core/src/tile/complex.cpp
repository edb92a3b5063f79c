#include "trn/tile/complex.hpp"

namespace trn::tile {

void complex_multiply(NeuronCore& nc, const ComplexPlanes& out, const ComplexPlanes& a, const ComplexPlanes& b,
                      const Tile& t) {
  nc.tensor_tensor(out.re, a.re, b.re, AluOp::multiply);
  nc.tensor_tensor(t, a.im, b.im, AluOp::multiply);
  nc.tensor_tensor(out.re, out.re, t, AluOp::subtract);
  nc.tensor_tensor(out.im, a.re, b.im, AluOp::multiply);
  nc.tensor_tensor(t, a.im, b.re, AluOp::multiply);
  nc.tensor_tensor(out.im, out.im, t, AluOp::add);
}

void complex_multiply(NeuronCore& nc, const ComplexPlanes& out, const ComplexPlanes& a, ScalarOperand b_re,
                      ScalarOperand b_im, const Tile& t) {
  nc.tensor_scalar(out.re, a.re, AluOp::multiply, b_re);
  nc.tensor_scalar(t, a.im, AluOp::multiply, b_im);
  nc.tensor_tensor(out.re, out.re, t, AluOp::subtract);
  nc.tensor_scalar(out.im, a.re, AluOp::multiply, b_im);
  nc.tensor_scalar(t, a.im, AluOp::multiply, b_re);
  nc.tensor_tensor(out.im, out.im, t, AluOp::add);
}

void complex_multiply_subtract(NeuronCore& nc, const ComplexPlanes& acc, const ComplexPlanes& a,
                               const ComplexPlanes& b, const Tile& t1, const Tile& t2) {
  nc.tensor_tensor(t1, a.re, b.re, AluOp::multiply);
  nc.tensor_tensor(t2, a.im, b.im, AluOp::multiply);
  nc.tensor_tensor(t1, t1, t2, AluOp::subtract);
  nc.tensor_tensor(acc.re, acc.re, t1, AluOp::subtract);
  nc.tensor_tensor(t1, a.re, b.im, AluOp::multiply);
  nc.tensor_tensor(t2, a.im, b.re, AluOp::multiply);
  nc.tensor_tensor(t1, t1, t2, AluOp::add);
  nc.tensor_tensor(acc.im, acc.im, t1, AluOp::subtract);
}

void complex_scale(NeuronCore& nc, const ComplexPlanes& x, ScalarOperand s_re, ScalarOperand s_im, const Tile& t1,
                   const Tile& t2, const Tile& t3) {
  nc.tensor_scalar(t1, x.re, AluOp::multiply, s_re);
  nc.tensor_scalar(t2, x.im, AluOp::multiply, s_im);
  nc.tensor_tensor(t3, t1, t2, AluOp::subtract);
  nc.tensor_scalar(t1, x.re, AluOp::multiply, s_im);
  nc.tensor_scalar(t2, x.im, AluOp::multiply, s_re);
  nc.tensor_tensor(x.im, t1, t2, AluOp::add);
  nc.tensor_copy(x.re, t3);
}

void complex_reciprocal(NeuronCore& nc, const Tile& e_re, const Tile& e_im, const Tile& m, const ReciprocalWork& w,
                        const ComplexPlanes& r) {
  nc.tensor_scalar(w.er, e_re, AluOp::divide, m);
  nc.tensor_scalar(w.ei, e_im, AluOp::divide, m);
  nc.tensor_tensor(w.q, w.er, w.er, AluOp::multiply);
  nc.tensor_tensor(w.t, w.ei, w.ei, AluOp::multiply);
  nc.tensor_tensor(w.q, w.q, w.t, AluOp::add);
  nc.tensor_tensor(w.q, w.q, m, AluOp::multiply);
  nc.tensor_tensor(r.re, w.er, w.q, AluOp::divide);
  nc.tensor_scalar(r.im, w.ei, AluOp::divide, w.q, AluOp::multiply, -1.0f);
}

}  // namespace trn::tile
