#include "runtime/script/js_runtime.h"

#include <js/CharacterEncoding.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/Exception.h>
#include <js/Initialization.h>
#include <js/Interrupt.h>
#include <js/SourceText.h>
#include <js/String.h>
#include <jsapi.h>
#include <jsfriendapi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "runtime/script/native_crypto.h"
#include "runtime/script/native_process.h"
#include "runtime/script/node_globals.h"
#include "runtime/script/prelude.h"

namespace rift::script {
namespace {

const JSClass kGlobalClass = {
    "global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps, nullptr, nullptr, nullptr};

// The engine thread's stack is the platform default (8 MiB); SpiderMonkey must stop deep
// recursion with a catchable "too much recursion" well before the guard page.
constexpr size_t kStackQuota = 4 * 1024 * 1024;

// SpiderMonkey may be initialised once per process and never again after JS_ShutDown, so it is
// initialised on first use and shut down at exit (its own static destructors fail otherwise).
// Every context is gone by then: each Engine joins its thread before it is destroyed.
void initialise_spidermonkey() {
  static const bool initialised = [] {
    if (!JS_Init()) return false;
    std::atexit(JS_ShutDown);
    return true;
  }();
  if (!initialised) throw std::runtime_error("SpiderMonkey failed to initialise");
}

JsRuntime& runtime_of(JSContext* context) {
  return *static_cast<JsRuntime*>(JS_GetContextPrivate(context));
}

// Returning false ends the running script with an uncatchable termination. The request is
// renewed so that every later interrupt check stops too, until the engine clears it.
bool on_interrupt(JSContext* context) {
  if (!runtime_of(context).interrupted()) return true;
  JS_RequestInterruptCallback(context);
  return false;
}

// __riftLog(level, message): the prelude's logger writes to Rift's log through here.
bool log_native(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  int level = 1;
  if (args.length() > 0 && args[0].isNumber()) level = static_cast<int>(args[0].toNumber());
  std::string message;
  if (args.length() > 1) {
    JS::RootedString text(context, JS::ToString(context, args[1]));
    if (!text) return false;
    JS::UniqueChars utf8 = JS_EncodeStringToUTF8(context, text);
    if (!utf8) return false;
    message = utf8.get();
  }
  runtime_of(context).log(static_cast<LogLevel>(std::clamp(level, 0, 3)), message);
  args.rval().setUndefined();
  return true;
}

// __riftState(text): ctx.state's calls, handed to the running script's bridge as JSON text.
bool state_native(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  const auto* bridge = runtime_of(context).state_bridge();
  if (bridge == nullptr || !*bridge) {
    JS_ReportErrorASCII(context, "ctx.state is not available here");
    return false;
  }
  std::string request;
  if (args.length() > 0) {
    JS::RootedString text(context, JS::ToString(context, args[0]));
    if (!text) return false;
    JS::UniqueChars utf8 = JS_EncodeStringToUTF8(context, text);
    if (!utf8) return false;
    request = utf8.get();
  }
  const std::string answer = (*bridge)(request);
  JSString* string = JS_NewStringCopyUTF8N(context, JS::UTF8Chars(answer.data(), answer.size()));
  if (string == nullptr) return false;
  args.rval().setString(string);
  return true;
}

bool evaluate(JSContext* context, const char* file, const char* text, JS::MutableHandleValue out) {
  JS::CompileOptions compile(context);
  compile.setFileAndLine(file, 1);
  JS::SourceText<mozilla::Utf8Unit> source;
  return source.init(context, text, std::strlen(text), JS::SourceOwnership::Borrowed) &&
         JS::Evaluate(context, compile, source, out);
}

}  // namespace

void JsRuntime::ContextDeleter::operator()(JSContext* context) const {
  JS_DestroyContext(context);
}

struct JsRuntime::Roots {
  Roots(JSContext* context, JSObject* global_object)
      : global(context, global_object), realm(context, global_object), prelude(context) {}
  JS::PersistentRootedObject global;
  JSAutoRealm realm;  // every call runs in the one global's realm
  JS::PersistentRootedObject prelude;
};

JsRuntime::JsRuntime(LogSink log) : log_(std::move(log)) {
  initialise_spidermonkey();
  context_.reset(JS_NewContext(JS::DefaultHeapMaxBytes));
  if (!context_) throw std::runtime_error("cannot create a JavaScript context");
  JSContext* cx = context_.get();
  JS_SetContextPrivate(cx, this);
  JS_SetNativeStackQuota(cx, kStackQuota);
  if (!js::UseInternalJobQueues(cx) || !JS::InitSelfHostedCode(cx)) {
    throw std::runtime_error("cannot initialise the JavaScript context");
  }
  JS_AddInterruptCallback(cx, on_interrupt);

  JS::RealmOptions options;
  JSObject* global =
      JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options);
  if (global == nullptr) throw std::runtime_error("cannot create the JavaScript global");
  roots_ = std::make_unique<Roots>(cx, global);
  if (!JS_DefineFunction(cx, roots_->global, "__riftLog", log_native, 2, 0) ||
      !JS_DefineFunction(cx, roots_->global, "__riftState", state_native, 1, 0) ||
      !define_crypto_natives(cx, roots_->global) || !define_process_natives(cx, roots_->global)) {
    throw std::runtime_error("cannot define the JavaScript natives");
  }

