#include "trn/core/error.hpp"

namespace trn {

namespace {
std::string limit_message(const std::string& instr, const std::string& operand, const std::string& quantity,
                          std::int64_t value, const std::string& limit_name, std::int64_t limit,
                          std::string_view gen) {
  std::string m = instr + ": operand '" + operand + "': " + quantity + " " + std::to_string(value) + " violates " +
                  limit_name + " " + std::to_string(limit);
  if (!gen.empty()) m += " (" + std::string(gen) + ")";
  return m;
}
}  // namespace

LimitError::LimitError(std::string instruction, std::string operand, std::string quantity, std::int64_t value,
                       std::string limit_name, std::int64_t limit, std::string_view generation)
    : Error(limit_message(instruction, operand, quantity, value, limit_name, limit, generation)),
      instruction_(std::move(instruction)),
      operand_(std::move(operand)),
      value_(value),
      limit_(limit) {}

UsageError::UsageError(std::string_view instruction, std::string_view operand, std::string_view what)
    : Error(std::string(instruction) + ": operand '" + std::string(operand) + "': " + std::string(what)) {}

NotSupportedError::NotSupportedError(std::string_view instruction, std::string_view what, std::string_view generation)
    : Error(std::string(instruction) + ": " + std::string(what) + " is not supported on " + std::string(generation)) {}

}  // namespace trn
