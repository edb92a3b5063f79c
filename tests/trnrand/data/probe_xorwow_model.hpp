// Minimal XORWOW model for probe_xorwow_ordering.cpp: Marsaglia's step, cuRAND's seeding, skip-ahead
// by GF(2) matrix powers (state of thread k after i words).
#include <array>
#include <cmath>
#include <vector>
typedef std::array<unsigned, 5> V;
inline V step(V v) { unsigned t = v[0] ^ (v[0] >> 2); V r; r[0] = v[1]; r[1] = v[2]; r[2] = v[3]; r[3] = v[4]; r[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1)); return r; }
struct M { std::array<V, 160> col; };
inline V apply(const M& m, const V& v) { V r{}; for (int j = 0; j < 160; ++j) if (v[j / 32] >> (j % 32) & 1) for (int k = 0; k < 5; ++k) r[k] ^= m.col[j][k]; return r; }
inline M mul(const M& a, const M& b) { M c; for (int j = 0; j < 160; ++j) c.col[j] = apply(a, b.col[j]); return c; }
struct XW {
  std::vector<M> off, sub; V v0; unsigned d0;
  XW(unsigned long long seed) {
    M s; for (int j = 0; j < 160; ++j) { V e{}; e[j / 32] = 1u << (j % 32); s.col[j] = step(e); }
    for (int b = 0; b < 80; ++b) { off.push_back(s); s = mul(s, s); if (b >= 66) sub.push_back(s); }
    unsigned s0 = (unsigned)seed ^ 0xaad26b49u, s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu; unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    d0 = 6615241 + t1 + t0; v0 = {123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1, 5783321u + t0};
  }
  // state of thread k after skipping i words
  std::pair<V, unsigned> state(unsigned long long k, unsigned long long i) const {
    V v = v0; for (int b = 0; k >> b; ++b) if (k >> b & 1) v = apply(sub[b], v);
    for (int b = 0; i >> b; ++b) if (i >> b & 1) v = apply(off[b], v);
    return {v, d0 + 362437u * (unsigned)i};
  }
  // word i of thread k
  unsigned word(unsigned long long k, unsigned long long i) const { auto s = state(k, i); V v = step(s.first); return v[4] + s.second + 362437u; }
};
