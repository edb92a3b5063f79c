// The emulation surface every C API has (trncore.h TRN_EMULATION_API, written once in the C-shim
// kit): one typed suite over trnblas, trnfft, trnrand, trnsolver, trnsparse and trntensor. Each
// library gives its handle, its statuses and one small compute call; the suite calls every entry
// point, checks that each setting reaches the computation (the last profile's target, stochastic
// rounding bits keyed by the seed, the emulated cores in the modeled time) and that a bad handle or
// argument gives the library's status, logs the parameter position and changes nothing.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "trnblas.h"
#include "trnfft.h"
#include "trnrand.h"
#include "trnsolver.h"
#include "trnsparse.h"
#include "trntensor.h"

namespace {

using Bytes = std::vector<unsigned char>;

template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Inputs with every mantissa bit in use, so that rounding to a narrower type has work to do.
std::vector<float> inputs(std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * (0.1f + 0.37f * static_cast<float>((i * 7919) % 613) / 613.0f);
  return v;
}

// ---- one binding per library: handle, statuses, entry points, one compute call ---------------------

#define TRN_SURFACE_ENTRY_POINTS(H, L)                                      \
  static constexpr auto SetTarget = &H##SetTarget;                          \
  static constexpr auto GetTarget = &H##GetTarget;                          \
  static constexpr auto SetNumerics = &H##SetNumericsProfile;               \
  static constexpr auto GetNumerics = &H##GetNumericsProfile;               \
  static constexpr auto SetSR = &H##SetStochasticRounding;                  \
  static constexpr auto GetSR = &H##GetStochasticRounding;                  \
  static constexpr auto SetCores = &H##SetNumCores;                         \
  static constexpr auto GetCores = &H##GetNumCores;                         \
  static constexpr auto LastProfile = &H##GetLastProfile;                   \
  static constexpr auto LastProfileSized = &H##GetLastProfileSized;         \
  static constexpr auto LastError = &H##GetLastErrorParameter;              \
  static constexpr auto LoggerConfigure = &L##LoggerConfigure;              \
  static constexpr auto SetLoggerCallback = &L##SetLoggerCallback;          \
  static constexpr auto GetLoggerCallback = &L##GetLoggerCallback;          \
  static constexpr auto LoggerSetCallback = &L##LoggerSetCallback;          \
  static constexpr const char* kPrefix = #H;

// A 256 x 256 x 256 GEMM rounded into bf16 C (GemmEx): SR rounds C; four column blocks of programs.
struct Blas {
  using Handle = trnblasHandle_t;
  using Status = trnblasStatus_t;
  static constexpr Status kOk = TRNBLAS_STATUS_SUCCESS, kNotInit = TRNBLAS_STATUS_NOT_INITIALIZED,
                          kInvalid = TRNBLAS_STATUS_INVALID_VALUE;
  static constexpr bool kRounds = true, kSpreads = false;  // one program at this size
  TRN_SURFACE_ENTRY_POINTS(trnblas, trnblas)
  static Handle create() {
    Handle h = nullptr;
    EXPECT_EQ(trnblasCreate(&h), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trnblasDestroy(h), kOk); }
  static Handle dead() { return nullptr; }
  static Bytes run(Handle h) {
    const int n = 256;
    const std::vector<float> a = inputs(n * n), b = inputs(n * n, 0.5f);
    std::vector<std::uint16_t> c(n * n, 0);
    const float alpha = 1.0f, beta = 0.0f;
    EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &alpha, a.data(), TRN_R_32F, n, b.data(), TRN_R_32F,
                            n, &beta, c.data(), TRN_R_16BF, n, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
              kOk);
    return bytes_of(c);
  }
};

