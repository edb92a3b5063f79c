// SOBOL32 (cuRAND's QUASI_SOBOL32 = QUASI_DEFAULT) against cuRAND's host generator, from the stored
// reference data/curand_reference_sobol32.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp
// sobol): 1, 3, 100, 20000 and 7 dimensions at offsets 0, 5, 1000003, 0 and 2^32 - 6 (across the
// 2^32-point period), every type in turn, 2^22 values of 4 dimensions, the FNV-1a hash of cuRAND's
// 20000 x 32 direction vectors, statuses. Integer and uniform outputs bit-exact (hashes of all
// values); the inverse-CDF normals within the bounds of curand_replay.hpp. Both paths (host; the
// sobol_gray_xor kernel on the emulated engines).
#include <vector>

#include "curand_replay.hpp"
#include "sobol_paths.hpp"
#include "trn/rand/sobol.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Sobol32Generator;

const trnrand_test::RefFile& reference_sobol() { return trnrand_test::stored_reference("curand_reference_sobol32.txt"); }

int status_of(const std::string& what) { return trnrand_test::recorded_status(reference_sobol(), what); }

}  // namespace

TEST(TrnrandSobol, MatchesStoredCurandVectors) {
  const auto& f = reference_sobol();
  ASSERT_TRUE(f.quasi);
  ASSERT_GE(f.calls.size(), 46u);
  const auto tally = trnrand_test::replay([] { return Sobol32Generator(); }, true, f, 1, false, true);
  trnrand_test::report("sobol32", tally);
  trnrand_test::expect_bounds(tally, false, 0);
  // The inverse-CDF float normals are identical wherever measured (cuRAND's host erfcinvf rounds as
  // trnrand's long-double erfcinv does); fp64 within double_close's bound.
  EXPECT_EQ(tally.at("normal").exact, tally.at("normal").values);
}

TEST(TrnrandSobol, EnginePathMatchesStoredCurandVectors) {
  // The sobol_gray_xor kernel (one dimension per partition, GpSimd Gray-code XORs, VectorE
  // uniforms): every generator of the file (dimensions 1, 3, 100, 20000, 7 and the 2^22 call).
  const auto tally = trnrand_test::replay([] { return Sobol32Generator(true); }, true, reference_sobol(), 1, false, true);
  trnrand_test::report("sobol32 engines", tally);
  trnrand_test::expect_bounds(tally, false, 0);
}

TEST(TrnrandSobol, EnginePathEqualsHostPathAndRecordsAProfile) {
  // Three programs of 128, 128 and 44 dimensions, across the 2^32-point period.
  trnrand_test::expect_sobol_engines_equal_host<std::uint32_t>(300, 4294967000ull);
}

TEST(TrnrandSobol, DirectionVectorsAreJoeKuosAsCurandShipsThem) {
  // Independent check of the unpacked table: dimensions 2 .. 5 of Joe & Kuo's file, by hand
  // (d s a m: 2 1 0 1; 3 2 1 1 3; 4 3 1 1 3 1; 5 3 2 1 1 1) through Bratley & Fox's recurrence.
  const auto* v = trn::rand::sobol_direction_vectors32();
  for (unsigned b = 0; b < 32; ++b) EXPECT_EQ(v[0][b], 1u << (31 - b));
  EXPECT_EQ(v[1][0], 0x80000000u);  // m_1 = 1, polynomial x + 1: V[i] = V[i-1] ^ V[i-1] >> 1
  for (unsigned b = 1; b < 32; ++b) EXPECT_EQ(v[1][b], v[1][b - 1] ^ (v[1][b - 1] >> 1)) << b;
  EXPECT_EQ(v[2][0], 1u << 31);
  EXPECT_EQ(v[2][1], 3u << 30);
  EXPECT_EQ(v[2][2], v[2][0] ^ (v[2][0] >> 2) ^ v[2][1]);  // s = 2, a = 1
  EXPECT_EQ(v[4][0], 1u << 31);
  EXPECT_EQ(v[4][1], 1u << 30);
  EXPECT_EQ(v[4][2], 1u << 29);
  EXPECT_EQ(v[4][3], v[4][0] ^ (v[4][0] >> 3) ^ v[4][2]);  // s = 3, a = 2 (binary 10): a_1 = 1 (V[i-1]), a_2 = 0
  // The whole set equals what curandGetDirectionVectors32(JOEKUO6) returned (stored hash).
  ASSERT_NE(reference_sobol().direction_vectors32_fnv, 0u);
  EXPECT_EQ(trnrand_test::fnv1a64(v, trn::rand::kSobolMaxDimensions * 32 * 4),
            reference_sobol().direction_vectors32_fnv);
}

