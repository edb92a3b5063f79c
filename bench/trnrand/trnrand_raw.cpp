// Writes raw little-endian 32-bit words of a trnrand stream to stdout, for external test batteries:
//
//   trnrand_raw [--seed S] [--offset N] [--count N] [--order host32|subsequence] [--engines]
//       | dieharder -a -g 200          (200 = stdin_input_raw)
//
// Default: the host generator's cuRAND-ordered uint32 stream (trnrandGenerate) of seed 0 from
// offset 0, endless. --engines produces the same words through the emulated NeuronCore kernel
// (slower). --order subsequence writes one device-API stream (curand_init(seed, 0, offset)).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "trn/rand/generator.hpp"
#include "trn/rand/host.hpp"

int main(int argc, char** argv) {
  std::uint64_t seed = 0, offset = 0, count = ~std::uint64_t{0};
  bool engines = false, subsequence = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::uint64_t {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return std::strtoull(argv[++i], nullptr, 0);
    };
    if (a == "--seed")
      seed = value();
    else if (a == "--offset")
      offset = value();
    else if (a == "--count")
      count = value();
    else if (a == "--engines")
      engines = true;
    else if (a == "--order" && i + 1 < argc)
      subsequence = std::string(argv[++i]) == "subsequence";
    else {
      std::fprintf(stderr, "usage: %s [--seed S] [--offset N] [--count N] [--order host32|subsequence] [--engines]\n",
                   argv[0]);
      return 2;
    }
  }
  trn::rand::GeneratorOptions o;
  o.path = engines ? trn::rand::GeneratorPath::engines : trn::rand::GeneratorPath::host;
  trn::rand::Generator g(o);
  g.set_seed(seed);
  g.set_offset(offset);
  std::vector<std::uint32_t> buf(std::size_t{1} << 20);
  std::uint64_t position = offset;
  while (count > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(count, buf.size()));
    std::span<std::uint32_t> chunk(buf.data(), n);
    if (subsequence)
      trn::rand::fill_stream_words({seed, trn::rand::WordOrder::subsequence, 0, 0}, position, chunk);
    else
      g.generate(chunk);
    position += n;
    count -= n;
    if (std::fwrite(buf.data(), sizeof(std::uint32_t), n, stdout) != n) return 0;  // reader closed the pipe
  }
  return 0;
}
