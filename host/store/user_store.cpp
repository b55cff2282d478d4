#include "store/user_store.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

}  // namespace

std::string userStoreDir(const std::string& store_option) {
  if (!store_option.empty()) return store_option;
  if (const std::string store = environment("CLGEMM_STORE"); !store.empty()) return store;
  if (const std::string xdg = environment("XDG_DATA_HOME"); !xdg.empty()) return xdg + "/clgemm";
  if (const std::string home = environment("HOME"); !home.empty())
    return home + "/.local/share/clgemm";
  return "";
}

std::string userStoreSubdir(const std::string& store, const std::string& sub) {
  return store.empty() ? std::string() : store + "/" + sub;
}

std::string fileSlug(const std::string& name) {
  std::string slug;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      slug += char(std::tolower(static_cast<unsigned char>(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "device" : slug;
}

void ensureStoreDir(const std::string& dir, const std::string& option) {
  if (dir.empty()) throw UsageError("no store folder: set --store DIR, $CLGEMM_STORE or $HOME");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw UsageError(option + ": cannot create the store folder '" + dir +
                     "': " + (ec ? ec.message() : std::string("not a directory")));
}

}  // namespace clgemm
