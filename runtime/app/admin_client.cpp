#include "runtime/app/admin_client.h"

#include <boost/asio.hpp>
#include <sstream>

#include "compiler/ascii.h"

namespace rift {

std::optional<AdminClientReply> admin_request(const std::string& host, int port,
                                              const std::string& method, const std::string& target,
                                              const std::string& body,
                                              const std::optional<std::string>& apikey) {
  boost::asio::ip::tcp::iostream stream;
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(host, std::to_string(port));
  if (!stream) return std::nullopt;
  stream << method << ' ' << target << " HTTP/1.1\r\n"
         << "Host: " << host << ':' << port << "\r\n"
         << "Connection: close\r\n"
         << "Content-Type: application/json\r\n"
         << "Content-Length: " << body.size() << "\r\n";
  if (apikey) stream << "x-api-key: " << *apikey << "\r\n";
  stream << "\r\n" << body;
  stream.flush();

  AdminClientReply reply;
  std::string version;
  stream >> version >> reply.status;
  if (!stream) return std::nullopt;
  std::string line;
  std::getline(stream, line);
  size_t length = std::string::npos;
  while (std::getline(stream, line) && line != "\r" && !line.empty()) {
    if (ascii::lower(line).rfind("content-length:", 0) == 0) length = std::stoul(line.substr(15));
  }
  std::ostringstream rest;
  rest << stream.rdbuf();
  reply.body = rest.str();
  if (length != std::string::npos && reply.body.size() > length) reply.body.resize(length);
  return reply;
}

}  // namespace rift
