// The C-shim kit's non-template parts: logging destinations and message formats (fmt).
#include "trn/core/c_shim.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace trn::cshim {

Logger::Logger(std::string_view env_prefix) {
  const std::string prefix(env_prefix);
  if (const char* e = std::getenv((prefix + "_LOGINFO_DBG").c_str())) on_ = std::atoi(e) != 0;
  if (const char* d = std::getenv((prefix + "_LOGDEST_DBG").c_str())) {
    const std::string_view s = d;
    if (s == "stdout") to_stdout_ = true;
    else if (s == "stderr") to_stderr_ = true;
    else file_ = s;
  }
  // Logging switched on with no destination prints to stderr (a log nobody can see helps nobody).
  if (on_ && !to_stdout_ && !to_stderr_ && file_.empty()) to_stderr_ = true;
}

void Logger::configure(bool on, bool to_stdout, bool to_stderr, const char* file) {
  std::lock_guard<std::mutex> lock(mu_);
  on_ = on;
  to_stdout_ = to_stdout;
  to_stderr_ = to_stderr;
  file_ = file != nullptr ? file : "";
}

void Logger::set_callback(LogCallback cb) {
  std::lock_guard<std::mutex> lock(mu_);
  callback_ = cb;
}

LogCallback Logger::callback() const {
  std::lock_guard<std::mutex> lock(mu_);
  return callback_;
}

bool Logger::on() const {
  std::lock_guard<std::mutex> lock(mu_);
  return on_;
}

void Logger::set_level_callback(LevelCallback cb) {
  std::lock_guard<std::mutex> lock(mu_);
  level_callback_ = cb;
}

void Logger::set_stream(std::FILE* f) {
  std::lock_guard<std::mutex> lock(mu_);
  stream_ = f;
  if (f == nullptr) return;
  on_ = true;
  to_stdout_ = to_stderr_ = false;
  file_.clear();
}

void Logger::set_level(int level) {
  std::lock_guard<std::mutex> lock(mu_);
  // Every message a trnsci library emits is an error (level 1): levels 1..5 all show it.
  on_ = level > 0;
  to_stdout_ = false;
  to_stderr_ = on_ && stream_ == nullptr;
  file_.clear();
}

void Logger::set_mask(int mask) { set_level(mask & 1); }

void Logger::force_disable() {
  std::lock_guard<std::mutex> lock(mu_);
  on_ = to_stdout_ = to_stderr_ = false;
  file_.clear();
  stream_ = nullptr;
}

std::string function_of(std::string_view msg) {
  constexpr std::string_view entry = " ** On entry to ";
  if (msg.substr(0, entry.size()) == entry) {
    const std::string_view rest = msg.substr(entry.size());
    return std::string(rest.substr(0, rest.find(' ')));
  }
  return std::string(msg.substr(0, msg.find(':')));
}

void Logger::log(std::string_view msg) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (callback_ != nullptr || level_callback_ != nullptr) {
    const std::string line(msg);
    if (callback_ != nullptr) callback_(line.c_str());
    if (level_callback_ != nullptr) level_callback_(1, function_of(line).c_str(), line.c_str());
  }
  if (!on_) return;
  if (to_stdout_) fmt::print(stdout, "{}\n", msg);
  if (to_stderr_) fmt::print(stderr, "{}\n", msg);
  if (stream_ != nullptr) fmt::print(stream_, "{}\n", msg);
  if (!file_.empty())
    if (std::FILE* f = std::fopen(file_.c_str(), "a")) {
      fmt::print(f, "{}\n", msg);
      std::fclose(f);
    }
}

std::string illegal_value_message(std::string_view fn, int position, std::string_view name) {
  return fmt::format(" ** On entry to {} parameter number {} ({}) had an illegal value", fn, position, name);
}

std::string failure_message(std::string_view fn, std::string_view status_name, std::string_view why) {
  return fmt::format("{}: {}: {}", fn, status_name, why);
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) return -1;
  return r;
}

std::int64_t checked_extent(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows < 0 || cols < 0 || ld < 0) return -1;
  if (rows == 0 || cols == 0) return 0;
  const std::int64_t span = checked_mul(ld, cols - 1);
  std::int64_t r = 0;
  if (span < 0 || __builtin_add_overflow(span, rows, &r)) return -1;
  return r;
}

}  // namespace trn::cshim
