// trnsci._core.rand: a trnrand generator (trnrand.h, cuRAND-identical streams) owned by a Python
// object, so consecutive calls continue one sequence exactly as consecutive C calls on one
// trnrandGenerator_t do. python/trnsci/rand.py gives it numpy-like methods.
#include <cstdint>
#include <string>

#include "common.hpp"
#include "trnrand.h"

namespace trnsci::py {
namespace {

TRNSCI_PY_CSHIM_TRAITS(RandApi, trnrand, trnrandGenerator_t, trnrandStatus_t, TRNRAND_STATUS_SUCCESS,
                       trnrandGetStatusName, "trnrand");

// What one generate call produces.
enum class Dist { u32, u64, uniform, normal, lognormal, poisson, exponential, bernoulli, uniform_int };

class Generator {
 public:
  Generator(int rng_type, unsigned long long seed, unsigned long long offset, int ordering, unsigned dims) {
    check_status<RandApi>(nullptr, trnrandCreateGenerator(&g_, static_cast<trnrandRngType_t>(rng_type)),
                          "trnrandCreateGenerator");
    const bool quasi = rng_type >= TRNRAND_RNG_QUASI_DEFAULT;
    if (!quasi) check_status<RandApi>(g_, trnrandSetPseudoRandomGeneratorSeed(g_, seed), "trnrandSetPseudoRandomGeneratorSeed");
    if (quasi && dims > 0)
      check_status<RandApi>(g_, trnrandSetQuasiRandomGeneratorDimensions(g_, dims), "trnrandSetQuasiRandomGeneratorDimensions");
    if (offset != 0) check_status<RandApi>(g_, trnrandSetGeneratorOffset(g_, offset), "trnrandSetGeneratorOffset");
    if (ordering != 0)
      check_status<RandApi>(g_, trnrandSetGeneratorOrdering(g_, static_cast<trnrandOrdering_t>(ordering)),
                            "trnrandSetGeneratorOrdering");
  }
  ~Generator() {
    if (g_ != nullptr) trnrandDestroyGenerator(g_);
  }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // n values of `dist` (p1, p2: its parameters), f64 selecting the double routine where there is one.
  py::tuple generate(Dist dist, std::size_t n, bool f64, double p1, double p2, const EmuSettings& s) {
    apply_settings<RandApi>(g_, s);
    py::array out;
    switch (dist) {
      case Dist::u32: case Dist::poisson: case Dist::bernoulli: case Dist::uniform_int:
        out = py::array_t<std::uint32_t>(static_cast<py::ssize_t>(n)); break;
      case Dist::u64: out = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(n)); break;
      default:
        out = f64 ? py::array(py::array_t<double>(static_cast<py::ssize_t>(n)))
                  : py::array(py::array_t<float>(static_cast<py::ssize_t>(n)));
    }
    void* o = out.mutable_data();
    const auto fo = static_cast<float*>(o);
    const auto d = static_cast<double*>(o);
    const auto u = static_cast<unsigned*>(o);
    const float f1 = static_cast<float>(p1), f2 = static_cast<float>(p2);
    auto p = run_call<RandApi>(g_, s, "generate", [&]() -> trnrandStatus_t {
      switch (dist) {
        case Dist::u32: return trnrandGenerate(g_, u, n);
        case Dist::u64: return trnrandGenerateLongLong(g_, static_cast<unsigned long long*>(o), n);
        case Dist::uniform: return f64 ? trnrandGenerateUniformDouble(g_, d, n) : trnrandGenerateUniform(g_, fo, n);
        case Dist::normal: return f64 ? trnrandGenerateNormalDouble(g_, d, n, p1, p2) : trnrandGenerateNormal(g_, fo, n, f1, f2);
        case Dist::lognormal:
          return f64 ? trnrandGenerateLogNormalDouble(g_, d, n, p1, p2) : trnrandGenerateLogNormal(g_, fo, n, f1, f2);
        case Dist::poisson: return trnrandGeneratePoisson(g_, u, n, p1);
        case Dist::exponential:
          return f64 ? trnrandGenerateExponentialDouble(g_, d, n, p1) : trnrandGenerateExponential(g_, fo, n, f1);
        case Dist::bernoulli: return trnrandGenerateBernoulli(g_, u, n, p1);
        case Dist::uniform_int:
          return trnrandGenerateUniformInt(g_, u, n, static_cast<unsigned>(p1), static_cast<unsigned>(p2));
      }
      return TRNRAND_STATUS_TYPE_ERROR;
    });
    return py::make_tuple(out, p);
  }

  void set_offset(unsigned long long offset) {
    check_status<RandApi>(g_, trnrandSetGeneratorOffset(g_, offset), "trnrandSetGeneratorOffset");
  }
  void set_seed(unsigned long long seed) {
    check_status<RandApi>(g_, trnrandSetPseudoRandomGeneratorSeed(g_, seed), "trnrandSetPseudoRandomGeneratorSeed");
  }

 private:
  trnrandGenerator_t g_ = nullptr;
};

const Registrar kRand("rand", [](py::module_& m) {
  using namespace pybind11::literals;
  py::enum_<Dist>(m, "Dist")
      .value("u32", Dist::u32).value("u64", Dist::u64).value("uniform", Dist::uniform).value("normal", Dist::normal)
      .value("lognormal", Dist::lognormal).value("poisson", Dist::poisson).value("exponential", Dist::exponential)
      .value("bernoulli", Dist::bernoulli).value("uniform_int", Dist::uniform_int);
  py::class_<Generator>(m, "Generator")
      .def(py::init<int, unsigned long long, unsigned long long, int, unsigned>(), "rng_type"_a, "seed"_a, "offset"_a,
           "ordering"_a, "dimensions"_a)
      .def("generate", &Generator::generate, "dist"_a, "n"_a, "f64"_a, "p1"_a, "p2"_a, "settings"_a)
      .def("set_offset", &Generator::set_offset, "offset"_a)
      .def("set_seed", &Generator::set_seed, "seed"_a);
});

}  // namespace
}  // namespace trnsci::py
