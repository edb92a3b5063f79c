// SOBOL64 (cuRAND's QUASI_SOBOL64 = 203) against cuRAND's host generator, from the stored reference
// data/curand_reference_sobol64.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp sobol64):
// 1, 3, 100, 20000, 7 and 5 dimensions at offsets 0, 5, 1000003, 0, 2^32 - 6 and 2^64 - 16 (across
// the 2^64-point period), every type cuRAND's SOBOL64 supports in turn, 2^22 words of 4
// dimensions, the FNV-1a hash of cuRAND's 20000 x 64 direction vectors, statuses. 64-bit words and
// uniform outputs bit-exact (hashes of all values); the inverse-CDF normals within the bounds of
// curand_replay.hpp. Both paths (host; the sobol_gray_xor kernel with one 32-bit half per partition).
#include <vector>

#include "curand_replay.hpp"
#include "sobol_paths.hpp"
#include "trn/rand/sobol.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Sobol64Generator;

const trnrand_test::RefFile& reference_sobol64() { return trnrand_test::stored_reference("curand_reference_sobol64.txt"); }

int status_of(const std::string& what) { return trnrand_test::recorded_status(reference_sobol64(), what); }

// Bit-exact types exact everywhere; float normals identical (the high 32 bits through SOBOL32's
// icdf); fp64 normals within curand_replay's double_close (asserted per element by the replay).
void expect_sobol64_bounds(const std::map<std::string, trnrand_test::Tally>& tally) {
  for (const char* exact : {"u64", "uniform", "uniform_double"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
  }
  ASSERT_TRUE(tally.count("normal"));
  EXPECT_EQ(tally.at("normal").exact, tally.at("normal").values);
  EXPECT_LE(tally.at("log_normal").max_ulp, 1);
  EXPECT_LE(tally.at("poisson").max_ulp, 6);  // the inversion from lambda 2000 (trn/rand/sobol.cpp)
}

}  // namespace

TEST(TrnrandSobol64, MatchesStoredCurandVectors) {
  const auto& f = reference_sobol64();
  ASSERT_TRUE(f.quasi);
  ASSERT_GE(f.calls.size(), 50u);
  const auto tally = trnrand_test::replay([] { return Sobol64Generator(); }, true, f, 1, false);
  trnrand_test::report("sobol64", tally);
  expect_sobol64_bounds(tally);
}

TEST(TrnrandSobol64, EnginePathMatchesStoredCurandVectors) {
  const auto tally = trnrand_test::replay([] { return Sobol64Generator(true); }, true, reference_sobol64(), 1, false);
  trnrand_test::report("sobol64 engines", tally);
  expect_sobol64_bounds(tally);
}

TEST(TrnrandSobol64, EnginePathEqualsHostPathAndRecordsAProfile) {
  // Three programs of 64, 64 and 22 dimensions, across the 2^64 wrap.
  trnrand_test::expect_sobol_engines_equal_host<std::uint64_t>(150, 0xfffffffffffffe00ull);
}

TEST(TrnrandSobol64, DirectionVectorsAreJoeKuosAsCurandShipsThem) {
  const auto* v = trn::rand::sobol_direction_vectors64();
  const auto* v32 = trn::rand::sobol_direction_vectors32();
  for (unsigned b = 0; b < 64; ++b) EXPECT_EQ(v[0][b], std::uint64_t{1} << (63 - b));
  // The high halves of the first 32 vectors are the 32-bit vectors (right shifts of the recurrence
  // only move bits down), dimension 2's polynomial x + 1 gives V[i] = V[i-1] ^ V[i-1] >> 1 through
  // all 64 bits.
  for (unsigned d = 0; d < trn::rand::kSobolMaxDimensions; d += 97)
    for (unsigned b = 0; b < 32; ++b) ASSERT_EQ(v[d][b] >> 32, v32[d][b]) << d << " " << b;
  for (unsigned b = 1; b < 64; ++b) EXPECT_EQ(v[1][b], v[1][b - 1] ^ (v[1][b - 1] >> 1)) << b;
  ASSERT_NE(reference_sobol64().direction_vectors64_fnv, 0u);
  EXPECT_EQ(trnrand_test::fnv1a64(v, trn::rand::kSobolMaxDimensions * 64 * 8),
            reference_sobol64().direction_vectors64_fnv);
}