// A batch of 64 C2C transforms of length 256 in bf16 tiles (the inputs are rounded to bf16 on the
// way in, round to nearest: nothing on the engines for SR to round).
struct Fft {
  using Handle = trnfftHandle;
  using Status = trnfftResult;
  static constexpr Status kOk = TRNFFT_SUCCESS, kNotInit = TRNFFT_INVALID_PLAN, kInvalid = TRNFFT_INVALID_VALUE;
  static constexpr bool kRounds = false, kSpreads = false;
  TRN_SURFACE_ENTRY_POINTS(trnfft, trnfft)
  static Handle create() {
    Handle h = TRNFFT_PLAN_NULL;
    EXPECT_EQ(trnfftCreate(&h), kOk);
    EXPECT_EQ(trnfftSetPlanPrecision(h, TRNFFT_PRECISION_BF16), kOk);
    std::size_t work = 0;
    EXPECT_EQ(trnfftMakePlan1d(h, 256, TRNFFT_C2C, 64, &work), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trnfftDestroy(h), kOk); }
  static Handle dead() { return 0x7ffffff0; }
  static Bytes run(Handle h) {
    std::vector<float> in = inputs(2 * 256 * 64), out(in.size(), 0.0f);
    EXPECT_EQ(trnfftExecC2C(h, reinterpret_cast<trnfftComplex*>(in.data()), reinterpret_cast<trnfftComplex*>(out.data()),
                            TRNFFT_FORWARD),
              kOk);
    return bytes_of(out);
  }
};

// 2^22 Philox uniforms (several programs): integer words and an exact scaling, nothing for SR to round.
struct Rand {
  using Handle = trnrandGenerator_t;
  using Status = trnrandStatus_t;
  static constexpr Status kOk = TRNRAND_STATUS_SUCCESS, kNotInit = TRNRAND_STATUS_NOT_INITIALIZED,
                          kInvalid = TRNRAND_STATUS_OUT_OF_RANGE;
  static constexpr bool kRounds = false, kSpreads = true;
  TRN_SURFACE_ENTRY_POINTS(trnrand, trnrand)
  static Handle create() {
    Handle h = nullptr;
    EXPECT_EQ(trnrandCreateGenerator(&h, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trnrandDestroyGenerator(h), kOk); }
  static Handle dead() { return nullptr; }
  static Bytes run(Handle h) {
    std::vector<float> out(std::size_t{1} << 22, -1.0f);
    EXPECT_EQ(trnrandSetGeneratorOffset(h, 0), kOk);
    EXPECT_EQ(trnrandGenerateUniform(h, out.data(), out.size()), kOk);
    return bytes_of(out);
  }
};

// 16 symmetric 32 x 32 eigenproblems (syevjBatched), packed into one program at this size.
struct Solver {
  using Handle = trnsolverDnHandle_t;
  using Status = trnsolverStatus_t;
  static constexpr Status kOk = TRNSOLVER_STATUS_SUCCESS, kNotInit = TRNSOLVER_STATUS_NOT_INITIALIZED,
                          kInvalid = TRNSOLVER_STATUS_INVALID_VALUE;
  static constexpr bool kRounds = false, kSpreads = false;
  TRN_SURFACE_ENTRY_POINTS(trnsolverDn, trnsolver)
  static Handle create() {
    Handle h = nullptr;
    EXPECT_EQ(trnsolverDnCreate(&h), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trnsolverDnDestroy(h), kOk); }
  static Handle dead() { return nullptr; }
  static Bytes run(Handle h) {
    const int n = 32, batch = 16;
    std::vector<float> a(static_cast<std::size_t>(n * n * batch)), w(static_cast<std::size_t>(n * batch));
    const std::vector<float> r = inputs(a.size());
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a[b * n * n + i + j * n] = r[b * n * n + std::min(i, j) + std::max(i, j) * n];
    syevjInfo_t params = nullptr;
    EXPECT_EQ(trnsolverDnCreateSyevjInfo(&params), kOk);
    int lwork = 0;
    EXPECT_EQ(trnsolverDnSsyevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, a.data(), n,
                                                  w.data(), &lwork, params, batch),
              kOk);
    std::vector<float> work(static_cast<std::size_t>(lwork));
    std::vector<int> info(batch, -1);
    EXPECT_EQ(trnsolverDnSsyevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, a.data(), n, w.data(),
                                       work.data(), lwork, info.data(), params, batch),
              kOk);
    trnsolverDnDestroySyevjInfo(params);
    Bytes out = bytes_of(a);
    const Bytes wb = bytes_of(w);
    out.insert(out.end(), wb.begin(), wb.end());
    return out;
  }
};

