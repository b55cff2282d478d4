// libFuzzer target for the -D parsers (host/registry/defines.hpp): parseDefine, which reads the
// argument of -D from the command line, and parseDefineInt, which reads a parameter's value from
// -D, --space and the JSON of tuned entries. Refusing an input is fine (a UsageError for
// parseDefine, false for parseDefineInt); anything else they throw, a sanitizer report or a broken
// invariant is a finding.
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "registry/defines.hpp"
#include "util/errors.hpp"

namespace {

// Stops the fuzzer with a message; abort() is what libFuzzer reports as a crash with the input.
void check(bool ok, const char* what, const std::string& input) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_defines: %s, input '%s'\n", what, input.c_str());
  std::abort();
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// The value a C compiler gives `text` as the macro's replacement in an integer expression, when it
// is a plain integer literal: an optional sign, then decimal digits, or octal ones after a leading
// 0. The host sizes the launch from parseDefineInt's value and the kernel is compiled with the
// text, so the two must agree.
std::optional<long long> compilerValue(const std::string& text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  if (i == text.size()) return std::nullopt;
  const int base = text[i] == '0' && text.size() - i > 1 ? 8 : 10;
  long long value = 0;
  for (; i < text.size(); ++i) {
    const int digit = text[i] - '0';
    if (digit < 0 || digit >= base) return std::nullopt;
    value = value * base + digit;
    if (value > 1LL << 40) return std::nullopt;  // far beyond int either way
  }
  return negative ? -value : value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);

  // parseDefineInt sees any bytes: tuned entries come from JSON, whose strings may hold anything.
  int value = 0;
  if (clgemm::parseDefineInt(bytes, value)) {
    const auto expected = compilerValue(bytes);
    check(expected.has_value(), "parseDefineInt accepted what is not an integer literal", bytes);
    check(*expected == value, "parseDefineInt's value differs from the compiler's", bytes);
  } else {
    // Every int written plainly must be accepted.
    const auto plain = compilerValue(bytes);
    check(!(plain && *plain >= INT_MIN && *plain <= INT_MAX && std::to_string(*plain) == bytes),
          "parseDefineInt refused a plain decimal int", bytes);
  }

  // parseDefine sees a command-line argument, which ends at the first NUL.
  const std::string arg(bytes.c_str());
  try {
    const clgemm::UserDefine d = clgemm::parseDefine(arg);
    check(isIdentifier(d.name), "parseDefine accepted a name that is not an identifier", arg);
    check(!d.value.empty(), "parseDefine accepted an empty value", arg);
    for (char c : d.value) {
      check(!std::isspace(static_cast<unsigned char>(c)) && c != '"' && c != '\'',
            "parseDefine accepted a value that would split the compiler options", arg);
    }
    check(d.name + "=" + d.value == arg, "parseDefine's name and value are not the argument", arg);
  } catch (const clgemm::UsageError&) {
    // A refusal with a message: what a user sees for a bad -D.
  }
  return 0;
}
