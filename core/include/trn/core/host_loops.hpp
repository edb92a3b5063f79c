// Host speed helpers: the few library loops that run on the host CPU and are worth a vector path
// (trnblas's Ozaki scaling / residues / reconstruction, trnrand's Philox streams and MT19937 jump).
// Each is one function here; the core picks the widest path the host has (host_simd.hpp) inside
// core/src, so no library source holds intrinsics or target attributes. Every path gives the same
// bits as the portable loop (each library tests its host paths against its portable reference);
// the level only changes host speed.
#pragma once
#include <cstddef>
#include <cstdint>

#include "trn/core/host_simd.hpp"

namespace trn::host {

// dst[k] ^= src[k] for k < n (MT19937's jump polynomial, XORs of 624-word windows).
void xor_words(std::uint32_t* dst, const std::uint32_t* src, std::size_t n);

// ---- Philox4x32-10 (philox.hpp) over consecutive subsequences --------------------------------------
// Blocks b < blocks of counter (lo32(i), hi32(i), t0 + b, 0) under the key (lo32(seed), hi32(seed)),
// block b's four words at out[4b .. 4b+3]: raw words, or cuRAND's float uniforms
// float(x) 2^-32 + 2^-33 (an exact product, so the same with or without fused multiply-adds).
// `isa` is avx512 (blocks a multiple of 16) or avx2 (a multiple of 8), and must be available.
std::size_t philox4x32_10_lanes(HostSimd isa);
void philox4x32_10_blocks(HostSimd isa, std::uint64_t seed, std::uint64_t i, std::uint32_t t0, std::size_t blocks,
                          std::uint32_t* out);
void philox4x32_10_blocks(HostSimd isa, std::uint64_t seed, std::uint64_t i, std::uint32_t t0, std::size_t blocks,
                          float* out);

// ---- Ozaki schemes (trnblas/src/ozaki.hpp) ----------------------------------------------------------
// acc[i] += double(P[i]) 2^(ej + ea[i]) for i < m, every ej + ea[i] in the normal range: an exact
// widening, a product by an exact power of two and one add, as the element-wise general loop.
void accumulate_pow2_scaled(double* acc, const float* P, const int* ea, int ej, std::int64_t m);
// Centred residues of x_i = mant[i] 2^e[i] modulo p in [-p/2, p/2) as bf16 bits (integers of <= 8
// significant bits), pow2_mod[e] = 2^e mod p, inv_p = 1 / p rounded; exact for |mant| < 2^53, p < 256.
void centred_residues_bf16(const double* mant, const std::uint8_t* e, std::int64_t count, double p, double inv_p,
                           const double* pow2_mod, std::uint16_t* out);
// y[i] = (P[i] mod p) if first, else (y[i] + P[i] mod p) mod p, in [0, p), for exact integer partials
// |P[i]| <= 2^24.
void fold_residues_u8(const float* P, std::int64_t count, double p, double inv_p, bool first, std::uint8_t* y);
// S[c][e] += W[l][c] y[l][offset + e] for l < moduli, c < digits, e < nb (exact: sums < 2^53);
// W has `w_stride` doubles per modulus.
void weighted_digit_sums(int moduli, int digits, const double* W, std::size_t w_stride, const std::uint8_t* const* y,
                         std::int64_t offset, std::int64_t nb, double (*S)[256]);

}  // namespace trn::host
