// A small blocking HTTP client for `rift save|replay`, which talk to a running server's admin API.
#pragma once

#include <optional>
#include <string>

namespace rift {

struct AdminClientReply {
  int status = 0;
  std::string body;
};

// Sends one request with Connection: close and reads the whole answer. nullopt when the server
// cannot be reached.
std::optional<AdminClientReply> admin_request(const std::string& host, int port,
                                              const std::string& method, const std::string& target,
                                              const std::string& body,
                                              const std::optional<std::string>& apikey);

}  // namespace rift
