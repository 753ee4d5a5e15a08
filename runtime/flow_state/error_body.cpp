#include "runtime/flow_state/error_body.h"

namespace rift::flow_state {

int error_status(const StoreError& error) {
  return error.kind == StoreError::Kind::kUnavailable ? 503 : 500;
}

ir::Json error_body(const StoreError& error) {
  ir::Json entry = ir::Json::object();
  ir::Json body = ir::Json::object();
  body["detail"] = error.detail;
  if (error.kind == StoreError::Kind::kUnavailable) {
    body["error"] = "backendUnavailable";
    entry["code"] = "503";
    entry["detail"] = error.detail;
    entry["feature"] = "flowState";
    entry["message"] = "flowState: " + error.detail;
    entry["type"] = "backend unavailable";
    body["errors"] = ir::Json::array({entry});
    body["feature"] = "flowState";
  } else {
    body["error"] = "internalError";
    entry["code"] = "500";
    entry["message"] = error.detail;
    entry["type"] = "internal error";
    body["errors"] = ir::Json::array({entry});
  }
  return body;
}

}  // namespace rift::flow_state
