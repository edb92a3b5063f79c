// MT19937 host generator (trn/rand/mt19937.hpp): GF(2) polynomial arithmetic for the jump ahead,
// cuRAND's 8192 streams and its 78 x 8 block layout, the conversions.
#include "trn/rand/mt19937.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "avx512_intrinsics.hpp"
#include "trn/core/error.hpp"
#include "trn/core/host_simd.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/host_loops.hpp"
#include "trn/rand/sobol.hpp"
#include "trn/rand/transforms.hpp"
#include "word_generator_impl.hpp"

namespace trn::rand {

namespace {

constexpr std::string_view kWho = "trn::rand::Mt19937Generator";
constexpr int kD = kMt19937Degree;
constexpr std::size_t kPolyWords = (kD + 63) / 64;  // 312: polynomials of degree < D

bool coefficient(const Gf2Poly& p, std::size_t i) { return (p[i / 64] >> (i % 64)) & 1u; }

int degree(const Gf2Poly& p) {
  for (std::size_t w = p.size(); w-- > 0;)
    if (p[w] != 0) return static_cast<int>(64 * w + 63 - static_cast<std::size_t>(std::countl_zero(p[w])));
  return -1;
}

// p ^= q x^s (p large enough).
void xor_shifted(Gf2Poly& p, const Gf2Poly& q, std::size_t s) {
  const std::size_t ws = s / 64, bs = s % 64;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] == 0) continue;
    p[i + ws] ^= q[i] << bs;
    if (bs != 0 && i + ws + 1 < p.size()) p[i + ws + 1] ^= q[i] >> (64 - bs);
  }
}

