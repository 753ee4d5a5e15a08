// The few facts about the rift process that `process` needs and JavaScript cannot see.
#include "runtime/script/native_process.h"

#include <js/Array.h>
#include <js/CallArgs.h>
#include <js/Conversions.h>
#include <js/GCAPI.h>
#include <js/PropertyAndElement.h>
#include <js/String.h>
#include <jsapi.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace rift::script {
namespace {

// Environment values and paths need not be UTF-8; those that are not become Latin-1 text
// rather than failing the whole object.
JSString* text(JSContext* context, std::string_view value) {
  if (JSString* utf8 = JS_NewStringCopyUTF8N(context, JS::UTF8Chars(value.data(), value.size()))) {
    return utf8;
  }
  JS_ClearPendingException(context);
  return JS_NewStringCopyN(context, value.data(), value.size());
}

bool set_text(JSContext* context, JS::MutableHandleValue out, std::string_view value) {
  JSString* string = text(context, value);
  if (string == nullptr) return false;
  out.setString(string);
  return true;
}

bool environment(JSContext* context, JS::MutableHandleValue out) {
  JS::RootedObject object(context, JS_NewPlainObject(context));
  if (!object) return false;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view pair(*entry);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos || equals == 0) continue;
    const std::string name(pair.substr(0, equals));
    JS::RootedValue value(context);
    if (!set_text(context, &value, pair.substr(equals + 1)) ||
        !JS_SetProperty(context, object, name.c_str(), value)) {
      return false;
    }
  }
  out.setObject(*object);
  return true;
}

// Linux keeps the command line, NUL-separated, in /proc/self/cmdline; argv[0] is replaced by
// the executable's absolute path, as Node's process.argv[0] is.
bool arguments(JSContext* context, JS::MutableHandleValue out) {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> parts;
  for (size_t start = 0; start < all.size();) {
    const size_t end = all.find('\0', start);
    parts.emplace_back(all.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  char exe[4096];
  const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe);
  if (length > 0 && !parts.empty()) parts[0].assign(exe, static_cast<size_t>(length));
  JS::RootedObject array(context, JS::NewArrayObject(context, parts.size()));
  if (!array) return false;
  for (size_t i = 0; i < parts.size(); ++i) {
    JS::RootedValue value(context);
    if (!set_text(context, &value, parts[i]) ||
        !JS_SetElement(context, array, static_cast<uint32_t>(i), value)) {
      return false;
    }
  }
  out.setObject(*array);
  return true;
}

bool pair(JSContext* context, JS::MutableHandleValue out, double first, double second) {
  JS::RootedObject array(context, JS::NewArrayObject(context, 2));
  if (!array || !JS_SetElement(context, array, 0u, first) ||
      !JS_SetElement(context, array, 1u, second)) {
    return false;
  }
  out.setObject(*array);
  return true;
}

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

bool process_native(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string what;
  if (args.length() > 0) {
    JS::RootedString name(context, JS::ToString(context, args[0]));
    if (!name) return false;
    JS::UniqueChars utf8 = JS_EncodeStringToUTF8(context, name);
    if (!utf8) return false;
    what = utf8.get();
  }
  if (what == "env") return environment(context, args.rval());
  if (what == "argv") return arguments(context, args.rval());
  if (what == "pid") {
    args.rval().setNumber(static_cast<double>(getpid()));
    return true;
  }
  if (what == "ppid") {
    args.rval().setNumber(static_cast<double>(getppid()));
    return true;
  }
  if (what == "cwd") {
    char path[4096];
    if (getcwd(path, sizeof path) == nullptr) {
      JS_ReportErrorASCII(context, "process.cwd(): the working directory cannot be read");
      return false;
    }
    return set_text(context, args.rval(), path);
  }
  if (what == "execPath") {
    char path[4096];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path);
    return set_text(context, args.rval(),
                    std::string_view(path, length > 0 ? static_cast<size_t>(length) : 0));
  }
  if (what == "arch") {
#if defined(__aarch64__)
    return set_text(context, args.rval(), "arm64");
#else
    return set_text(context, args.rval(), "x64");
#endif
  }
  if (what == "hrtime") {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return pair(context, args.rval(), static_cast<double>(now.tv_sec),
                static_cast<double>(now.tv_nsec));
  }
  if (what == "memory") {
    return pair(context, args.rval(), resident_bytes(),
                static_cast<double>(JS_GetGCParameter(context, JSGC_BYTES)));
  }
  JS_ReportErrorASCII(context, "__riftProcess: unknown '%s'", what.c_str());
  return false;
}

}  // namespace

bool define_process_natives(JSContext* context, JS::HandleObject global) {
  return JS_DefineFunction(context, global, "__riftProcess", process_native, 1, 0);
}

}  // namespace rift::script