// SpMM of a dense-block BSR matrix (4 x 4 blocks of 32) with a 128 x 64 B into bf16 C.
struct Sparse {
  using Handle = trnsparseHandle_t;
  using Status = trnsparseStatus_t;
  static constexpr Status kOk = TRNSPARSE_STATUS_SUCCESS, kNotInit = TRNSPARSE_STATUS_NOT_INITIALIZED,
                          kInvalid = TRNSPARSE_STATUS_INVALID_VALUE;
  static constexpr bool kRounds = true, kSpreads = true;
  TRN_SURFACE_ENTRY_POINTS(trnsparse, trnsparse)
  static Handle create() {
    Handle h = nullptr;
    EXPECT_EQ(trnsparseCreate(&h), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trnsparseDestroy(h), kOk); }
  static Handle dead() { return nullptr; }
  static Bytes run(Handle h) {
    const int nb = 4, bd = 32, n = nb * bd, cols = 64;
    std::vector<int> off(nb + 1), col;
    for (int i = 0; i <= nb; ++i) off[i] = i * nb;
    for (int i = 0; i < nb * nb; ++i) col.push_back(i % nb);
    std::vector<float> values = inputs(static_cast<std::size_t>(nb * nb * bd * bd)), b = inputs(n * cols, 0.5f);
    std::vector<std::uint16_t> c(static_cast<std::size_t>(n * cols), 0);
    trnsparseSpMatDescr_t mA = nullptr;
    trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
    EXPECT_EQ(trnsparseCreateBsr(&mA, nb, nb, nb * nb, bd, bd, off.data(), col.data(), values.data(), TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW),
              kOk);
    EXPECT_EQ(trnsparseCreateDnMat(&mB, n, cols, n, b.data(), TRN_R_32F, TRNSPARSE_ORDER_COL), kOk);
    EXPECT_EQ(trnsparseCreateDnMat(&mC, n, cols, n, c.data(), TRN_R_16BF, TRNSPARSE_ORDER_COL), kOk);
    const float alpha = 1.0f, beta = 0.0f;
    EXPECT_EQ(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB, &beta,
                            mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
              kOk);
    trnsparseDestroySpMat(mA);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    return bytes_of(c);
  }
};

// einsum "ij,jk->ik" (256 x 256 x 256) with bf16 compute (operands rounded to nearest on the way
// in; fp32 out: nothing on the engines for SR to round), one program.
struct Tensor {
  using Handle = trntensorHandle_t;
  using Status = trntensorStatus_t;
  static constexpr Status kOk = TRNTENSOR_STATUS_SUCCESS, kNotInit = TRNTENSOR_STATUS_NOT_INITIALIZED,
                          kInvalid = TRNTENSOR_STATUS_INVALID_VALUE;
  static constexpr bool kRounds = false, kSpreads = false;
  TRN_SURFACE_ENTRY_POINTS(trntensor, trntensor)
  static Handle create() {
    Handle h = nullptr;
    EXPECT_EQ(trntensorCreate(&h), kOk);
    return h;
  }
  static void destroy(Handle h) { EXPECT_EQ(trntensorDestroy(h), kOk); }
  static Handle dead() { return nullptr; }
  static Bytes run(Handle h) {
    const std::int64_t n = 256;
    const std::int64_t shape[2] = {n, n};
    const std::vector<float> a = inputs(n * n), b = inputs(n * n, 0.5f);
    std::vector<float> d(static_cast<std::size_t>(n * n), 0.0f);
    const trntensorEinsumOperand_t ops[2] = {{a.data(), 2, shape, nullptr}, {b.data(), 2, shape, nullptr}};
    EXPECT_EQ(trntensorEinsum(h, "ij,jk->ik", 2, ops, d.data(), 2, shape, nullptr, TRNTENSOR_R_32F,
                              TRNTENSOR_COMPUTE_DESC_16BF, TRNTENSOR_EINSUM_PATH_GREEDY),
              kOk);
    return bytes_of(d);
  }
};