// One transition of the raw word sequence: x[k+624] from x[k], x[k+1], x[k+397].
constexpr std::uint32_t next_word(std::uint32_t xk, std::uint32_t xk1, std::uint32_t xk397) {
  const std::uint32_t y = (xk & 0x80000000u) | (xk1 & 0x7fffffffu);
  return xk397 ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

// Berlekamp-Massey (J. L. Massey, "Shift-register synthesis and BCH decoding", IEEE Trans. Inf.
// Theory 15, 1969) on bit 0 of the raw words: its minimal polynomial is the transition's
// characteristic polynomial (irreducible of degree 19937, so every nonzero bit sequence of the
// generator has it). Word-packed: the discrepancy is the parity of C & (the reversed window).
Gf2Poly compute_characteristic_polynomial() {
  const std::size_t n_bits = 2 * kD + 64;
  std::vector<std::uint32_t> x(kMt19937Words + n_bits);
  const Mt19937Window w0 = mt19937_init_genrand(5489u);  // any seed (the reference code's default)
  std::copy(w0.begin(), w0.end(), x.begin());
  for (std::size_t k = 0; k + kMt19937Words < x.size(); ++k) x[k + 624] = next_word(x[k], x[k + 1], x[k + 397]);
  // rev bit j = s_{N-1-j}, s_i = bit 0 of x[624 + i].
  const std::size_t rev_words = n_bits / 64 + 2;
  std::vector<std::uint64_t> rev(rev_words + kPolyWords + 2, 0);
  for (std::size_t i = 0; i < n_bits; ++i)
    if (x[kMt19937Words + i] & 1u) rev[(n_bits - 1 - i) / 64] |= std::uint64_t{1} << ((n_bits - 1 - i) % 64);
  Gf2Poly c(kPolyWords + 2, 0), b(kPolyWords + 2, 0), t;
  c[0] = b[0] = 1;
  std::size_t len = 0, m = 1;
  for (std::size_t n = 0; n < n_bits; ++n) {
    // d = sum_{i=0}^{len} c_i s_{n-i} = parity(c & rev >> (N-1-n)).
    const std::size_t o = n_bits - 1 - n, ow = o / 64, ob = o % 64;
    std::uint64_t acc = 0;
    for (std::size_t j = 0; j <= len / 64; ++j) {
      std::uint64_t win = rev[ow + j] >> ob;
      if (ob != 0) win |= rev[ow + j + 1] << (64 - ob);
      acc ^= c[j] & win;
    }
    if ((std::popcount(acc) & 1) == 0) {
      ++m;
      continue;
    }
    if (2 * len <= n) {
      t = c;
      xor_shifted(c, b, m);
      len = n + 1 - len;
      b = std::move(t);
      m = 1;
    } else {
      xor_shifted(c, b, m);
      ++m;
    }
  }
  if (len != static_cast<std::size_t>(kD)) throw Error(std::string(kWho) + ": Berlekamp-Massey did not find degree 19937");
  // phi(x) = x^L C(1/x).
  Gf2Poly phi(kPolyWords + 1, 0);
  for (std::size_t i = 0; i <= len; ++i)
    if (coefficient(c, i)) phi[(len - i) / 64] |= std::uint64_t{1} << ((len - i) % 64);
  return phi;
}

// Reduction modulo phi one byte of the high part at a time: entry[B] = B(x) x^D + (B(x) x^D mod
// phi), so adding entry[B] x^(8m) clears the byte at D + 8m and adds its remainder below it.
struct Reducer {
  std::vector<Gf2Poly> table;
  explicit Reducer(const Gf2Poly& phi) : table(256, Gf2Poly(kPolyWords + 1, 0)) {
    // e_k = x^(D + k) + (x^(D + k) mod phi) for k = 0 .. 7; r = x^(D+k) mod phi by shifting.
    std::array<Gf2Poly, 8> e;
    Gf2Poly r(kPolyWords + 1, 0);
    xor_shifted(r, phi, 0);
    r[kD / 64] &= ~(std::uint64_t{1} << (kD % 64));  // x^D mod phi = phi's lower part
    for (std::size_t k = 0; k < 8; ++k) {
      e[k] = r;
      e[k][(kD + k) / 64] ^= std::uint64_t{1} << ((kD + k) % 64);
      Gf2Poly next(kPolyWords + 1, 0);  // r *= x mod phi
      xor_shifted(next, Gf2Poly(r.begin(), r.begin() + kPolyWords), 1);
      if (coefficient(next, kD))
        for (std::size_t i = 0; i < phi.size(); ++i) next[i] ^= phi[i];
      r = next;
    }
    for (std::size_t v = 1; v < 256; ++v) {
      table[v] = table[v & (v - 1)];
      const auto& add = e[static_cast<std::size_t>(std::countr_zero(v))];
      for (std::size_t i = 0; i < add.size(); ++i) table[v][i] ^= add[i];
    }
  }
  // p (degree < 2D) mod phi; returns the kPolyWords low words.
  Gf2Poly reduce(Gf2Poly p) const {
    p.resize(2 * kPolyWords + 4, 0);
    const int top = degree(p);
    if (top >= kD) {
      for (std::size_t m = static_cast<std::size_t>(top - kD) / 8 + 1; m-- > 0;) {
        const std::size_t pos = kD + 8 * m, w = pos / 64, b = pos % 64;
        std::uint64_t bits = p[w] >> b;
        if (b > 56) bits |= p[w + 1] << (64 - b);
        const auto byte = static_cast<std::size_t>(bits & 0xffu);
        if (byte == 0) continue;
        // p += table[byte] x^(8m): word-offset m / 8, bit shift 8 (m mod 8); branch-free loops.
        const std::uint64_t* add = table[byte].data();
        std::uint64_t* dst = p.data() + m / 8;
        const unsigned sh = static_cast<unsigned>(8 * (m % 8));
        const std::size_t nw = table[byte].size();
        if (sh == 0) {
          for (std::size_t i = 0; i < nw; ++i) dst[i] ^= add[i];
        } else {
          for (std::size_t i = 0; i < nw; ++i) dst[i] ^= add[i] << sh;
          for (std::size_t i = 0; i < nw; ++i) dst[i + 1] ^= add[i] >> (64 - sh);
        }
      }
    }
    p.resize(kPolyWords);
    return p;
  }
};

const Reducer& reducer() {
  static const Reducer r(mt19937_characteristic_polynomial());
  return r;
}

// Spreads the 32 bits of x to the even positions of a 64-bit word (squaring over GF(2)).
std::uint64_t spread(std::uint32_t x) {
  std::uint64_t v = x;
  v = (v | (v << 16)) & 0x0000ffff0000ffffull;
  v = (v | (v << 8)) & 0x00ff00ff00ff00ffull;
  v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0full;
  v = (v | (v << 2)) & 0x3333333333333333ull;
  v = (v | (v << 1)) & 0x5555555555555555ull;
  return v;
}

Gf2Poly square_mod(const Gf2Poly& a) {
  Gf2Poly s(2 * kPolyWords, 0);
  for (std::size_t i = 0; i < kPolyWords; ++i) {
    s[2 * i] = spread(static_cast<std::uint32_t>(a[i]));
    s[2 * i + 1] = spread(static_cast<std::uint32_t>(a[i] >> 32));
  }
  return reducer().reduce(std::move(s));
}

Gf2Poly times_x_mod(const Gf2Poly& a) {
  Gf2Poly s(kPolyWords + 1, 0);
  xor_shifted(s, a, 1);
  return reducer().reduce(std::move(s));
}

}  // namespace

const Gf2Poly& mt19937_characteristic_polynomial() {
  static const Gf2Poly phi = compute_characteristic_polynomial();
  return phi;
}

Gf2Poly mt19937_x_pow2_mod(int log2_e) {
  Gf2Poly g(kPolyWords, 0);
  g[0] = 2;  // x
  for (int k = 0; k < log2_e; ++k) g = square_mod(g);
  return g;
}

Gf2Poly mt19937_x_pow_mod(std::uint64_t e) {
  Gf2Poly g(kPolyWords, 0);
  g[0] = 1;
  for (int b = 63; b >= 0; --b) {  // left-to-right: square, then multiply by x for a set bit
    g = square_mod(g);
    if ((e >> b) & 1u) g = times_x_mod(g);
  }
  return g;
}

const Gf2Poly& mt19937_stream_jump_polynomial() {
  // x^(2^2048) mod phi: the first of the stored powers x^(j 2^2048) mod phi (mt19937_jump_powers.cpp,
  // generated by tools/trnrand/print_mt19937_jump_powers.cpp from mt19937_x_pow2_mod(2048); 312
  // words, coefficient i at bit i % 64 of word i / 64); test_trnrand_mt19937 recomputes it.
  static_assert(kMt19937StreamLog2Distance == 2048);
  return mt19937_stream_jump_powers()[0];
}

