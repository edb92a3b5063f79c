// Downstream use of the installed package: one matmul on an emulated core, and the C header.
#include <trncore.h>

#include <cstdio>
#include <trn/core/core.hpp>

int main() {
  trn::NeuronCore nc;
  const trn::Tile a = nc.sbuf().alloc(trn::DType::bf16, 4, {4});
  const trn::Tile b = nc.sbuf().alloc(trn::DType::bf16, 4, {4});
  const trn::Tile c = nc.psum().alloc(trn::DType::f32, 4, {4});
  nc.memset(a, 1.0f);
  nc.memset(b, 2.0f);
  nc.nc_matmul(c, a, b, false);
  const float v = trn::load_as_f32(trn::DType::f32, c.at(0, 0));
  std::printf("consumer: %g (TRN_R_16BF=%d)\n", v, TRN_R_16BF);
  return v == 8.0f && TRN_R_16BF == 14 ? 0 : 1;
}