#undef TRN_SURFACE_ENTRY_POINTS

std::vector<std::string> g_lines;
void capture(const char* msg) { g_lines.emplace_back(msg); }
std::vector<std::string> g_functions;
void capture_level(int level, const char* function, const char* msg) {
  EXPECT_EQ(level, 1);
  EXPECT_NE(msg, nullptr);
  g_functions.emplace_back(function);
}

template <class L>
class EmulationSurface : public ::testing::Test {
 protected:
  void SetUp() override { h = L::create(); }
  void TearDown() override { L::destroy(h); }
  trnProfile_t last_profile() {
    trnProfile_t p{};
    EXPECT_EQ(L::LastProfile(h, &p), L::kOk);
    return p;
  }
  int last_error() {
    int pos = -1;
    EXPECT_EQ(L::LastError(h, &pos), L::kOk);
    return pos;
  }
  typename L::Handle h{};
};

using Libraries = ::testing::Types<Blas, Fft, Rand, Solver, Sparse, Tensor>;
TYPED_TEST_SUITE(EmulationSurface, Libraries);

TYPED_TEST(EmulationSurface, DefaultsAreTrn1IdealNoSrOneCore) {
  using L = TypeParam;
  trnTarget_t t{};
  trnNumerics_t p = TRN_NUMERICS_TRN1_MEASURED;
  int enable = -1, cores = 0;
  unsigned long long seed = 99;
  ASSERT_EQ(L::GetTarget(this->h, &t), L::kOk);
  ASSERT_EQ(L::GetNumerics(this->h, &p), L::kOk);
  ASSERT_EQ(L::GetSR(this->h, &enable, &seed), L::kOk);
  ASSERT_EQ(L::GetCores(this->h, &cores), L::kOk);
  EXPECT_EQ(t, TRN_TARGET_TRN1);
  EXPECT_EQ(p, TRN_NUMERICS_IDEAL);
  EXPECT_EQ(enable, 0);
  EXPECT_EQ(seed, 0u);
  EXPECT_EQ(cores, 1);
  EXPECT_EQ(this->last_error(), 0);
}

TYPED_TEST(EmulationSurface, DeadHandleIsNotInitializedAndWritesNothing) {
  using L = TypeParam;
  const auto d = L::dead();
  trnTarget_t t = static_cast<trnTarget_t>(42);
  trnNumerics_t p = static_cast<trnNumerics_t>(42);
  int enable = 42, cores = 42, pos = 42;
  unsigned long long seed = 42;
  trnProfile_t prof{};
  prof.total_ns = 42.0;
  EXPECT_EQ(L::SetTarget(d, TRN_TARGET_TRN2), L::kNotInit);
  EXPECT_EQ(L::GetTarget(d, &t), L::kNotInit);
  EXPECT_EQ(L::SetNumerics(d, TRN_NUMERICS_IDEAL), L::kNotInit);
  EXPECT_EQ(L::GetNumerics(d, &p), L::kNotInit);
  EXPECT_EQ(L::SetSR(d, 1, 5), L::kNotInit);
  EXPECT_EQ(L::GetSR(d, &enable, &seed), L::kNotInit);
  EXPECT_EQ(L::SetCores(d, 2), L::kNotInit);
  EXPECT_EQ(L::GetCores(d, &cores), L::kNotInit);
  EXPECT_EQ(L::LastProfile(d, &prof), L::kNotInit);
  EXPECT_EQ(L::LastError(d, &pos), L::kNotInit);
  EXPECT_EQ(static_cast<int>(t), 42);
  EXPECT_EQ(static_cast<int>(p), 42);
  EXPECT_EQ(enable + cores + pos, 3 * 42);
  EXPECT_EQ(seed, 42u);
  EXPECT_EQ(prof.total_ns, 42.0);
}