Gf2Poly mt19937_mul_mod(const Gf2Poly& a, const Gf2Poly& b) {
  const Gf2Poly b_low(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(std::min(b.size(), kPolyWords)));
  Gf2Poly p(2 * kPolyWords + 2, 0);
  for (std::size_t i = 0; i < std::min(a.size(), kPolyWords) * 64; ++i)
    if (coefficient(a, i)) xor_shifted(p, b_low, i);
  return reducer().reduce(std::move(p));
}

Mt19937Window mt19937_init_genrand(std::uint32_t seed) {
  Mt19937Window w{};
  w[0] = seed;
  for (std::uint32_t i = 1; i < kMt19937Words; ++i) w[i] = 1812433253u * (w[i - 1] ^ (w[i - 1] >> 30)) + i;
  return w;
}

namespace {
void twist_words(std::uint32_t* x);
}  // namespace

void mt19937_twist(Mt19937Window& w) { twist_words(w.data()); }

namespace {
// One twist of the 624 words at x (a window; the kernel's operator twists its SBUF words in place).
void twist_words(std::uint32_t* x) {
  // x[k+624] overwrites x[k]; x[k+1] is still the window's word and x[k+397] the window's (k < 227)
  // or already the new x[k-227]. The same order of writes as one loop over k with indices mod 624,
  // split where (k + 397) wraps so that each part is a plain loop the compiler vectorises (the
  // reads of the second part are 227 words behind its writes). Branch-free: the odd-y constant is
  // masked in (identical words).
  constexpr std::size_t kN = kMt19937Words, kM = 397;
  for (std::size_t k = 0; k < kN - kM; ++k) {
    const std::uint32_t y = (x[k] & 0x80000000u) | (x[k + 1] & 0x7fffffffu);
    x[k] = x[k + kM] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
  }
  for (std::size_t k = kN - kM; k < kN - 1; ++k) {
    const std::uint32_t y = (x[k] & 0x80000000u) | (x[k + 1] & 0x7fffffffu);
    x[k] = x[k + kM - kN] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
  }
  x[kN - 1] = next_word(x[kN - 1], x[0], x[kM - 1]);
}
}  // namespace


Mt19937Window mt19937_jump(const Mt19937Window& w, const Gf2Poly& g) {
  Mt19937Window out;
  if (mt19937_jump_clmul(w, g, out)) return out;  // the same words, ~20x faster where the ISA allows
  return mt19937_jump_horner(w, g);
}

Mt19937Window mt19937_recurrent_word0(const Mt19937Window& w) {
  // w = T u means w[0] = u[1] and w[623] ^ w[396] = (y >> 1) ^ (y odd ? 0x9908b0df : 0) with
  // y = u[0] & 0x80000000 | u[1] & 0x7fffffff: bit 31 of it is y's bit 0 (the constant's bit 31 is
  // set, y >> 1 has none), and its bits 0 .. 29, with the constant removed, are y's bits 1 .. 30.
  constexpr std::uint32_t kMag = 0x9908b0dfu;
  static_assert((kMag >> 31) == 1u, "the odd-y constant marks bit 31");
  Mt19937Window v = w;
  const std::uint32_t carried = w[623] ^ w[396];
  const std::uint32_t bit0 = carried >> 31;
  const std::uint32_t bits1_30 = ((carried ^ (bit0 != 0 ? kMag : 0u)) << 1) & 0x7ffffffeu;
  v[0] = (w[0] & 0x80000000u) | bits1_30 | bit0;
  return v;
}

void mt19937_set_up_streams(Mt19937Window* windows, std::size_t from, std::size_t to) {
  if (from < 1 || from > to || to > kMt19937Streams)  // from = 0 would wrap the batch head below
    throw InvalidArgument("trn::rand::mt19937_set_up_streams", "from, to", "need 1 <= from <= to <= 8192");
  for (std::size_t next = from; next < to;) {
    // Streams next .. last from their batch's first stream `head`. Jumps from stream 0's window as
    // the recurrence would have written it (mt19937_recurrent_word0): g(T) applies g_0 to the unread
    // bits of word 0, and the chain of single jumps this replaces applied x^(2^2048) mod phi, whose
    // g_0 is 0, where x^(j 2^2048) mod phi has g_0 = 1 for j = 3, 4. Every later head is the
    // recurrence's window already (a jump's).
    const std::size_t head = (next - 1) / kMt19937JumpBatch * kMt19937JumpBatch;
    const std::size_t last = std::min(head + kMt19937JumpBatch, to - 1);
    mt19937_jump_many(mt19937_recurrent_word0(windows[head]),
                      std::span<const Gf2Poly>(mt19937_stream_jump_powers()).subspan(next - head - 1, last + 1 - next),
                      windows + next);
    next = last + 1;
  }
}

void mt19937_jump_many(const Mt19937Window& w, std::span<const Gf2Poly> polys, Mt19937Window* out) {
  if (mt19937_jump_clmul_many(w, polys, out)) return;
  const Mt19937Window source = w;  // out may alias w
  for (std::size_t i = 0; i < polys.size(); ++i) out[i] = mt19937_jump_horner(source, polys[i]);
}

