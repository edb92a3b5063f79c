// Generation table. Trn1 HBM: 820 GiB/s = 880.4 B/ns (derived). Sources (tags: docs/references.md): ARCH2/3/4 and
// NCV2 (clocks, capacities, HBM), DMAOV/DMABW (DMA), NL (tile sizes), ISA nc_matmul (matmul limits),
// ISA-OLD/ARCH2/PERF (cost constants; fitted ones: docs/cost-model.md). "derived" marks arithmetic.
// DMA descriptor cost (derived): 256 B at the effective per-engine bandwidth, i.e. 256 / (17 * 0.5) =
// 30.1 ns (trn1), 256 / 23 = 11.1 ns (trn2), 256 / 33 = 7.8 ns (trn3). dma_hbm_efficiency: trn1 fitted
// to MMTUT's latency table (docs/cost-model.md section 5), trn2 from MMTUT's activity figures, trn3
// assumed.
// Host round trips (docs/cost-model.md section 7; none of these numbers is in the Neuron documentation,
// each is a choice with its expected error there, and CostModelOptions::host overrides it):
//  - host link: PCIe, generation and width assumed (Gen4 x16 for Trainium, Gen5 x16 for Trainium2/3):
//    16 GT/s x 16 lanes x 128/130 / 8 = 31.5 GB/s (Gen4), 63.0 GB/s (Gen5) per direction (PCI-SIG
//    base specifications 4.0 / 5.0, derived), at 80% achievable (TLP/DLLP overhead at 256 B payloads,
//    assumed): 25.2 / 50.4 B/ns.
//  - host CPU: the instance's CPU (AWS EC2 accelerated-computing instance specifications: trn1 3rd
//    generation Intel Xeon Scalable "Ice Lake", trn2 4th generation "Sapphire Rapids"; trn3 not
//    published, assumed as trn2). The host steps are single-threaded scalar fp64 loops (substitutions,
//    rotations, reductions with a loop-carried dependency): 1 flop per cycle at an assumed sustained
//    3.5 GHz = 3.5 flop/ns (peak with AVX-512 FMA would be 16 per cycle).
//  - round trip: 2 x 1300 ns (DMABW's semaphore-to-start for the transfer to the host and the one back)
//    + 2000 ns for the host to notice the kernel's end and relaunch (assumed) = 4600 ns.
#include "trn/core/hardware.hpp"

