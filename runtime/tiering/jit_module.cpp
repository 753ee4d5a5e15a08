#include "runtime/tiering/jit_module.h"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace rift {
namespace {

constexpr const char* kModuleName = "librift-jit.so";
constexpr const char* kEntryPoint = "rift_jit_make_tier_compiler";

using Entry = void (*)(std::variant<std::unique_ptr<TierCompiler>, std::string>*);

}  // namespace

std::variant<std::unique_ptr<TierCompiler>, std::string> load_jit_module() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "cannot find this executable to load the JIT module: " + error.message();
  const std::string path = (executable.parent_path() / kModuleName).string();
  // Never closed: see jit_module.h.
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (module == nullptr) return "cannot load the JIT module: " + std::string(dlerror());
  auto entry = reinterpret_cast<Entry>(dlsym(module, kEntryPoint));
  if (entry == nullptr) return path + " is not Rift's JIT module (no " + kEntryPoint + ")";
  std::variant<std::unique_ptr<TierCompiler>, std::string> made;
  entry(&made);
  return made;
}

}  // namespace rift
