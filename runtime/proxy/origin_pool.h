// Idle keep-alive connections to proxy origins, one pool per worker event loop.
//
// An Asio service, so each io_context owns its pool and only that loop's thread touches it:
// no lock, and the connections close when the loop is destroyed.
#pragma once

#include <boost/asio/execution_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rift::proxy {

struct OriginConnection {
  std::unique_ptr<boost::asio::ssl::context> tls_context;  // outlives `secure`
  std::unique_ptr<boost::beast::tcp_stream> plain;
  std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream>> secure;
  boost::beast::flat_buffer buffer;
  bool reused = false;
};

class OriginPool : public boost::asio::execution_context::service {
 public:
  using key_type = OriginPool;
  static inline boost::asio::execution_context::id id;

  explicit OriginPool(boost::asio::execution_context& context)
      : boost::asio::execution_context::service(context) {}

  // An idle connection for `key` (origin and TLS settings), or null.
  std::unique_ptr<OriginConnection> take(const std::string& key);
  // Keeps a connection whose last exchange left it open and in step.
  void give(const std::string& key, std::unique_ptr<OriginConnection> connection);

 private:
  void shutdown() override { idle_.clear(); }

  // Enough for a test suite's concurrency against one origin; more are simply closed.
  static constexpr size_t kMaxIdlePerOrigin = 16;
  std::map<std::string, std::vector<std::unique_ptr<OriginConnection>>> idle_;
};

}  // namespace rift::proxy
