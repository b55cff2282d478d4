// An optional value as JSON: the value, or null when there is none. Shared by every JSON writer.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace clgemm {

template <typename T>
nlohmann::json jsonOrNull(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace clgemm
