#include "core/number_text.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>

namespace etviz {

NumberText parse_double(std::string_view text, double& value) {
  if (text.empty()) return NumberText::kInvalid;
#if defined(__cpp_lib_to_chars)
  double v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ptr != text.data() + text.size()) return NumberText::kInvalid;
  if (ec == std::errc::result_out_of_range) return NumberText::kOutOfRange;
  if (ec != std::errc()) return NumberText::kInvalid;
  value = v;
  return NumberText::kOk;
#else
  // strtod also takes what from_chars refuses: a leading '+' or spaces, hex floats.
  const char first = text.front();
  if (first == '+' || first == ' ' || first == '\t' || first == '\n' || first == '\r')
    return NumberText::kInvalid;
  if (text.find_first_of("xX") != std::string_view::npos) return NumberText::kInvalid;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return NumberText::kInvalid;
  if (errno == ERANGE) return NumberText::kOutOfRange;
  value = v;
  return NumberText::kOk;
#endif
}

}  // namespace etviz