TEST(TrnrandSobol64, CApiLongLongDirectionVectorsAndStatuses) {
  for (const bool host : {true, false}) {
    trnrandGenerator_t g = nullptr;
    ASSERT_EQ(host ? trnrandCreateGeneratorHost(&g, TRNRAND_RNG_QUASI_SOBOL64)
                   : trnrandCreateGenerator(&g, TRNRAND_RNG_QUASI_SOBOL64),
              TRNRAND_STATUS_SUCCESS);
    const auto& first = reference_sobol64().calls.front();  // 1 dimension, offset 0, u64 x 1000
    ASSERT_EQ(first.type, "u64");
    std::vector<unsigned long long> u(first.n);
    ASSERT_EQ(trnrandGenerateLongLong(g, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
    const auto idx = first.sample_indices();
    for (std::size_t k = 0; k < idx.size(); ++k) ASSERT_EQ(u[idx[k]], first.bits[k]) << idx[k];
    EXPECT_EQ(trnrand_test::fnv1a64(u.data(), u.size() * 8), first.fnv);
    if (!host) {
      trnProfile_t prof{};
      ASSERT_EQ(trnrandGetLastProfile(g, &prof), TRNRAND_STATUS_SUCCESS);
      EXPECT_GT(prof.total_ns, 0.0);
    }
    std::vector<unsigned int> w(8, 0xdeadu);
    EXPECT_EQ(trnrandGenerate(g, w.data(), 8), status_of("generate_u32"));
    EXPECT_EQ(w[0], 0xdeadu);
    ASSERT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 4), TRNRAND_STATUS_SUCCESS);
    std::vector<unsigned long long> seven(7, 0xdeadull);
    EXPECT_EQ(trnrandGenerateLongLong(g, seven.data(), 7), status_of("long_long_not_multiple"));
    EXPECT_EQ(seven[0], 0xdeadull);
    EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 0), status_of("dimensions_0"));
    EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 20001), status_of("dimensions_20001"));
    EXPECT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 5), status_of("seed"));
    for (const int o : {100, 101, 102, 103, 104, 201})
      EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(o)),
                status_of("ordering_" + std::to_string(o)))
          << o;
    EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  }
  // 64-bit words from the other generators: TYPE_ERROR (as cuRAND).
  trnrandGenerator_t s32 = nullptr;
  ASSERT_EQ(trnrandCreateGeneratorHost(&s32, TRNRAND_RNG_QUASI_SOBOL32), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned long long> ull(4);
  EXPECT_EQ(trnrandGenerateLongLong(s32, ull.data(), 4), TRNRAND_STATUS_TYPE_ERROR);
  EXPECT_EQ(trnrandDestroyGenerator(s32), TRNRAND_STATUS_SUCCESS);
  trnrandDirectionVectors64_t* v = nullptr;
  ASSERT_EQ(trnrandGetDirectionVectors64(&v, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrand_test::fnv1a64(v, 20000 * 64 * 8), reference_sobol64().direction_vectors64_fnv);
  EXPECT_EQ(trnrandGetDirectionVectors64(&v, TRNRAND_DIRECTION_VECTORS_32_JOEKUO6),
            status_of("direction_vectors64_set_101"));
  EXPECT_EQ(trnrandGetDirectionVectors64(&v, static_cast<trnrandDirectionVectorSet_t>(99)),
            status_of("direction_vectors64_set_99"));
  EXPECT_EQ(trnrandGetDirectionVectors64(&v, TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
            TRNRAND_STATUS_OUT_OF_RANGE);  // NVIDIA's unpublished scrambled set (cuRAND: SUCCESS)
  EXPECT_EQ(trnrandGetDirectionVectors64(nullptr, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6), TRNRAND_STATUS_OUT_OF_RANGE);
}