Mt19937Window mt19937_jump_horner(const Mt19937Window& w, const Gf2Poly& g) {
  // g(T) w by Haramoto et al.'s sliding-window Horner scheme with q = 8: g = sum_c h_c(x) x^(8c)
  // with deg h_c < 8, table P[h] = h(T) w for all 256 h (XORs of the windows T^i w = x[i .. i+623],
  // i < 8), then R <- T^8 R + P[h_c] from the top chunk down: 19937 / 8 table XORs of 624 words
  // instead of ~9968 window XORs. R is a circular buffer: logical word k is buf[(start + k) mod 624].
  Mt19937Window buf{};
  const int top = degree(g);
  if (top < 0) return buf;
  constexpr std::size_t kQ = 8;
  std::array<std::uint32_t, kMt19937Words + kQ> x{};
  std::copy(w.begin(), w.end(), x.begin());
  for (std::size_t k = 0; k < kQ; ++k) x[k + 624] = next_word(x[k], x[k + 1], x[k + 397]);
  thread_local std::vector<Mt19937Window> table(std::size_t{1} << kQ);  // reused: 160 KB per thread
  table[0].fill(0);
  for (std::size_t h = 1; h < table.size(); ++h) {
    const std::size_t i = static_cast<std::size_t>(std::countr_zero(h));
    const Mt19937Window& prev = table[h & (h - 1)];
    for (std::size_t k = 0; k < kMt19937Words; ++k) table[h][k] = prev[k] ^ x[i + k];
  }
  std::size_t start = 0;
  bool zero = true;
  for (std::size_t c = static_cast<std::size_t>(top) / kQ + 1; c-- > 0;) {
    if (!zero)
      for (std::size_t k = 0; k < kQ; ++k) {  // R <- T^q R
        buf[start] = next_word(buf[start], buf[(start + 1) % 624], buf[(start + 397) % 624]);
        start = (start + 1) % 624;
      }
    const std::size_t pos = kQ * c, wi = pos / 64, b = pos % 64;  // chunks never straddle a word
    const auto h = static_cast<std::size_t>((g[wi] >> b) & ((1u << kQ) - 1));
    if (h == 0) continue;
    const Mt19937Window& add = table[h];
    const std::size_t first = 624 - start;  // logical 0 .. first - 1 live at buf[start ..]
    host::xor_words(buf.data() + start, add.data(), first);  // the core's vector path (host_loops.hpp)
    host::xor_words(buf.data(), add.data() + first, 624 - first);
    zero = false;
  }
  Mt19937Window out{};
  for (std::size_t k = 0; k < 624; ++k) out[k] = buf[(start + k) % 624];
  return out;
}

namespace {
using BlockPositionRow = std::array<int, 8>;
const std::array<BlockPositionRow, kMt19937RowsPerBlock>& block_position_table();
}  // namespace

int mt19937_block_position(int row, int column) {
  return block_position_table()[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
}

namespace {
const std::array<BlockPositionRow, kMt19937RowsPerBlock>& block_position_table() {
  // Observed on cuRAND 10.4 (probe_mt19937_ordering.cpp): row 0 holds block positions 0, 113,
  // 170, 283, 340, 397, 510, 567; the other 616 positions, in increasing order, fill rows 1 .. 77
  // in 11 groups of 7 rows x 8 columns, column-major inside a group (element e of group g is
  // row 1 + 7g + e mod 7, column e div 7).
  static const std::array<std::array<int, 8>, kMt19937RowsPerBlock> table = [] {
    constexpr std::array<int, 8> kRow0 = {0, 113, 170, 283, 340, 397, 510, 567};
    std::array<std::array<int, 8>, kMt19937RowsPerBlock> t{};
    t[0] = kRow0;
    int e = 0;
    for (int q = 0; q < kMt19937Words; ++q) {
      if (std::find(kRow0.begin(), kRow0.end(), q) != kRow0.end()) continue;
      const int g = e / 56, in = e % 56;
      t[static_cast<std::size_t>(1 + 7 * g + in % 7)][static_cast<std::size_t>(in / 7)] = q;
      ++e;
    }
    return t;
  }();
  return table;
}
}  // namespace

namespace {
// The 20 MB window arrays (a seed's initial windows, a generator's windows) on transparent huge
// pages (core's allocate_host_bytes: 2 MiB aligned, madvise): in 4 KiB pages their first touch
// was ~10 k page faults, ~11 % of a process's first MT19937 call (perf). Host speed only: the same
// words; the arrays are filled before they are read.
// kZeroFill false: resize leaves the new windows uninitialised (the seed's windows, written by the
// jumps right after; a generator's windows keep resize's zeros: the kernel DMAs them in).
template <class T, bool kZeroFill = true>
struct HugePageAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = HugePageAllocator<U, kZeroFill>;
  };
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U, kZeroFill>&) noexcept {}
  T* allocate(std::size_t n) { return reinterpret_cast<T*>(detail::allocate_host_bytes(n * sizeof(T), false)); }
  void deallocate(T* p, std::size_t) noexcept { detail::HostFree{}(reinterpret_cast<std::byte*>(p)); }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0 && !kZeroFill)
      ::new (static_cast<void*>(p)) U;  // default-initialised: no zero pass over 20 MB
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U, kZeroFill>&) const noexcept { return true; }
};
using WindowVector = std::vector<Mt19937Window, HugePageAllocator<Mt19937Window>>;
using SeedWindowVector = std::vector<Mt19937Window, HugePageAllocator<Mt19937Window, false>>;

