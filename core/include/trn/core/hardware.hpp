// Per-generation NeuronCore parameters as data (one table row per generation, each number with
// its source, tags of docs/references.md). Kernels and the emulator query these; no
// hardware constant is written as a literal anywhere else.
#pragma once
#include <cstdint>
#include <string_view>

#include "trncore.h"

namespace trn {

enum class Generation : std::uint8_t { trn1 = TRN_TARGET_TRN1, trn2 = TRN_TARGET_TRN2, trn3 = TRN_TARGET_TRN3 };

struct HardwareSpec {
  Generation generation;
  std::string_view name;        // "trn1"
  std::string_view nc_version;  // "NeuronCore-v2"
  // Memories (ARCH2/3/4).
  int pmax;                             // partitions of SBUF and PSUM (nl.tile_size.pmax)
  std::int64_t sbuf_partition_bytes;    // 192 KiB trn1, 224 KiB trn2, 256 KiB trn3 (derived)
  std::int64_t psum_partition_bytes;    // 16 KiB
  int psum_banks;                       // 8
  std::int64_t psum_bank_bytes;         // 2 KiB = 512 fp32 (psum_bank_fmax)
  // Tile-size limits (nl.tile_size, NL; ISA nc_matmul).
  int gemm_stationary_fmax;        // 128: matmul stationary free size (PE columns)
  int gemm_moving_fmax;            // 512 (one PSUM bank); v4: 4096 fp32 dst across all banks
  int bn_stats_fmax;               // 512
  std::int64_t vector_sbuf_fmax;   // VectorE/ScalarE free size from SBUF: 64K elements (ARCH2)
  std::int64_t vector_psum_fmax;   // ... from PSUM: 4K elements (ARCH2)
  int vector_transpose_max;        // 32: VectorE nc_transpose block
  int access_pattern_max_dims;     // 4 free dimensions (ARCH2)
  // Features.
  bool fp8_e4m3fn_native;          // OCP E4M3FN only from Trn3 (EVRF051)
  bool fp8_double_row;             // nc_matmul perf_mode double_row: NC-v3/v4, fp8 only (ARCH3)
  bool tensor_transpose_bit_accurate;  // v3+: is_transpose mode; v2 transposes through the multiplier
  bool dma_transpose;              // v3+
  // Clocks (GHz) and engine constants for the cost model (ARCH2/3/4, ISA-OLD, PERF).
  double tensor_ghz, vector_ghz, scalar_ghz, gpsimd_ghz;
  int matmul_min_ii;          // MM_INIT_LATENCY: 64 TensorE cycles
  int engine_min_ii;          // MIN_II ~ 64 (ISA-OLD)
  int gpsimd_start;           // GPSIMD_START ~ 150
  int dma_engines;            // 16 per NC
  double dma_bytes_per_ns;    // achievable per DMA engine: 17 / 23 / 33 B/ns
  double dma_fixed_ns;        // descriptor + semaphore-to-start: ~1300 ns (DMABW)
  int dma_partitions_per_engine;  // 8 (DMAOV)
  // Cost-model constants that the documentation does not give directly (docs/cost-model.md
  // explains each choice and its expected error).
  int engine_latency_cycles;      // result latency of Vector/Scalar/GpSimd instructions: 200, so that a
                                  // dependent chain issues every 64 + 200 = 264 cycles (PERF: ~189 ns on trn1)
  int matmul_fp32_passes;         // fp32 matmul costs 4x bf16 (ARCH2)
  // DMA calibration (docs/cost-model.md section 3): every partition row of a transfer is one
  // descriptor costing dma_descriptor_ns on its engine (= 256 B at the effective bandwidth, which
  // reproduces DMABW's bands: < 256 B overhead-bound, >= 4 KiB ~94%); transfers with an HBM
  // endpoint move data at dma_bytes_per_ns * dma_hbm_efficiency per engine. trn1's 0.5 is fitted to
  // MMTUT's measured latencies (older revision: ~100 GB/s per NeuronCore for its tile loads);
  // trn2 1.0 reproduces MMTUT's trn2 engine-activity figures; trn3 assumed as trn2.
  double dma_descriptor_ns;
  double dma_hbm_efficiency;
  double semaphore_ns;            // cross-engine semaphore wait between compute engines
  bool shared_sbuf_port_vector_gpsimd;  // NC-v2: VectorE and GpSimdE cannot access SBUF in parallel
  bool shared_psum_port_vector_scalar;  // NC-v2: VectorE and ScalarE cannot access PSUM in parallel
  bool vector_perf_mode;          // NC-v3+: 2x/4x VectorE modes for 16-bit SBUF data (ARCH3)
  int cores_per_device;           // NeuronCores sharing one chip's HBM: 2 (Trn1), 8 (Trn2), 8 (Trn3, assumed)
  double hbm_bytes_per_ns;        // chip HBM bandwidth: 820 GiB/s, 2.9 TB/s, 4.9 TB/s
  // Host round trips (record_host_step; docs/cost-model.md section 7): fp64 work no engine can do
  // runs on the instance's CPU. Time = host_roundtrip_ns + bytes over the link / host_link_bytes_per_ns
  // + fp64 flops / host_fp64_flops_per_ns. Each number is a documented choice (CostModelOptions::host
  // overrides any of them).
  std::string_view host_link;     // the link between the chip and the host CPU
  std::string_view host_cpu;      // the instance's CPU
  double host_link_bytes_per_ns;  // achievable per direction over host_link
  double host_fp64_flops_per_ns;  // sustained fp64 rate of one host thread in scalar loops
  double host_roundtrip_ns;       // fixed cost of one round trip (sync, two transfers' setup, relaunch)
  double tensor_peak_flops() const { return 2.0 * pmax * gemm_stationary_fmax * tensor_ghz * 1e9; }
};

const HardwareSpec& hardware_spec(Generation g);
// Parses "trn1", "trn2", "trn3" (also "gen2".."gen4"); returns false on anything else.
bool parse_generation(std::string_view s, Generation* out);

}  // namespace trn