TEST(TrnrandSobol, CApiDimensionsDirectionVectorsAndStatuses) {
  for (const trnrandRngType_t type : {TRNRAND_RNG_QUASI_DEFAULT, TRNRAND_RNG_QUASI_SOBOL32}) {
    trnrandGenerator_t g = nullptr;
    ASSERT_EQ(trnrandCreateGeneratorHost(&g, type), TRNRAND_STATUS_SUCCESS);
    // The stored first record (1 dimension, offset 0, u32 x 1000).
    const auto& first = reference_sobol().calls.front();
    ASSERT_EQ(first.type, "u32");
    std::vector<unsigned int> u(first.n);
    ASSERT_EQ(trnrandGenerate(g, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
    for (std::size_t i = 0; i < u.size(); ++i) ASSERT_EQ(u[i], first.bits[i]) << i;
    EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 0), status_of("dimensions_0"));
    EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 20001), status_of("dimensions_20001"));
    ASSERT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 3), TRNRAND_STATUS_SUCCESS);
    std::vector<unsigned int> seven(7, 0xdeadu);
    EXPECT_EQ(trnrandGenerate(g, seven.data(), 7), status_of("generate_not_multiple"));
    EXPECT_EQ(seven[0], 0xdeadu);  // nothing written
    std::vector<float> f(9);
    EXPECT_EQ(trnrandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f), status_of("normal_n9_dims3"));
    EXPECT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 5), status_of("seed"));
    std::vector<unsigned long long> ull(9);
    EXPECT_EQ(trnrandGenerateLongLong(g, ull.data(), 9), status_of("long_long"));
    for (const int o : {100, 101, 102, 103, 104, 201})
      EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(o)),
                status_of("ordering_" + std::to_string(o)))
          << o;
    EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  }
  trnrandGenerator_t philox = nullptr;
  ASSERT_EQ(trnrandCreateGeneratorHost(&philox, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(philox, 3), status_of("philox_dimensions"));
  EXPECT_EQ(trnrandDestroyGenerator(philox), TRNRAND_STATUS_SUCCESS);
  trnrandDirectionVectors32_t* v = nullptr;
  ASSERT_EQ(trnrandGetDirectionVectors32(&v, TRNRAND_DIRECTION_VECTORS_32_JOEKUO6), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrand_test::fnv1a64(v, 20000 * 32 * 4), reference_sobol().direction_vectors32_fnv);
  EXPECT_EQ(trnrandGetDirectionVectors32(&v, static_cast<trnrandDirectionVectorSet_t>(99)),
            status_of("direction_vectors_set_99"));
  EXPECT_EQ(trnrandGetDirectionVectors32(&v, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6),
            status_of("direction_vectors_set_103"));
  // Scrambled Sobol: cuRAND's scrambled vectors and scramble constants are NVIDIA's own data, not
  // published; trnrand refuses the set and the generator types (docs/trnrand.md section 9).
  EXPECT_EQ(trnrandGetDirectionVectors32(&v, TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
            TRNRAND_STATUS_OUT_OF_RANGE);
  trnrandGenerator_t g = nullptr;
  EXPECT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32), TRNRAND_STATUS_TYPE_ERROR);
  EXPECT_EQ(g, nullptr);
  // The "device" generator runs the sobol_gray_xor kernel: the first record again, and a profile.
  ASSERT_EQ(trnrandCreateGenerator(&g, TRNRAND_RNG_QUASI_SOBOL32), TRNRAND_STATUS_SUCCESS);
  const auto& first = reference_sobol().calls.front();
  std::vector<unsigned int> u(first.n);
  ASSERT_EQ(trnrandGenerate(g, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
  for (std::size_t i = 0; i < u.size(); ++i) ASSERT_EQ(u[i], first.bits[i]) << i;
  trnProfile_t prof{};
  ASSERT_EQ(trnrandGetLastProfile(g, &prof), TRNRAND_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}