// A gone generator's window array, kept for the next generator (session 25): its 20 MB are touched
// already, where a fresh array's first touch cost ~5-15 ms of page faults and clearing per generator on
// this project's VM (perf: clear_page_erms under Streams::prepare). One array is kept (emptied: size 0,
// capacity kept); every window is written before it is read, as in a fresh array. Host speed only.
// Never destroyed (a generator in a static object may outlive any static here).
struct WindowRecycler {
  std::mutex mutex;
  WindowVector kept;
};
WindowRecycler& window_recycler() {
  static auto* recycler = new WindowRecycler;
  return *recycler;
}
WindowVector take_recycled_window() {
  WindowRecycler& r = window_recycler();
  const std::lock_guard<std::mutex> lock(r.mutex);
  WindowVector v = std::move(r.kept);
  r.kept = WindowVector();
  v.clear();
  return v;
}
void recycle_window(WindowVector&& v) noexcept {
  WindowRecycler& r = window_recycler();
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (v.capacity() > r.kept.capacity()) std::swap(r.kept, v);  // the larger array is kept; v's is freed
}
}  // namespace

// The 8192 stream states: stream t's window holds block `block[t]` (its 624 raw words after
// block + 1 twists; -1: the initial window x[tJ .. tJ+623]). Streams are initialised lazily in
// order: streams 0 .. ready - 1 are set up.
struct Mt19937Generator::Streams {
  WindowVector window;
  std::vector<std::int64_t> block;
  std::uint32_t ready = 0;
  std::uint32_t seed32 = 0;  // the seed's low 32 bits: all init_genrand uses

  explicit Streams(std::uint64_t seed)
      : block(kMt19937Streams, -1), seed32(static_cast<std::uint32_t>(seed)) {}
  ~Streams() { recycle_window(std::move(window)); }
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;

  // Sets up (by jump ahead) every stream up to t. The initial windows depend on lo32(seed) only:
  // stream 8h + j (j = 1 .. 8) is stream 8h advanced by x^(j 2^2048) mod phi (mt19937_jump_many:
  // stream 8h's twist extension and the generator side of its middle products once for the eight,
  // ~4 us of host time per stream instead of ~6 for a chain of single jumps; ~150 us with the Horner
  // scheme). They are kept per seed (InitialWindows below), so a second generator of the same seed
  // copies them (20 MB) instead of recomputing them. Host set-up outside the trace, as before; the
  // same words (the same linear maps of stream 0).
  void prepare(std::uint32_t t) {
    if (ready > t) return;
    if (!initial) initial = initial_windows(seed32);  // held while this generator lives (no recompute)
    const std::shared_ptr<InitialWindows>& cached = initial;
    const std::lock_guard<std::mutex> lock(cached->mutex);
    SeedWindowVector& have = cached->windows;
    if (have.empty()) have.push_back(mt19937_init_genrand(seed32));
    if (have.size() <= t) {
      const std::size_t from = have.size();
      have.resize(t + 1);  // capacity 8192: no reallocation
      try {
        mt19937_set_up_streams(have.data(), from, t + 1);
      } catch (...) {
        have.resize(from);  // no unwritten window stays kept
        throw;
      }
    }
    // `window` grows with the streams set up (a generator's 20 MB are not zeroed and then
    // overwritten); the kernel extends it to all 8192 with zeros (window_all).
    const auto first = cached->windows.begin() + ready, last = cached->windows.begin() + t + 1;
    // A gone generator's array if there is one (taken here, not at construction: set_seed builds the
    // new Streams before the old one is gone and has recycled its array).
    if (window.capacity() < kMt19937Streams) {
      WindowVector recycled = take_recycled_window();
      if (recycled.capacity() >= kMt19937Streams && window.empty()) window = std::move(recycled);
      else recycle_window(std::move(recycled));
    }
    if (window.capacity() < kMt19937Streams) window.reserve(kMt19937Streams);
    if (window.size() == ready) {
      window.insert(window.end(), first, last);
    } else {
      if (window.size() < t + 1) window.resize(t + 1);
      std::copy(first, last, window.begin() + ready);
    }
    ready = t + 1;
  }

  // The initial windows of streams 0 .. windows.size() - 1 of one seed.
  struct InitialWindows {
    std::mutex mutex;
    SeedWindowVector windows;
  };
  std::shared_ptr<InitialWindows> initial;  // this seed's, from initial_windows at the first prepare
  // The process's windows for lo32(seed): the most recently used seeds' are kept after their
  // generators are gone (up to 20 MB each; a live generator holds its own seed's, `initial`). A
  // seed's 8192 windows cost ~0.07 s of jumps with mt19937_jump_clmul: one seed is kept there; ~1.2 s
  // with the Horner scheme: two seeds there (40 MB), so that alternating seeds does not redo them.
  static std::shared_ptr<InitialWindows> initial_windows(std::uint32_t seed32) {
    static std::mutex mutex;
    static std::array<std::pair<std::uint32_t, std::shared_ptr<InitialWindows>>, 2> recent;
    static const std::size_t kept = mt19937_jump_clmul_available() ? 1 : 2;
    const std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = 0; i < kept; ++i)
      if (recent[i].second && recent[i].first == seed32) {
        std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(i), recent.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        return recent[0].second;
      }
    auto fresh = std::make_shared<InitialWindows>();
    fresh->windows.reserve(kMt19937Streams);
    std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(kept) - 1,
                recent.begin() + static_cast<std::ptrdiff_t>(kept));  // drop the least recent
    recent[0] = {seed32, fresh};
    return fresh;
  }
  // All 8192 windows (the kernel's SBUF image): the streams not set up yet are zeros, never read.
  Mt19937Window* window_all() {
    window.resize(kMt19937Streams);
    return window.data();
  }
  // Stream t's window at block b (b >= its current block).
  const Mt19937Window& at(std::uint32_t t, std::int64_t b) {
    prepare(t);
    while (block[t] < b) {
      mt19937_twist(window[t]);
      ++block[t];
    }
    return window[t];
  }
};