namespace trn {

namespace {
constexpr std::int64_t KiB = 1024;

constexpr HardwareSpec kTrn1{
    .generation = Generation::trn1, .name = "trn1", .nc_version = "NeuronCore-v2",
    .pmax = 128, .sbuf_partition_bytes = 192 * KiB, .psum_partition_bytes = 16 * KiB, .psum_banks = 8,
    .psum_bank_bytes = 2 * KiB,
    .gemm_stationary_fmax = 128, .gemm_moving_fmax = 512, .bn_stats_fmax = 512,
    .vector_sbuf_fmax = 64 * 1024, .vector_psum_fmax = 4 * 1024, .vector_transpose_max = 32,
    .access_pattern_max_dims = 4,
    .fp8_e4m3fn_native = false, .fp8_double_row = false, .tensor_transpose_bit_accurate = false, .dma_transpose = false,
    .tensor_ghz = 2.8, .vector_ghz = 1.12, .scalar_ghz = 1.4, .gpsimd_ghz = 1.4,
    .matmul_min_ii = 64, .engine_min_ii = 64, .gpsimd_start = 150,
    .dma_engines = 16, .dma_bytes_per_ns = 17.0, .dma_fixed_ns = 1300.0, .dma_partitions_per_engine = 8,
    .engine_latency_cycles = 200, .matmul_fp32_passes = 4, .dma_descriptor_ns = 30.1, .dma_hbm_efficiency = 0.5,
    .semaphore_ns = 50.0, .shared_sbuf_port_vector_gpsimd = true, .shared_psum_port_vector_scalar = true, .vector_perf_mode = false,
    .cores_per_device = 2, .hbm_bytes_per_ns = 880.4,
    .host_link = "PCIe Gen4 x16 (assumed)", .host_cpu = "3rd gen. Intel Xeon Scalable (Ice Lake)",
    .host_link_bytes_per_ns = 25.2, .host_fp64_flops_per_ns = 3.5, .host_roundtrip_ns = 4600.0};

constexpr HardwareSpec kTrn2{
    .generation = Generation::trn2, .name = "trn2", .nc_version = "NeuronCore-v3",
    .pmax = 128, .sbuf_partition_bytes = 224 * KiB, .psum_partition_bytes = 16 * KiB, .psum_banks = 8,
    .psum_bank_bytes = 2 * KiB,
    .gemm_stationary_fmax = 128, .gemm_moving_fmax = 512, .bn_stats_fmax = 512,
    .vector_sbuf_fmax = 64 * 1024, .vector_psum_fmax = 4 * 1024, .vector_transpose_max = 32,
    .access_pattern_max_dims = 4,
    .fp8_e4m3fn_native = false, .fp8_double_row = true, .tensor_transpose_bit_accurate = true, .dma_transpose = true,
    .tensor_ghz = 2.4, .vector_ghz = 0.96, .scalar_ghz = 1.2, .gpsimd_ghz = 1.2,
    .matmul_min_ii = 64, .engine_min_ii = 64, .gpsimd_start = 150,
    .dma_engines = 16, .dma_bytes_per_ns = 23.0, .dma_fixed_ns = 1300.0, .dma_partitions_per_engine = 8,
    .engine_latency_cycles = 200, .matmul_fp32_passes = 4, .dma_descriptor_ns = 11.1, .dma_hbm_efficiency = 1.0,
    .semaphore_ns = 50.0,
    .shared_sbuf_port_vector_gpsimd = false, .shared_psum_port_vector_scalar = false, .vector_perf_mode = true,
    .cores_per_device = 8, .hbm_bytes_per_ns = 2900.0,
    .host_link = "PCIe Gen5 x16 (assumed)", .host_cpu = "4th gen. Intel Xeon Scalable (Sapphire Rapids)",
    .host_link_bytes_per_ns = 50.4, .host_fp64_flops_per_ns = 3.5, .host_roundtrip_ns = 4600.0};

// trn3: SBUF 32 MiB = 128 x 256 KiB (derived); moving free size up to 4096 fp32 across all 8 banks.
constexpr HardwareSpec kTrn3{
    .generation = Generation::trn3, .name = "trn3", .nc_version = "NeuronCore-v4",
    .pmax = 128, .sbuf_partition_bytes = 256 * KiB, .psum_partition_bytes = 16 * KiB, .psum_banks = 8,
    .psum_bank_bytes = 2 * KiB,
    .gemm_stationary_fmax = 128, .gemm_moving_fmax = 4096, .bn_stats_fmax = 512,
    .vector_sbuf_fmax = 64 * 1024, .vector_psum_fmax = 4 * 1024, .vector_transpose_max = 32,
    .access_pattern_max_dims = 4,
    .fp8_e4m3fn_native = true, .fp8_double_row = true, .tensor_transpose_bit_accurate = true, .dma_transpose = true,
    .tensor_ghz = 2.4, .vector_ghz = 1.2, .scalar_ghz = 1.2, .gpsimd_ghz = 1.2,
    .matmul_min_ii = 64, .engine_min_ii = 64, .gpsimd_start = 150,
    .dma_engines = 16, .dma_bytes_per_ns = 33.0, .dma_fixed_ns = 1300.0, .dma_partitions_per_engine = 8,
    .engine_latency_cycles = 200, .matmul_fp32_passes = 4, .dma_descriptor_ns = 7.8, .dma_hbm_efficiency = 1.0,
    .semaphore_ns = 50.0,
    .shared_sbuf_port_vector_gpsimd = false, .shared_psum_port_vector_scalar = false, .vector_perf_mode = true,
    .cores_per_device = 8, .hbm_bytes_per_ns = 4900.0,
    .host_link = "PCIe Gen5 x16 (assumed)", .host_cpu = "not published (assumed as trn2)",
    .host_link_bytes_per_ns = 50.4, .host_fp64_flops_per_ns = 3.5, .host_roundtrip_ns = 4600.0};
}  // namespace

const HardwareSpec& hardware_spec(Generation g) {
  switch (g) {
    case Generation::trn2: return kTrn2;
    case Generation::trn3: return kTrn3;
    default: return kTrn1;
  }
}

bool parse_generation(std::string_view s, Generation* out) {
  if (s == "trn1" || s == "gen2") *out = Generation::trn1;
  else if (s == "trn2" || s == "gen3") *out = Generation::trn2;
  else if (s == "trn3" || s == "gen4") *out = Generation::trn3;
  else return false;
  return true;
}

}  // namespace trn