  JS::RootedValue prelude(cx);
  if (!evaluate(cx, "rift-node-globals.js", node_globals_source(), &prelude)) {
    throw std::runtime_error("cannot load the Node globals for injections");
  }
  if (!evaluate(cx, "rift-prelude.js", prelude_source(), &prelude) || !prelude.isObject()) {
    throw std::runtime_error("cannot load the injection prelude");
  }
  roots_->prelude = &prelude.toObject();
}

JsRuntime::~JsRuntime() {
  roots_.reset();  // unrooted before the context that owns them goes
}

std::optional<std::string> JsRuntime::call(const char* name, const std::vector<Arg>& args) {
  JSContext* cx = context_.get();
  JS::RootedVector<JS::Value> values(cx);
  for (const Arg& arg : args) {
    if (const auto* text = std::get_if<std::string_view>(&arg)) {
      JSString* string = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text->data(), text->size()));
      if (string == nullptr || !values.append(JS::StringValue(string))) {
        JS_ClearPendingException(cx);
        return std::nullopt;
      }
    } else if (!values.append(JS::NumberValue(std::get<double>(arg)))) {
      return std::nullopt;
    }
  }
  JS::RootedValue result(cx);
  if (!JS_CallFunctionName(cx, roots_->prelude, name, values, &result)) {
    JS_ClearPendingException(cx);  // none after an interrupt: termination is uncatchable
    return std::nullopt;
  }
  if (result.isUndefined()) return std::string();
  JS::RootedString string(cx, JS::ToString(cx, result));
  if (!string) {
    JS_ClearPendingException(cx);
    return std::nullopt;
  }
  JS::UniqueChars utf8 = JS_EncodeStringToUTF8(cx, string);
  if (!utf8) {
    JS_ClearPendingException(cx);
    return std::nullopt;
  }
  return std::string(utf8.get());
}

std::optional<std::string> JsRuntime::syntax_error(const std::string& code) {
  JSContext* cx = context_.get();
  JS::CompileOptions options(cx);
  options.setFileAndLine("script", 1);
  JS::SourceText<mozilla::Utf8Unit> source;
  if (source.init(cx, code.data(), code.size(), JS::SourceOwnership::Borrowed)) {
    JS::RootedScript script(cx, JS::Compile(cx, options, source));
    if (script) return std::nullopt;
  }
  JS::RootedValue exception(cx);
  if (!JS_GetPendingException(cx, &exception)) return "the script cannot be compiled";
  JS_ClearPendingException(cx);
  std::string message = "the script cannot be compiled";
  if (JS::RootedString text(cx, JS::ToString(cx, exception)); text) {
    if (JS::UniqueChars utf8 = JS_EncodeStringToUTF8(cx, text)) message = utf8.get();
  }
  JS_ClearPendingException(cx);
  if (exception.isObject()) {
    JS::RootedObject error(cx, &exception.toObject());
    if (JSErrorReport* report = JS_ErrorFromException(cx, error)) {
      message +=
          " at line " + std::to_string(report->lineno) + ", col " + std::to_string(report->column);
    }
  }
  return message;
}

void JsRuntime::run_jobs() {
  js::RunJobs(context_.get());
}

void JsRuntime::interrupt() {
  interrupted_.store(true, std::memory_order_relaxed);
  JS_RequestInterruptCallback(context_.get());
}

}  // namespace rift::script
