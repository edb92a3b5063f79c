// Shared helpers of the trnrand suites: the cuRAND reference-file reader, ulp distances, and
// statistical reference functions written independently of the library (long double, textbook
// formulas: Numerical Recipes' incomplete gamma, the Kolmogorov series).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace trnrand_test {

inline std::string data_path(const std::string& name) { return std::string(TRNRAND_TEST_DATA) + "/" + name; }

// ---- cuRAND reference file (data/curand_reference.txt, see data/gen_curand_reference.cpp) -----------

struct RefCall {
  std::string type;        // u32, uniform, uniform_double, normal, ... poisson
  std::uint64_t seed = 0;  // generator state before the call
  std::uint64_t offset = 0;
  double p0 = 0, p1 = 0;            // mean, stddev | lambda
  std::size_t n = 0;                // values the call generated
  std::size_t advance = 0;          // how far the call moves the generator's offset (n, n / 2 or n / D: below)
  std::uint32_t dimensions = 1;     // SOBOL32: the generator's dimensions (a `dimensions D` line)
  std::size_t stride = 1;           // bits holds the values at indices 0, stride, 2 stride, ...
  std::vector<std::uint64_t> bits;  // values: u32 / float bits, or double bits
  std::string where;                // "line N" for messages
  bool reset = false;               // a `generator` or `offset` line precedes the call (SetGeneratorOffset)
  bool reseed = false;              // a `reseed S` line precedes it (SetPseudoRandomGeneratorSeed, offset kept)
  int generator_index = 0;          // how many `generator` lines precede the call (1 for the first generator)
  int ordering = 0;                 // an `ordering O` line after the generator line (cuRAND's value), else 0
  bool has_fnv = false;             // curand_reference_large.txt: fnv and the last value n - 1 are stored
  std::uint64_t fnv = 0;            // FNV-1a 64 of all n values' bytes

  // The indices whose values `bits` holds.
  std::vector<std::size_t> sample_indices() const {
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < n; i += stride) idx.push_back(i);
    if (has_fnv && n > 0 && (n - 1) % stride != 0) idx.push_back(n - 1);
    return idx;
  }
};

// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3; Fowler, Noll, Vo) of a byte range,
// as data/gen_curand_reference_large.cpp computes it.
inline std::uint64_t fnv1a64(const void* data, std::size_t bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// A `layout xorwow` line: the offset counts XORWOW slots, one per Box-Muller pair of the normal
// types (trn/rand/xorwow.hpp); otherwise one per value.
// A `layout sobol` line: quasi-random, the offset counts points (n / dimensions per call).
struct RefFile {
  bool pair_slots = false;
  bool quasi = false;
  std::uint64_t direction_vectors32_fnv = 0;  // `direction_vectors32_fnv H`
  std::uint64_t direction_vectors64_fnv = 0;  // `direction_vectors64_fnv H` (SOBOL64)
  std::vector<RefCall> calls;
  std::vector<std::pair<std::string, int>> statuses;
};

// Types stored as 8-byte values (doubles and SOBOL64's u64 words).
inline bool is_double_type(const std::string& t) {
  return t == "uniform_double" || t == "normal_double" || t == "log_normal_double" || t == "u64";
}

inline RefFile read_reference(const std::string& path) {
  RefFile f;
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "cannot open " << path;
    return f;
  }
  std::string line;
  std::uint64_t seed = 0, offset = 0;
  bool reset = false, reseed = false;
  std::uint32_t dimensions = 1;
  int generators = 0;
  int ordering = 0;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    std::string tag;
    is >> tag;
    if (tag == "generator") {
      std::string s;
      is >> s >> offset;
      seed = std::stoull(s, nullptr, 16);
      reset = true;
      dimensions = 1;
      ordering = 0;
      ++generators;
    } else if (tag == "layout") {
      std::string what;
      is >> what;
      f.pair_slots = what == "xorwow";
      f.quasi = what == "sobol";
    } else if (tag == "ordering") {
      is >> ordering;
    } else if (tag == "dimensions") {
      is >> dimensions;
    } else if (tag == "direction_vectors32_fnv" || tag == "direction_vectors64_fnv") {
      std::string h;
      is >> h;
      (tag == "direction_vectors32_fnv" ? f.direction_vectors32_fnv : f.direction_vectors64_fnv) =
          std::stoull(h, nullptr, 16);
    } else if (tag == "reseed") {
      std::string sd;
      is >> sd;
      seed = std::stoull(sd, nullptr, 0);
      reseed = true;
    } else if (tag == "offset") {
      is >> offset;
      reset = true;
    } else if (tag == "status") {
      std::string what;
      int code = 0;
      is >> what >> code;
      f.statuses.emplace_back(what, code);
    } else if (tag == "call") {
      RefCall c;
      is >> c.type >> c.n;
      if (c.type == "poisson")
        is >> c.p0;
      else if (c.type != "u32" && c.type != "u64" && c.type != "uniform" && c.type != "uniform_double")
        is >> c.p0 >> c.p1;
      std::string extra;
      while (is >> extra) {
        if (extra.rfind("stride=", 0) == 0) c.stride = std::stoull(extra.substr(7));
        if (extra.rfind("fnv=", 0) == 0) {
          c.fnv = std::stoull(extra.substr(4), nullptr, 16);
          c.has_fnv = true;
        }
      }
      c.seed = seed;
      c.offset = offset;
      c.reset = reset;
      c.reseed = reseed;
      c.generator_index = generators;
      c.ordering = ordering;
      reset = false;
      reseed = false;
      c.where = "line " + std::to_string(lineno);
      const std::size_t stored = c.sample_indices().size();
      while (c.bits.size() < stored && std::getline(in, line)) {
        ++lineno;
        std::istringstream vs(line);
        std::string v;
        while (vs >> v) c.bits.push_back(std::stoull(v, nullptr, 16));
      }
      const bool pairs = c.type == "normal" || c.type == "normal_double" || c.type == "log_normal" ||
                         c.type == "log_normal_double";
      c.dimensions = dimensions;
      c.advance = f.quasi ? c.n / dimensions : f.pair_slots && pairs ? c.n / 2 : c.n;
      offset += c.advance;  // the generator's position after the call
      f.calls.push_back(std::move(c));
    }
  }
  return f;
}