Mt19937Generator::Mt19937Generator(bool engines, const EngineConfig& cfg)
    : streams_(std::make_unique<Streams>(0)), engines_(engines), cfg_(cfg) {}

Profile Mt19937Generator::last_profile() const { return kernel_profile(last_trace_, cfg_.target); }
Mt19937Generator::~Mt19937Generator() = default;
Mt19937Generator::Mt19937Generator(Mt19937Generator&&) noexcept = default;
Mt19937Generator& Mt19937Generator::operator=(Mt19937Generator&&) noexcept = default;

void Mt19937Generator::set_seed(std::uint64_t seed) {
  if (seed == seed_) return;  // cuRAND: the same seed changes nothing (observed)
  seed_ = seed;
  position_ = 0;  // a new seed restarts at word 0 (observed; unlike the other generators)
  streams_ = std::make_unique<Streams>(seed);
}

void Mt19937Generator::set_offset(std::uint64_t offset) {
  if (offset < position_) streams_ = std::make_unique<Streams>(seed_);
  position_ = offset;
}

void Mt19937Generator::words(std::uint32_t* out, std::size_t n, bool uniform) {
  if (engines_) return words_on_engines(out, n, uniform);
  last_trace_.reset();
  Streams& s = *streams_;
  std::uint64_t p = position_;
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t row = p >> 16;
    const auto t = static_cast<std::uint32_t>((p >> 3) & (kMt19937Streams - 1));
    const auto b = static_cast<std::int64_t>(row / kMt19937RowsPerBlock);
    const auto r = static_cast<int>(row % kMt19937RowsPerBlock);
    const Mt19937Window& w = s.at(t, b);
    // The rest of this stream's 8 columns in the row.
    for (auto c = static_cast<int>(p & 7); c < 8 && i < n; ++c, ++i, ++p)
      out[i] = mt19937_temper(w[static_cast<std::size_t>(mt19937_block_position(r, c))]);
  }
  position_ = p;
}

namespace {
// The operator's words of one stream in one row (mt19937_rows below): dst[c] = the tempered word at
// block position positions[c] of window w (c < 8), or the bits of its float uniform. The scalar form
// and an AVX-512 one (eight loads, the temper on 8 lanes, the uniform as x 2^-32 + 2^-33 in fp64 -
// exact: 33 significant bits - rounded once to fp32 by VCVTPD2PS under the default rounding, as the
// scalar cast): the same integer operations and the same single rounding, so the same bits.
void temper_row_scalar(const std::uint32_t* w, const int* positions, bool uniform, std::uint32_t* dst) {
  for (int c = 0; c < 8; ++c) {
    const std::uint32_t x = mt19937_temper(w[positions[c]]);
    dst[c] = uniform ? std::bit_cast<std::uint32_t>(mt19937_uniform(x)) : x;
  }
}
__attribute__((target("avx512f,avx512vl"))) void temper_row_avx512(const std::uint32_t* w, const int* positions, bool uniform,
                                                                   std::uint32_t* dst) {
  // Eight scalar loads, not VPGATHERDD (measured several times slower on this project's VM).
  __m256i y = _mm256_setr_epi32(static_cast<int>(w[positions[0]]), static_cast<int>(w[positions[1]]), static_cast<int>(w[positions[2]]),
                                static_cast<int>(w[positions[3]]), static_cast<int>(w[positions[4]]), static_cast<int>(w[positions[5]]),
                                static_cast<int>(w[positions[6]]), static_cast<int>(w[positions[7]]));
  y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 11));
  y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 7), _mm256_set1_epi32(static_cast<int>(0x9d2c5680u))));
  y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 15), _mm256_set1_epi32(static_cast<int>(0xefc60000u))));
  y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 18));
  if (uniform) {
    const __m512d v = _mm512_add_pd(_mm512_mul_pd(_mm512_cvtepu32_pd(y), _mm512_set1_pd(0x1p-32)), _mm512_set1_pd(0x1p-33));
    y = _mm256_castps_si256(_mm512_cvtpd_ps(v));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), y);
}

constexpr double kMtGpsimdOpsPerTwistWord = 9.0;
constexpr double kMtGpsimdOpsPerTemperWord = 12.0;
constexpr double kMtGpsimdOpsPerUniform = 16.0;
constexpr std::int64_t kMtRowsPerTile = 4;
}  // namespace

