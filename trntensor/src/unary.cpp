// cuTENSOR 2.x unary operators on fp32 tiles (docs/trntensor.md "Unary operators"): each is a short
// sequence of VectorE ALU instructions and ScalarE activation functions, in place on x with three
// scratch tiles of x's shape. ScalarE's functions are the emulator's (core/src/isa_scalar.cpp: the
// fp64 function rounded once to fp32; sin valid on [-pi, pi], arctan on [-pi/2, pi/2], log on
// [2^-64, 2^64], sqrt on [2^-116, 2^118] and +-0; outside its range an activation gives NaN). Where a
// function's range is narrower than the operator's domain the sequence reduces the argument first.
#include "trn/tensor/tensor.hpp"

namespace trn::tensor {

namespace {

constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: (v + M) - M rounds v to an integer (RNE) for |v| < 2^22
constexpr float kHalfPi = 1.57079632679489661923f;

// x := sin(x): k = rne(x / 2pi); r = (x - k C1) - k C2 (Cody-Waite: C1 = 6.28125 has 8 significant
// bits, so k C1 is exact for |k| < 2^16); r clamped to fp32's [-pi, pi]; ScalarE sin.
void sine(NeuronCore& nc, const Tile& x, const Tile& k, const Tile& t) {
  constexpr float kInv2Pi = 0.159154943091895335769f, kC1 = 6.28125f, kC2 = 0.00193530717958647692f;
  constexpr float kPi = 3.14159265358979323846f;
  nc.tensor_scalar(k, x, AluOp::multiply, kInv2Pi, AluOp::add, kMagic);
  nc.tensor_scalar(k, k, AluOp::subtract, kMagic);
  nc.tensor_scalar(t, k, AluOp::multiply, kC1);
  nc.tensor_tensor(x, x, t, AluOp::subtract);
  nc.tensor_scalar(t, k, AluOp::multiply, kC2);
  nc.tensor_tensor(x, x, t, AluOp::subtract);
  nc.tensor_scalar(x, x, AluOp::minimum, kPi, AluOp::maximum, -kPi);
  nc.activation(x, x, ActFunc::sin);
}

// x := m a + (1 - m) b for a 0/1 mask m (one term is exactly zero: the sum is exact); m is
// replaced by 1 - m, b by (1 - m) b. a and b must be finite where their weight is 0.
void select(NeuronCore& nc, const Tile& x, const Tile& m, const Tile& b) {
  nc.tensor_tensor(x, x, m, AluOp::multiply);
  nc.tensor_scalar(m, m, AluOp::multiply, -1.0f, AluOp::add, 1.0f);
  nc.tensor_tensor(b, b, m, AluOp::multiply);
  nc.tensor_tensor(x, x, b, AluOp::add);
}

// x := atan(x) for any x: w = x when |x| <= 1, else 1/x (sign(x) / max(|x|, 1)); t = arctan(w)
// (ScalarE, |w| <= 1); atan = t, or sign(x) pi/2 - t.
void arctangent(NeuronCore& nc, const Tile& x, const Tile& t1, const Tile& t2, const Tile& t3) {
  nc.tensor_scalar(t1, x, AluOp::abs_max, 0.0f);
  nc.tensor_scalar(t2, t1, AluOp::less_equal, 1.0f);  // m
  nc.tensor_scalar(t1, t1, AluOp::maximum, 1.0f);
  nc.activation(t3, x, ActFunc::sign);
  nc.tensor_tensor(t1, t3, t1, AluOp::divide);  // q = sign(x) / max(|x|, 1)
  nc.tensor_scalar(x, x, AluOp::minimum, 1.0f, AluOp::maximum, -1.0f);
  select(nc, x, t2, t1);  // w; t2 = 1 - m
  nc.activation(x, x, ActFunc::arctan);
  nc.tensor_scalar(t1, t3, AluOp::multiply, kHalfPi);
  nc.tensor_tensor(t1, t1, x, AluOp::subtract);  // sign(x) pi/2 - t
  nc.tensor_scalar(t2, t2, AluOp::multiply, -1.0f, AluOp::add, 1.0f);  // m again
  select(nc, x, t2, t1);
}

// x := floor(x) (up = false) or ceil(x): with M = +-2^23 by the sign of x, r = (c + M) - M rounds c =
// clamp(x, +-2^23) to an integer (RNE; |c + M| lies in [2^23, 2^24], where the fp32 spacing is 1);
// r -= (r > x) (floor) or r += (r < x) (ceil); |x| >= 2^23 (already an integer, or Inf) keeps x.
void round_to_integer(NeuronCore& nc, const Tile& x, const Tile& t1, const Tile& t2, const Tile& t3, bool up) {
  constexpr float kTwo23 = 8388608.0f;
  nc.tensor_scalar(t3, x, AluOp::greater_equal, 0.0f, AluOp::multiply, 2.0f * kTwo23);
  nc.tensor_scalar(t3, t3, AluOp::subtract, kTwo23);  // M
  nc.tensor_scalar(t1, x, AluOp::minimum, kTwo23, AluOp::maximum, -kTwo23);
  nc.tensor_tensor(t1, t1, t3, AluOp::add);
  nc.tensor_tensor(t1, t1, t3, AluOp::subtract);
  nc.tensor_tensor(t2, t1, x, up ? AluOp::less : AluOp::greater);
  nc.tensor_tensor(t1, t1, t2, up ? AluOp::add : AluOp::subtract);
  nc.tensor_scalar(t2, x, AluOp::abs_max, 0.0f, AluOp::greater_equal, kTwo23);
  select(nc, x, t2, t1);
}

// x := asin(x) = atan(x / sqrt((1 - x)(1 + x))) (|x| > 1: NaN from the square root).
void arcsine(NeuronCore& nc, const Tile& x, const Tile& t1, const Tile& t2, const Tile& t3) {
  nc.tensor_scalar(t1, x, AluOp::multiply, -1.0f, AluOp::add, 1.0f);
  nc.tensor_scalar(t2, x, AluOp::add, 1.0f);
  nc.tensor_tensor(t1, t1, t2, AluOp::multiply);
  nc.activation(t1, t1, ActFunc::sqrt);
  nc.tensor_tensor(x, x, t1, AluOp::divide);
  arctangent(nc, x, t1, t2, t3);
}

void activation_op(NeuronCore& nc, const Tile& x, ActFunc f) { nc.activation(x, x, f); }

}  // namespace

bool unary_op_known(int v) {
  switch (static_cast<UnaryOp>(v)) {
    case UnaryOp::identity: case UnaryOp::sqrt: case UnaryOp::relu: case UnaryOp::conj: case UnaryOp::rcp:
    case UnaryOp::sigmoid: case UnaryOp::tanh: case UnaryOp::exp: case UnaryOp::log: case UnaryOp::abs:
    case UnaryOp::neg: case UnaryOp::sin: case UnaryOp::cos: case UnaryOp::tan: case UnaryOp::sinh:
    case UnaryOp::cosh: case UnaryOp::asin: case UnaryOp::acos: case UnaryOp::atan: case UnaryOp::asinh:
    case UnaryOp::acosh: case UnaryOp::atanh: case UnaryOp::ceil: case UnaryOp::floor: case UnaryOp::mish:
    case UnaryOp::swish: case UnaryOp::soft_plus: case UnaryOp::soft_sign:
      return true;
  }
  return false;
}

// The instruction sequences, per operator (docs/trntensor.md "Unary operators" lists their accuracy).
void apply_unary(NeuronCore& nc, UnaryOp op, const Tile& x, const Tile& t1, const Tile& t2, const Tile& t3) {
  switch (op) {
    case UnaryOp::identity: case UnaryOp::conj: return;  // real data: CONJ is the identity
    case UnaryOp::sqrt: return activation_op(nc, x, ActFunc::sqrt);
    case UnaryOp::relu: return nc.tensor_scalar(x, x, AluOp::maximum, 0.0f);
    case UnaryOp::rcp: return nc.tensor_scalar(x, x, AluOp::divide, 1.0f, AluOp::bypass, 0.0f, Engine::vector, true);
    case UnaryOp::sigmoid: return activation_op(nc, x, ActFunc::sigmoid);
    case UnaryOp::tanh: return activation_op(nc, x, ActFunc::tanh);
    case UnaryOp::exp: return activation_op(nc, x, ActFunc::exp);
    case UnaryOp::log: return activation_op(nc, x, ActFunc::log);
    case UnaryOp::abs: return nc.tensor_scalar(x, x, AluOp::abs_max, 0.0f);
    case UnaryOp::neg: return nc.tensor_scalar(x, x, AluOp::multiply, -1.0f);
    case UnaryOp::sin: return sine(nc, x, t1, t2);
    case UnaryOp::cos:  // sin(x + pi/2)
      nc.tensor_scalar(x, x, AluOp::add, kHalfPi);
      return sine(nc, x, t1, t2);
    case UnaryOp::tan:  // sin x / sin(x + pi/2)
      nc.tensor_scalar(t3, x, AluOp::add, kHalfPi);
      sine(nc, x, t1, t2);
      sine(nc, t3, t1, t2);
      return nc.tensor_tensor(x, x, t3, AluOp::divide);
    case UnaryOp::sinh: case UnaryOp::cosh:  // (e^x -+ e^-x) / 2
      nc.activation(t1, x, ActFunc::exp);
      nc.activation(t2, x, ActFunc::exp, 0.0f, -1.0f);
      nc.tensor_tensor(x, t1, t2, op == UnaryOp::sinh ? AluOp::subtract : AluOp::add);
      return nc.tensor_scalar(x, x, AluOp::multiply, 0.5f);
    case UnaryOp::asin: return arcsine(nc, x, t1, t2, t3);
    case UnaryOp::acos:  // pi/2 - asin x
      arcsine(nc, x, t1, t2, t3);
      return nc.tensor_scalar(x, x, AluOp::multiply, -1.0f, AluOp::add, kHalfPi);
    case UnaryOp::atan: return arctangent(nc, x, t1, t2, t3);
    case UnaryOp::asinh:  // sign(x) log(|x| + sqrt(x^2 + 1))
      nc.activation(t3, x, ActFunc::sign);
      nc.tensor_scalar(t1, x, AluOp::abs_max, 0.0f);
      nc.tensor_tensor(t2, t1, t1, AluOp::multiply);
      nc.tensor_scalar(t2, t2, AluOp::add, 1.0f);
      nc.activation(t2, t2, ActFunc::sqrt);
      nc.tensor_tensor(t1, t1, t2, AluOp::add);
      nc.activation(t1, t1, ActFunc::log);
      return nc.tensor_tensor(x, t1, t3, AluOp::multiply);
    case UnaryOp::acosh:  // log(x + sqrt(x^2 - 1))
      nc.tensor_tensor(t1, x, x, AluOp::multiply);
      nc.tensor_scalar(t1, t1, AluOp::subtract, 1.0f);
      nc.activation(t1, t1, ActFunc::sqrt);
      nc.tensor_tensor(x, x, t1, AluOp::add);
      return activation_op(nc, x, ActFunc::log);
    case UnaryOp::atanh:  // log((1 + x) / (1 - x)) / 2
      nc.tensor_scalar(t1, x, AluOp::add, 1.0f);
      nc.tensor_scalar(t2, x, AluOp::multiply, -1.0f, AluOp::add, 1.0f);
      nc.tensor_tensor(x, t1, t2, AluOp::divide);
      nc.activation(x, x, ActFunc::log);
      return nc.tensor_scalar(x, x, AluOp::multiply, 0.5f);
    case UnaryOp::ceil: return round_to_integer(nc, x, t1, t2, t3, true);
    case UnaryOp::floor: return round_to_integer(nc, x, t1, t2, t3, false);
    case UnaryOp::mish:  // x tanh(softplus x)
      nc.activation(t1, x, ActFunc::softplus);
      nc.activation(t1, t1, ActFunc::tanh);
      return nc.tensor_tensor(x, x, t1, AluOp::multiply);
    case UnaryOp::swish: return activation_op(nc, x, ActFunc::silu);  // x sigmoid(x)
    case UnaryOp::soft_plus: return activation_op(nc, x, ActFunc::softplus);
    case UnaryOp::soft_sign:  // x / (1 + |x|)
      nc.tensor_scalar(t1, x, AluOp::abs_max, 0.0f, AluOp::add, 1.0f);
      return nc.tensor_tensor(x, x, t1, AluOp::divide);
  }
}

}  // namespace trn::tensor