TYPED_TEST(EmulationSurface, BadArgumentsGiveInvalidWithTheirPositionAndChangeNothing) {
  using L = TypeParam;
  g_lines.clear();
  ASSERT_EQ(L::SetLoggerCallback(capture), L::kOk);
  EXPECT_EQ(L::SetTarget(this->h, static_cast<trnTarget_t>(7)), L::kInvalid);
  EXPECT_EQ(this->last_error(), 1);
  EXPECT_EQ(L::SetNumerics(this->h, static_cast<trnNumerics_t>(-1)), L::kInvalid);
  EXPECT_EQ(L::SetCores(this->h, 0), L::kInvalid);
  EXPECT_EQ(L::SetCores(this->h, 65), L::kInvalid);
  EXPECT_EQ(this->last_error(), 1);
  int enable = 42;
  EXPECT_EQ(L::GetSR(this->h, &enable, nullptr), L::kInvalid);
  EXPECT_EQ(this->last_error(), 2);
  EXPECT_EQ(enable, 42);
  EXPECT_EQ(L::GetTarget(this->h, nullptr), L::kInvalid);
  EXPECT_EQ(L::GetNumerics(this->h, nullptr), L::kInvalid);
  EXPECT_EQ(L::GetCores(this->h, nullptr), L::kInvalid);
  EXPECT_EQ(L::LastProfile(this->h, nullptr), L::kInvalid);
  EXPECT_EQ(L::LastError(this->h, nullptr), L::kInvalid);
  trnLogCallback_t* no_callback = nullptr;
  EXPECT_EQ(L::GetLoggerCallback(no_callback), L::kInvalid);
  ASSERT_EQ(L::SetLoggerCallback(nullptr), L::kOk);
  // Nothing changed.
  trnTarget_t t{};
  trnNumerics_t p{};
  int cores = 0;
  ASSERT_EQ(L::GetTarget(this->h, &t), L::kOk);
  ASSERT_EQ(L::GetNumerics(this->h, &p), L::kOk);
  ASSERT_EQ(L::GetCores(this->h, &cores), L::kOk);
  EXPECT_EQ(t, TRN_TARGET_TRN1);
  EXPECT_EQ(p, TRN_NUMERICS_IDEAL);
  EXPECT_EQ(cores, 1);
  // XERBLA's line, naming the entry point and the position.
  ASSERT_FALSE(g_lines.empty());
  const std::string set_target = std::string(L::kPrefix) + "SetTarget parameter number 1";
  EXPECT_NE(g_lines.front().find(set_target), std::string::npos) << g_lines.front();
}

TYPED_TEST(EmulationSurface, TargetAndNumericsReachTheLastProfile) {
  using L = TypeParam;
  const Bytes ideal = L::run(this->h);
  EXPECT_EQ(this->last_profile().target, TRN_TARGET_TRN1);
  const double trn1_ns = this->last_profile().total_ns;
  EXPECT_GT(trn1_ns, 0.0);
  ASSERT_EQ(L::SetTarget(this->h, TRN_TARGET_TRN2), L::kOk);
  trnTarget_t t{};
  ASSERT_EQ(L::GetTarget(this->h, &t), L::kOk);
  EXPECT_EQ(t, TRN_TARGET_TRN2);
  const Bytes on_trn2 = L::run(this->h);
  EXPECT_EQ(this->last_profile().target, TRN_TARGET_TRN2);
  EXPECT_NE(this->last_profile().total_ns, trn1_ns);
  EXPECT_EQ(on_trn2, ideal);  // same instructions, same bits: the target is the cost model's
  ASSERT_EQ(L::SetNumerics(this->h, TRN_NUMERICS_TRN1_MEASURED), L::kOk);
  trnNumerics_t p{};
  ASSERT_EQ(L::GetNumerics(this->h, &p), L::kOk);
  EXPECT_EQ(p, TRN_NUMERICS_TRN1_MEASURED);
  L::run(this->h);
}

