// What cuRAND's one-word-per-value host generators (MT19937, MTGP32) share: the distributions that
// both build the same way from the generator's 32-bit words, one word per value (any n), converted on
// the host side of the kernel and recorded as a host transform of the kernel's words: the words
// themselves, the float normal (sobol_normal_icdf, then the affine map) and the float and double
// log-normals. The generator (Derived) supplies words(out, n) (advancing its position) and the
// optional<Trace> last_trace_ its kernels fill; it befriends this base. Definitions:
// trnrand/src/word_generator_impl.hpp, instantiated by each generator's source.
#pragma once
#include <cstdint>
#include <span>

#include "trn/rand/kernels.hpp"

namespace trn::rand {

template <class Derived>
class WordGenerator {
 public:
  void generate(std::span<std::uint32_t> out);
  void normal(std::span<float> out, float mean, float stddev);  // any n (one word per value)
  void log_normal(std::span<float> out, float mean, float stddev);
  void log_normal_double(std::span<double> out, double mean, double stddev);

 protected:
  // out.size() words from the position, then convert(word) of each into out on the host: `step`
  // recorded on the kernel's trace (engine path).
  template <class T, class Convert>
  void fill(std::span<T> out, const HostTransform& step, Convert&& convert);
};

}  // namespace trn::rand
