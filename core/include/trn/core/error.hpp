// Errors raised by the emulator. Every limit violation names the instruction, the operand, the
// offending value and the limit, e.g.
//   "nc_matmul: operand 'moving': free size 600 exceeds gemm_moving_fmax 512 (trn1)".
// C entry points of the libraries catch these and turn them into status codes.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace trn {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A hardware limit (tile size, capacity, alignment, memory-space rule) was violated.
class LimitError : public Error {
 public:
  LimitError(std::string instruction, std::string operand, std::string quantity, std::int64_t value,
             std::string limit_name, std::int64_t limit, std::string_view generation);
  const std::string& instruction() const { return instruction_; }
  const std::string& operand() const { return operand_; }
  std::int64_t value() const { return value_; }
  std::int64_t limit() const { return limit_; }

 private:
  std::string instruction_, operand_;
  std::int64_t value_, limit_;
};

// An instruction was used in a way the hardware does not allow (wrong memory space, dtype
// combination, engine), or a feature is not available on the selected generation.
class UsageError : public Error {
 public:
  // "<instruction>: operand '<operand>': <what>".
  UsageError(std::string_view instruction, std::string_view operand, std::string_view what);
  // A message written whole by the caller.
  explicit UsageError(std::string message) : Error(std::move(message)) {}
};

// An argument the caller can fix: a mode label, an extent, an index array, an einsum character.
// The one exception every library throws for it (trnsparse and trntensor name it through their
// namespaces); C shims map it to their INVALID_VALUE with the parameter `item()` names.
//   item():     the argument ("offsets", "columns", "modeA", ...);
//   position(): a 0-based character position for strings (einsum subscripts), -1 otherwise.
class InvalidArgument : public UsageError {
 public:
  // "<where>: operand '<item>': <what>", as UsageError.
  InvalidArgument(std::string_view where, std::string_view item, std::string_view what, std::int64_t position = -1)
      : UsageError(where, item, what), item_(item), position_(position) {}
  // A message that already names the argument.
  InvalidArgument(std::string message, std::string item) : UsageError(std::move(message)), item_(std::move(item)) {}
  const std::string& item() const { return item_; }
  std::int64_t position() const { return position_; }

 private:
  std::string item_;
  std::int64_t position_ = -1;
};
class NotSupportedError : public Error {
 public:
  NotSupportedError(std::string_view instruction, std::string_view what, std::string_view generation);
};

}  // namespace trn