// The stored reference file `name` (tests/trnrand/data), read once per process.
inline const RefFile& stored_reference(const std::string& name) {
  static std::map<std::string, RefFile> files;
  auto it = files.find(name);
  if (it == files.end()) it = files.emplace(name, read_reference(data_path(name))).first;
  return it->second;
}

// The status libcurand returned for the recorded call `what` (a test failure when none is stored).
inline int recorded_status(const RefFile& f, const std::string& what) {
  for (const auto& [w, code] : f.statuses)
    if (w == what) return code;
  ADD_FAILURE() << "no status record " << what;
  return -1;
}

// ---- ulp distances ------------------------------------------------------------------------------

// Distance in representable values between two finite floats (0 for equal, across zero too).
inline std::int64_t ulp_distance(float a, float b) {
  auto ord = [](float x) {
    const auto i = std::bit_cast<std::int32_t>(x);
    return i < 0 ? -static_cast<std::int64_t>(i & 0x7fffffff) : static_cast<std::int64_t>(i);
  };
  return std::llabs(ord(a) - ord(b));
}
inline std::int64_t ulp_distance(double a, double b) {
  auto ord = [](double x) {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? -(i & 0x7fffffffffffffffLL) : i;
  };
  return std::llabs(ord(a) - ord(b));
}

// ---- statistics (independent references) -----------------------------------------------------------

// Regularized upper incomplete gamma Q(a, x) (Numerical Recipes 6.2: series for x < a + 1,
// continued fraction otherwise), in long double.
inline long double gamma_q(long double a, long double x) {
  if (x <= 0) return 1.0L;
  const long double gln = std::lgamma(a);
  if (x < a + 1) {
    long double ap = a, sum = 1.0L / a, del = sum;
    for (int n = 0; n < 100000; ++n) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (std::fabs(del) < std::fabs(sum) * 1e-18L) break;
    }
    return 1.0L - sum * std::exp(-x + a * std::log(x) - gln);
  }
  long double b = x + 1 - a, c = 1.0L / 1e-300L, d = 1.0L / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const long double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < 1e-300L) d = 1e-300L;
    c = b + an / c;
    if (std::fabs(c) < 1e-300L) c = 1e-300L;
    d = 1.0L / d;
    const long double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0L) < 1e-18L) break;
  }
  return std::exp(-x + a * std::log(x) - gln) * h;
}
// P(chi-square with dof degrees of freedom >= stat).
inline double chi_square_p_value(double stat, int dof) { return static_cast<double>(gamma_q(dof / 2.0L, stat / 2.0L)); }

// Kolmogorov: P(sqrt(n) D > t) ~ 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 t^2), with Stephens' small-n
// correction t = (sqrt(n) + 0.12 + 0.11 / sqrt(n)) D.
inline double ks_p_value(double d, std::size_t n) {
  const long double sn = std::sqrt(static_cast<long double>(n));
  const long double t = (sn + 0.12L + 0.11L / sn) * d;
  if (t < 0.3L) return 1.0;
  long double sum = 0;
  for (int k = 1; k < 200; ++k) {
    const long double term = std::exp(-2.0L * k * k * t * t);
    sum += (k % 2 == 1 ? 2.0L : -2.0L) * term;
    if (term < 1e-20L) break;
  }
  return static_cast<double>(std::clamp(sum, 0.0L, 1.0L));
}

// Kolmogorov–Smirnov statistic D of a sample against a continuous CDF.
template <class T, class Cdf>
double ks_statistic(std::vector<T> x, Cdf&& cdf) {
  std::sort(x.begin(), x.end());
  const long double n = static_cast<long double>(x.size());
  long double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double f = cdf(static_cast<long double>(x[i]));
    d = std::max({d, (i + 1) / n - f, f - i / n});
  }
  return static_cast<double>(d);
}

inline long double normal_cdf(long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); }

// Chi-square of observed counts against expected counts, pooling adjacent bins until each expected
// count is >= min_expected. Returns (statistic, degrees of freedom).
inline std::pair<double, int> chi_square(const std::vector<double>& observed, const std::vector<double>& expected,
                                         double min_expected = 10.0) {
  std::vector<std::pair<double, double>> bins;  // (observed, expected)
  double o = 0, e = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    o += observed[i];
    e += expected[i];
    if (e >= min_expected) {
      bins.emplace_back(o, e);
      o = e = 0;
    }
  }
  if (!bins.empty()) {  // a small leftover tail joins the last bin
    bins.back().first += o;
    bins.back().second += e;
  }
  double stat = 0;
  for (const auto& [ob, ex] : bins) stat += (ob - ex) * (ob - ex) / ex;
  return {stat, static_cast<int>(bins.size()) - 1};
}

// Poisson pmf in long double.
inline long double poisson_pmf(long double lambda, long double k) {
  return std::exp(k * std::log(lambda) - lambda - std::lgamma(k + 1));
}

}  // namespace trnrand_test