void Mt19937Generator::words_on_engines(std::uint32_t* out, std::size_t n, bool uniform) {
  if (n == 0) return;
  Streams& s = *streams_;
  const HardwareSpec& hw = hardware_spec(cfg_.target);
  if (kMt19937Streams % static_cast<std::uint32_t>(hw.pmax) != 0)
    throw NotSupportedError("Mt19937Generator", "a generation whose partitions do not divide 8192 streams", hw.name);
  const std::int64_t per_partition = kMt19937Streams / hw.pmax;  // streams per partition
  const std::int64_t row_part = per_partition * 8;                // a row's words per partition
  const std::uint64_t p0 = position_, p1 = position_ + n;
  // The jump ahead of every stream the call touches (host, lazily, as the host path).
  const std::uint64_t g0 = p0 >> 3, g1 = (p1 - 1) >> 3;
  const bool all = g1 - g0 >= kMt19937Streams - 1 || (g0 % kMt19937Streams) > (g1 % kMt19937Streams);
  s.prepare(all ? kMt19937Streams - 1 : static_cast<std::uint32_t>(g1 % kMt19937Streams));
  // The block numbers as SBUF words (block + 1 >= 0), and a copy for the declared twist counts.
  std::vector<std::uint32_t> blocks(kMt19937Streams);
  for (std::size_t t = 0; t < blocks.size(); ++t) blocks[t] = static_cast<std::uint32_t>(s.block[t] + 1);
  std::vector<std::uint32_t> planned = blocks;
  const HbmTensor win_hbm = HbmTensor::wrap(s.window_all(), DType::u32, {hw.pmax, per_partition * kMt19937Words});
  const HbmTensor blk_hbm = HbmTensor::wrap(blocks.data(), DType::u32, {hw.pmax, per_partition});
  const std::uint64_t row_first = p0 >> 16, row_last = (p1 - 1) >> 16;
  const std::uint64_t tiles = (row_last - row_first) / kMtRowsPerTile + 1;
  const DType out_dt = uniform ? DType::f32 : DType::u32;

  // The stream states are sequential in the rows: one program.
  const LaunchConfig lc = engine_launch_config(cfg_, 1, true);
  LaunchResult result = launch(lc, [&](NeuronCore& nc) {
    const std::int32_t P = nc.hw().pmax;
    OnChipMemory& sbuf = nc.sbuf();
    const Tile win = sbuf.alloc(DType::u32, P, {per_partition * kMt19937Words}, "mt19937_windows");
    const Tile blk = sbuf.alloc(DType::u32, P, {per_partition}, "mt19937_blocks");
    const Tile rows_tile = sbuf.alloc(DType::u32, P, {kMtRowsPerTile * row_part}, "mt19937_rows");
    nc.dma_copy(win, win_hbm.tile(0, P, 0, per_partition * kMt19937Words));
    nc.dma_copy(blk, blk_hbm.tile(0, P, 0, per_partition));
    for (std::uint64_t k = 0; k < tiles; ++k) {
      const std::uint64_t r0 = row_first + k * kMtRowsPerTile;
      const std::uint64_t r1 = std::min<std::uint64_t>(r0 + kMtRowsPerTile, row_last + 1);
      // Declared cost: the twists these rows need (from the planned block numbers) and one
      // tempered word per output word of the busiest partition (a row's 512 at most).
      double twists = 0;
      for (std::uint64_t r = r0; r < r1; ++r) {
        const auto b = static_cast<std::uint32_t>(r / kMt19937RowsPerBlock + 1);
        const std::uint64_t a = std::max(p0, r << 16), e = std::min(p1, (r + 1) << 16);
        for (std::uint64_t g = a >> 3; g <= (e - 1) >> 3; ++g) {
          auto& pb = planned[static_cast<std::size_t>(g % kMt19937Streams)];
          if (pb < b) {
            twists += b - pb;
            pb = b;
          }
        }
      }
      const double words_per_partition = static_cast<double>((r1 - r0) * static_cast<std::uint64_t>(row_part));
      const double cycles = hw.gpsimd_start + kMtGpsimdOpsPerTwistWord * kMt19937Words * twists / P +
                            (kMtGpsimdOpsPerTemperWord + (uniform ? kMtGpsimdOpsPerUniform : 0.0)) * words_per_partition;
      const Tile outputs[] = {rows_tile, win, blk};
      const Tile inputs[] = {win, blk};
      nc.custom_op("mt19937_rows", outputs, inputs, cycles, [&, r0, r1](const CustomOpContext& ctx) {
        const Tile &o = ctx.outputs[0], &w = ctx.outputs[1], &bt = ctx.outputs[2];
        static const bool avx512 = host_simd_available(HostSimd::avx512);
        const auto& position_table = block_position_table();
        // The 64-byte lines of a window that these rows read (the same in every stream), prefetched
        // kAhead streams ahead: each stream's words are a few lines 2.5 KB from the previous
        // stream's, and the 20 MB tile is swept once per tile, so the loads missed (perf: most of
        // the operator's time waited on them). Host speed only.
        constexpr std::int64_t kAhead = 8, kWordsPerLine = 16;
        std::array<bool, kMt19937Words / kWordsPerLine + 1> line_read{};
        for (std::uint64_t r = r0; r < r1; ++r)
          for (const int pos : position_table[static_cast<std::size_t>(r % kMt19937RowsPerBlock)])
            line_read[static_cast<std::size_t>(pos / kWordsPerLine)] = true;
        std::array<std::int32_t, kMt19937Words / kWordsPerLine + 1> lines{};
        std::size_t n_lines = 0;
        for (std::size_t l = 0; l < line_read.size(); ++l)
          if (line_read[l]) lines[n_lines++] = static_cast<std::int32_t>(l * kWordsPerLine);
        for (std::int32_t j = 0; j < o.partitions; ++j) {
          auto* wins = reinterpret_cast<std::uint32_t*>(w.at(j, 0));
          auto* bl = reinterpret_cast<std::uint32_t*>(bt.at(j, 0));
          auto* dst = reinterpret_cast<std::uint32_t*>(o.at(j, 0));
          // Stream by stream, then the tile's rows: a stream's window is read once per tile (rows
          // of one 7-row group temper neighbouring words), not once per row; each stream still
          // twists before the row that needs it, so the words are those of row-major order.
          for (std::int64_t sidx = 0; sidx < per_partition; ++sidx) {
            std::uint32_t* wv = wins + sidx * kMt19937Words;
            if (sidx + kAhead < per_partition)
              for (std::size_t l = 0; l < n_lines; ++l) __builtin_prefetch(wv + kAhead * kMt19937Words + lines[l]);
            for (std::uint64_t r = r0; r < r1; ++r) {
              const auto b = static_cast<std::uint32_t>(r / kMt19937RowsPerBlock + 1);
              const auto rr = static_cast<int>(r % kMt19937RowsPerBlock);
              const std::uint64_t q = (r << 16) + static_cast<std::uint64_t>((j * per_partition + sidx) * 8);
              if (q + 8 <= p0 || q >= p1) continue;  // no word of this stream in the call
              // The rows enter a new block: twist the SBUF words in place (no copy out and back).
              for (; bl[sidx] < b; ++bl[sidx]) twist_words(wv);
              const int* positions = position_table[static_cast<std::size_t>(rr)].data();
              std::uint32_t* row_dst = dst + static_cast<std::int64_t>(r - r0) * row_part + sidx * 8;
              if (avx512)
                temper_row_avx512(wv, positions, uniform, row_dst);
              else
                temper_row_scalar(wv, positions, uniform, row_dst);
            }
          }
        }
      });
      // DMA: each row's words inside [p0, p1), in partition runs (a partial first and last partition).
      for (std::uint64_t r = r0; r < r1; ++r) {
        const std::uint64_t a = std::max(p0, r << 16) - (r << 16), e = std::min(p1, (r + 1) << 16) - (r << 16);
        const Tile row = rows_tile.cols(static_cast<std::int64_t>(r - r0) * row_part, row_part).bitcast(out_dt);
        dma_row_to_output(nc, row, static_cast<std::uint64_t>(row_part), r << 16, a, e, p0, out, out_dt);
      }
    }
    nc.dma_copy(win_hbm.tile(0, P, 0, per_partition * kMt19937Words), win);
    nc.dma_copy(blk_hbm.tile(0, P, 0, per_partition), blk);
  });
  if (!cfg_.timing_only)
    for (std::size_t t = 0; t < blocks.size(); ++t) s.block[t] = static_cast<std::int64_t>(blocks[t]) - 1;
  last_trace_ = std::move(result.trace);
  position_ = p1;
}

