// Internal helpers shared by the engine implementations: operand validation (every check names
// the instruction, the operand, the value and the limit) and row-wise access-pattern iteration
// (one partition row at a time through an fp32 or int64 scratch buffer, so the arithmetic is a
// plain vectorisable loop and the dtype switch happens once per row).
#pragma once
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "trn/core/neuron_core.hpp"

namespace trn::detail {

void require_mem(std::string_view instr, std::string_view operand, const Tile& t,
                 std::initializer_list<MemSpace> allowed);
// Partition-start alignment of compute-engine operands (ARCH2):
// 64 < P <= 128 -> start 0; 32 < P <= 64 -> 0 or 64; P <= 32 -> 0, 32, 64 or 96.
void require_partition_alignment(std::string_view instr, std::string_view operand, const Tile& t,
                                 const HardwareSpec& hw);
void require_same_partitions(std::string_view instr, std::string_view a_name, const Tile& a, std::string_view b_name,
                             const Tile& b);
void require_same_free_size(std::string_view instr, std::string_view a_name, const Tile& a, std::string_view b_name,
                            const Tile& b);
// VectorE/ScalarE/GpSimdE free-size limits: 64K elements from SBUF, 4K from PSUM (ARCH2).
void require_engine_free_size(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& hw);
void require_nonempty(std::string_view instr, std::string_view operand, const Tile& t);
// Engines move data within partitions: a partition-broadcast view (stride 0) is a DMA source only.
void require_physical_partitions(std::string_view instr, std::string_view operand, const Tile& t);
// Common checks of an on-chip compute operand: memory space, alignment, non-empty, free-size limit.
void check_engine_operand(std::string_view instr, std::string_view operand, const Tile& t, const HardwareSpec& hw,
                          Engine engine);

// fp32 row access: element order is the tile's access-pattern order.
void load_row(const Tile& t, std::int32_t p, float* out);
// Row p as fp32 for reading: a pointer into the tile itself when it is fp32 with a contiguous free
// range (no copy), else the row loaded into `scratch`.
const float* read_row_f32(const Tile& t, std::int32_t p, float* scratch);
// True when no byte of `a` can be a byte of `b` (different memory, partitions or byte ranges).
bool tiles_disjoint(const Tile& a, const Tile& b);
void store_row(const Tile& t, std::int32_t p, const float* in, Rounding r, const SrStream* sr);
// exact integer row access (integer dtypes only)
void load_row_int(const Tile& t, std::int32_t p, std::int64_t* out);
void store_row_int(const Tile& t, std::int32_t p, const std::int64_t* in);
// raw byte copy of a row between tiles of the same dtype (bit-exact copies; uses scratch_i64 slot 3)
void copy_row_bits(const Tile& dst, std::int32_t pd, const Tile& src, std::int32_t ps);
// copy_row_bits for every partition (p to p) when the rows are 4-byte elements, one side's free
// pattern is dense and the other's innermost stride is 2 (an interleaved complex plane), the two in
// different memories (HBM and SBUF: disjoint) and the CPU has AVX-512: the same bytes, the run
// offsets computed once for all partitions. Returns false (nothing copied) otherwise.
bool copy_rows_stride2_bits(const Tile& dst, const Tile& src);

// Every element of t (all partitions, access-pattern order) set to the dtype_size(t.dtype) bytes
// at `elem`: memset's element work (one value, rounded once) without a conversion per element.
void fill_elements(const Tile& t, const std::byte* elem);
// True when t's free pattern is one run (size-1 and continuing dimensions folded, as load_row
// walks it): element f of partition p is then at base + p * partition_stride + f * stride_elems * es.
bool single_run(const Tile& t, std::int64_t& stride_elems);

// Per-thread scratch buffers (grown on demand, never shrunk).
float* scratch_f32(int slot, std::size_t n);
std::int64_t* scratch_i64(int slot, std::size_t n);

// Fill a trace record's common fields for an element-wise instruction.
void describe(Instruction& ins, const Tile& dst, std::initializer_list<const Tile*> srcs);

// Host-time probe of the instruction stream (bench/bench_core_instructions.cpp): while on, every
// committed instruction appends its record and the time-stamp counter at its commit to a buffer
// of the committing thread, so the bench gets each instruction's host cost (the interval since the
// thread's previous commit: argument checks, dispatch, element work, trace). Off by default: one
// relaxed load per instruction; it changes no bits and no modeled time.
struct InstrProbeSample {
  std::uint64_t tsc = 0;
  int thread = 0;
  Instruction ins;
};
inline std::atomic<bool> g_instr_probe{false};
void instr_probe_commit(const Instruction& ins);
// Every thread's samples so far (in commit order per thread); clears the buffers.
std::vector<InstrProbeSample> instr_probe_take();

}  // namespace trn::detail