TYPED_TEST(EmulationSurface, StochasticRoundingIsKeyedByTheSeed) {
  using L = TypeParam;
  const Bytes nearest = L::run(this->h);
  ASSERT_EQ(L::SetSR(this->h, 1, 7), L::kOk);
  int enable = 0;
  unsigned long long seed = 0;
  ASSERT_EQ(L::GetSR(this->h, &enable, &seed), L::kOk);
  EXPECT_EQ(enable, 1);
  EXPECT_EQ(seed, 7u);
  const Bytes seven = L::run(this->h), again = L::run(this->h);
  ASSERT_EQ(L::SetSR(this->h, 1, 8), L::kOk);
  const Bytes eight = L::run(this->h);
  EXPECT_EQ(seven, again);  // the bits are a function of the seed
  if (L::kRounds) {
    EXPECT_NE(seven, nearest);
    EXPECT_NE(seven, eight);
  } else {
    EXPECT_EQ(seven, nearest);  // nothing in this call rounds to a narrower type
    EXPECT_EQ(eight, nearest);
  }
  ASSERT_EQ(L::SetSR(this->h, 0, 8), L::kOk);
  EXPECT_EQ(L::run(this->h), nearest);
}

TYPED_TEST(EmulationSurface, CoresSpreadTheWorkWithoutChangingBits) {
  using L = TypeParam;
  const Bytes one = L::run(this->h);
  const double one_core_ns = this->last_profile().total_ns;
  ASSERT_EQ(L::SetCores(this->h, 4), L::kOk);
  int cores = 0;
  ASSERT_EQ(L::GetCores(this->h, &cores), L::kOk);
  EXPECT_EQ(cores, 4);
  EXPECT_EQ(L::run(this->h), one);
  if (L::kSpreads)
    EXPECT_LT(this->last_profile().total_ns, one_core_ns);
  else
    EXPECT_EQ(this->last_profile().total_ns, one_core_ns);  // one program: nothing to spread
}

// trnProfile_t as the first trncore.h declared it (v1): what a binary compiled then holds.
struct ProfileV1 {
  trnTarget_t target;
  double total_ns;
  double busy_ns[TRN_ENGINE_COUNT];
  double flops;
  double dma_bytes;
  long long instructions;
  long long instructions_per_engine[TRN_ENGINE_COUNT];
};