void Mt19937Generator::uniform(std::span<float> out) {
  if (!engines_) return fill(out, kHostUniform, mt19937_uniform);  // host path: no trace, nothing recorded
  // The kernel's VectorE uniforms straight into out (its DMAs write the float bits).
  words(reinterpret_cast<std::uint32_t*>(out.data()), out.size(), true);
}
void Mt19937Generator::uniform_double(std::span<double> out) { fill(out, kHostUniformDouble, mt19937_uniform_double); }
void Mt19937Generator::normal_double(std::span<double> out, double mean, double stddev) {
  fill(out, kHostNormal, [&](std::uint32_t x) { return normal_affine_double(sobol_normal_icdf_double(x), mean, stddev); });
}
void Mt19937Generator::poisson(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError(kWho, "lambda",
                     "poisson needs 0 < lambda <= 400000 (cuRAND's range), got " + std::to_string(lambda));
  if (lambda < kCurandPoissonNormalThreshold) {
    if (!table_ || table_->lambda != lambda) table_ = std::make_shared<const PoissonTable>(build_poisson_table(lambda));
    const PoissonTable& t = *table_;
    fill(out, kHostPoisson, [&](std::uint32_t x) { return t.sample(x); });
  } else {
    // In fp32 throughout (observed: 65536 of 65536 equal at lambda 3000.5 and 1e5, against 65526
    // and 65288 for the fp64 formula of the other generators): (unsigned)(sqrtf(l) z + l + 0.5f).
    const auto lf = static_cast<float>(lambda);
    const float root = std::sqrt(lf);
    fill(out, kHostPoisson, [&](std::uint32_t x) {
      const float v = root * sobol_normal_icdf(x) + lf + 0.5f;  // z >= -6.7, so v > 0 from l = 2000
      return v >= 4294967296.0f ? 0xffffffffu : static_cast<std::uint32_t>(v);
    });
  }
}

template class WordGenerator<Mt19937Generator>;

}  // namespace trn::rand
