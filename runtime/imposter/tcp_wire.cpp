#include "runtime/imposter/tcp_wire.h"

#include "compiler/base64.h"
#include "compiler/js_value.h"

namespace rift {
namespace {

WireResponse raw(std::string bytes) {
  WireResponse wire;
  wire.after_date = std::move(bytes);
  wire.add_date = false;
  wire.close = false;
  return wire;
}

const ir::Json* member(const ir::Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

WireContext::Wire wire_of(const ir::ImposterSettings& imposter) {
  if (imposter.protocol != "tcp") return WireContext::Wire::kHttp;
  return imposter.mode == "binary" ? WireContext::Wire::kTcpBinary : WireContext::Wire::kTcpText;
}

WireResponse render_tcp(const ir::Json& is, const std::optional<ir::Json>& defaults, bool binary) {
  static const ir::Json kDefault = {{"data", ""}};
  const ir::Json* data = member(is, "data");
  if (!js::truthy(data)) data = member(defaults ? *defaults : kDefault, "data");
  if (data && data->is_string()) {
    const std::string& text = data->get_ref<const std::string&>();
    return raw(binary ? base64_decode_lenient(text) : text);
  }
  if (data && data->is_array()) {  // Buffer.from(array): each element's low byte
    std::string bytes;
    for (const auto& element : *data) {
      bytes.push_back(static_cast<char>(js::to_int32(js::to_number(&element)) & 0xff));
    }
    return raw(std::move(bytes));
  }
  return raw(R"({"errors":[{"code":"ERR_INVALID_ARG_TYPE"}]})");
}

WireResponse render_tcp_error(const MbError& error) {
  ir::Json body = ir::Json::object();
  body["errors"] = ir::Json::array({error.to_json()});
  return raw(js::stringify(body));
}

}  // namespace rift