// Versioned trnProfile_t (trnprofile.h): a caller compiled against an older header passes its own
// sizeof and gets exactly that prefix of the current profile, no byte past it; a newer caller's
// unknown tail is zero; below v1 or NULL is INVALID_VALUE at its position with nothing written.
TYPED_TEST(EmulationSurface, SizedProfileFillsTheCallersLayoutOnly) {
  using L = TypeParam;
  static_assert(TRN_PROFILE_SIZE_V1 == sizeof(ProfileV1));  // what the first header's callers hold
  static_assert(TRN_PROFILE_SIZE_V2 == offsetof(trnProfile_t, tensor_flops));
  static_assert(TRN_PROFILE_SIZE_V3 == sizeof(trnProfile_t));
  L::run(this->h);
  const trnProfile_t full = this->last_profile();
  ASSERT_GT(full.total_ns, 0.0);
  ASSERT_GT(full.cores, 0);
  const auto* full_bytes = reinterpret_cast<const unsigned char*>(&full);
  constexpr unsigned char kGuard = 0xA5;
  constexpr std::size_t kSlack = 64;
  for (const std::size_t size : {TRN_PROFILE_SIZE_V1, TRN_PROFILE_SIZE_V2, TRN_PROFILE_SIZE_V3}) {
    Bytes buf(size + kSlack, kGuard);  // the old caller's struct, then memory that is not its
    ASSERT_EQ(L::LastProfileSized(this->h, reinterpret_cast<trnProfile_t*>(buf.data()), size), L::kOk) << size;
    EXPECT_EQ(std::memcmp(buf.data(), full_bytes, size), 0) << "prefix of size " << size;
    for (std::size_t i = size; i < buf.size(); ++i) ASSERT_EQ(buf[i], kGuard) << "byte " << i << " past " << size;
  }
  ProfileV1 v1{};
  ASSERT_EQ(L::LastProfileSized(this->h, reinterpret_cast<trnProfile_t*>(&v1), sizeof v1), L::kOk);
  EXPECT_EQ(v1.total_ns, full.total_ns);
  EXPECT_EQ(v1.target, full.target);
  EXPECT_EQ(v1.instructions, full.instructions);
  // A newer caller (a longer struct): this library's profile, then zeros up to its size.
  Bytes newer(sizeof(trnProfile_t) + 32, kGuard);
  ASSERT_EQ(L::LastProfileSized(this->h, reinterpret_cast<trnProfile_t*>(newer.data()), newer.size() - 8), L::kOk);
  EXPECT_EQ(std::memcmp(newer.data(), full_bytes, sizeof(trnProfile_t)), 0);
  for (std::size_t i = sizeof(trnProfile_t); i < newer.size() - 8; ++i) ASSERT_EQ(newer[i], 0) << i;
  for (std::size_t i = newer.size() - 8; i < newer.size(); ++i) ASSERT_EQ(newer[i], kGuard) << i;
  // Illegal: size below v1 (position 2), NULL (position 1); nothing written.
  Bytes small(TRN_PROFILE_SIZE_V1, kGuard);
  EXPECT_EQ(L::LastProfileSized(this->h, reinterpret_cast<trnProfile_t*>(small.data()), TRN_PROFILE_SIZE_V1 - 1),
            L::kInvalid);
  EXPECT_EQ(this->last_error(), 2);
  EXPECT_EQ(small, Bytes(TRN_PROFILE_SIZE_V1, kGuard));
  EXPECT_EQ(L::LastProfileSized(this->h, nullptr, sizeof(trnProfile_t)), L::kInvalid);
  EXPECT_EQ(this->last_error(), 1);
  EXPECT_EQ(L::LastProfileSized(L::dead(), reinterpret_cast<trnProfile_t*>(&v1), sizeof v1), L::kNotInit);
}

TYPED_TEST(EmulationSurface, LoggerFamily) {
  using L = TypeParam;
  ASSERT_EQ(L::SetLoggerCallback(capture), L::kOk);
  trnLogCallback_t cb = nullptr;
  ASSERT_EQ(L::GetLoggerCallback(&cb), L::kOk);
  EXPECT_EQ(cb, &capture);
  g_functions.clear();
  ASSERT_EQ(L::LoggerSetCallback(capture_level), L::kOk);
  EXPECT_EQ(L::SetCores(this->h, -3), L::kInvalid);
  ASSERT_EQ(g_functions.size(), 1u);
  EXPECT_EQ(g_functions[0], std::string(L::kPrefix) + "SetNumCores");
  ASSERT_EQ(L::LoggerSetCallback(nullptr), L::kOk);
  ASSERT_EQ(L::SetLoggerCallback(nullptr), L::kOk);
  EXPECT_EQ(L::LoggerConfigure(0, 0, 0, nullptr), L::kOk);
}

}  // namespace
