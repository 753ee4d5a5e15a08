#include "runtime/proxy/origin_client.h"

#include <openssl/ssl.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdlib>

#include "compiler/ascii.h"
#include "runtime/proxy/origin_pool.h"

namespace rift::proxy {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

// Node (and so Mountebank) has no limit of its own on a response body; this one only keeps a
// runaway origin from exhausting memory.
constexpr uint64_t kMaxBodyBytes = 1ull << 30;

MbError invalid_proxy(const std::string& message) {
  return MbError{"invalid proxy", message, std::nullopt};
}

std::string quoted(const std::string& text) {
  return ir::Json(text).dump();
}

bool is_unreachable(const beast::error_code& error) {
  return error == asio::error::connection_refused || error == asio::error::connection_reset ||
         error == asio::error::host_unreachable || error == asio::error::network_unreachable;
}

MbError connection_error(const Origin& origin, const beast::error_code& error) {
  if (is_unreachable(error)) return invalid_proxy("Unable to connect to " + quoted(origin.to));
  return invalid_proxy(error.message());
}

http::request<http::string_body> to_beast(OutboundRequest request) {
  http::request<http::string_body> out;
  out.method_string(request.method);
  out.target(request.target);
  out.version(11);
  for (auto& [name, value] : request.headers) out.insert(name, value);
  out.body() = std::move(request.body);
  return out;  // no prepare_payload(): the headers are exactly the ones given
}

// One request and response on an open connection.
struct Exchange {
  OriginResult result;
  bool keep = false;          // the connection may carry another exchange
  bool nothing_back = false;  // failed before any byte of a response arrived
};

template <typename Stream>
asio::awaitable<Exchange> round_trip(Stream& stream, beast::flat_buffer& buffer,
                                     const Origin& origin,
                                     http::request<http::string_body>& request) {
  if (auto [error, written] = co_await http::async_write(stream, request, kTuple); error) {
    co_return Exchange{connection_error(origin, error), false, true};
  }
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxBodyBytes);
  parser.header_limit(1 << 20);
  if (request.method() == http::verb::head) parser.skip(true);
  if (auto [error, read] = co_await http::async_read(stream, buffer, parser, kTuple); error) {
    co_return Exchange{connection_error(origin, error), false, !parser.got_some()};
  }
  OriginResponse out;
  auto& response = parser.get();
  out.status = static_cast<int>(response.result_int());
  for (const auto& field : response) {
    // An origin that is itself an imposter marks its answers; the markers describe that
    // imposter, not this one, which adds its own (docs/rift-compatibility.md#marker-headers).
    if (field.name_string().size() >= 7 &&
        ascii::iequals(field.name_string().substr(0, 7), "x-rift-")) {
      continue;
    }
    out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  out.body = std::move(response.body());
  const bool keep = parser.keep_alive() && request.keep_alive() && buffer.size() == 0;
  co_return Exchange{std::move(out), keep, false};
}

bool is_ip_literal(const std::string& host) {
  beast::error_code error;
  asio::ip::make_address(host, error);
  return !error;
}

asio::awaitable<std::variant<tcp::resolver::results_type, MbError>> resolve(const Origin& origin) {
  tcp::resolver resolver(co_await asio::this_coro::executor);
  auto [error, endpoints] = co_await resolver.async_resolve(origin.host, origin.port, kTuple);
  if (error) co_return invalid_proxy("Cannot resolve " + quoted(origin.to));
  co_return endpoints;
}

std::optional<MbError> configure(asio::ssl::context& context, const ClientTls& tls) {
  context.set_verify_mode(asio::ssl::verify_none);
  if (SSL_CTX_set_cipher_list(context.native_handle(), tls.ciphers.c_str()) != 1) {
    return invalid_proxy("invalid proxy ciphers " + quoted(tls.ciphers));
  }
  beast::error_code error;
  if (tls.passphrase) {
    context.set_password_callback(
        [passphrase = *tls.passphrase](std::size_t, asio::ssl::context::password_purpose) {
          return passphrase;
        });
  }
  if (tls.cert) context.use_certificate_chain(asio::buffer(*tls.cert), error);
  if (!error && tls.key)
    context.use_private_key(asio::buffer(*tls.key), asio::ssl::context::pem, error);
  if (error) return invalid_proxy("invalid proxy certificate or key: " + error.message());
  return std::nullopt;
}

using Connected = std::variant<std::unique_ptr<OriginConnection>, MbError>;

std::string host_and_port(const Origin& origin) {
  return (origin.host.find(':') != std::string::npos ? "[" + origin.host + "]" : origin.host) +
         ":" + origin.port;
}

// The forward proxy Mountebank's agents use: lower-case `http_proxy` for http origins,
// `https_proxy` for https ones (tunnelled with CONNECT).
std::optional<Origin> forward_proxy(const Origin& origin) {
  const char* value = std::getenv(origin.tls ? "https_proxy" : "http_proxy");
  if (value == nullptr || *value == '\0') return std::nullopt;
  return parse_origin(value);
}

// Asks the forward proxy for a tunnel to `origin`; the TLS handshake then runs through it.
asio::awaitable<std::optional<MbError>> open_tunnel(beast::tcp_stream& stream,
                                                    const Origin& origin) {
  http::request<http::empty_body> request{http::verb::connect, host_and_port(origin), 11};
  request.set(http::field::host, host_and_port(origin));
  if (auto [error, written] = co_await http::async_write(stream, request, kTuple); error) {
    co_return connection_error(origin, error);
  }
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a CONNECT answer has no body: what follows belongs to the tunnel
  if (auto [error, read] = co_await http::async_read_header(stream, buffer, parser, kTuple);
      error) {
    co_return connection_error(origin, error);
  }
  if (parser.get().result_int() / 100 != 2) {
    co_return invalid_proxy("Unable to connect to " + quoted(origin.to) + " through its proxy");
  }
  co_return std::nullopt;
}

asio::awaitable<Connected> connect(const Origin& origin, const ClientTls& tls,
                                   const std::optional<Origin>& via) {
  auto resolved = co_await resolve(via ? *via : origin);
  if (auto* error = std::get_if<MbError>(&resolved)) co_return *error;
  const auto& endpoints = std::get<tcp::resolver::results_type>(resolved);
  const auto executor = co_await asio::this_coro::executor;
  auto connection = std::make_unique<OriginConnection>();

  if (!origin.tls) {
    connection->plain = std::make_unique<beast::tcp_stream>(executor);
    if (auto [error, endpoint] = co_await connection->plain->async_connect(endpoints, kTuple);
        error) {
      co_return connection_error(origin, error);
    }
    co_return connection;
  }
  connection->tls_context = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
  if (auto error = configure(*connection->tls_context, tls)) co_return *error;
  connection->secure =
      std::make_unique<beast::ssl_stream<beast::tcp_stream>>(executor, *connection->tls_context);
  auto& stream = *connection->secure;
  // SNI, as Node sends it: only for names, never for address literals.
  if (!is_ip_literal(origin.host))
    SSL_set_tlsext_host_name(stream.native_handle(), origin.host.c_str());
  if (auto [error, endpoint] =
          co_await beast::get_lowest_layer(stream).async_connect(endpoints, kTuple);
      error) {
    co_return connection_error(origin, error);
  }
  if (via) {
    if (auto error = co_await open_tunnel(beast::get_lowest_layer(stream), origin))
      co_return *error;
  }
  if (auto [error] = co_await stream.async_handshake(asio::ssl::stream_base::client, kTuple);
      error) {
    co_return connection_error(origin, error);
  }
  co_return connection;
}

// Connections are shared only between proxies that would open the same one.
std::string pool_key(const Origin& origin, const ClientTls& tls, const std::optional<Origin>& via) {
  std::string key = (origin.tls ? "https://" : "http://") + origin.host + "#" + origin.port;
  if (via) key += "#via " + via->to;
  if (origin.tls) {
    key += "#" + tls.ciphers + "#" + tls.cert.value_or("") + "#" + tls.key.value_or("") + "#" +
           tls.passphrase.value_or("");
  }
  return key;
}

asio::awaitable<OriginResult> exchange(Origin origin, OutboundRequest outbound, ClientTls tls) {
  auto request = to_beast(std::move(outbound));
  const auto via = forward_proxy(origin);
  // Through a forward proxy, plain HTTP names its origin in an absolute request target.
  if (via && !origin.tls) {
    request.target("http://" + host_and_port(origin) + std::string(request.target()));
  }
  auto& pool = asio::use_service<OriginPool>(
      asio::query(co_await asio::this_coro::executor, asio::execution::context));
  const std::string key = pool_key(origin, tls, via);
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<OriginConnection> connection = attempt == 0 ? pool.take(key) : nullptr;
    if (!connection) {
      auto connected = co_await connect(origin, tls, via);
      if (auto* error = std::get_if<MbError>(&connected)) co_return *error;
      connection = std::get<std::unique_ptr<OriginConnection>>(std::move(connected));
    }
    // Not a conditional expression: GCC 12 miscompiles co_await inside `?:`.
    Exchange done;
    if (connection->secure) {
      done = co_await round_trip(*connection->secure, connection->buffer, origin, request);
    } else {
      done = co_await round_trip(*connection->plain, connection->buffer, origin, request);
    }
    // An idle connection the origin closed meanwhile fails before answering: once more, fresh.
    if (done.nothing_back && connection->reused) continue;
    if (done.keep) pool.give(key, std::move(connection));
    co_return std::move(done.result);
  }
}

}  // namespace

std::optional<Origin> parse_origin(const std::string& to) {
  Origin origin;
  origin.to = to;
  std::string_view rest = to;
  const auto scheme_end = rest.find("://");
  if (scheme_end == std::string_view::npos) return std::nullopt;
  const std::string scheme = ascii::lower(rest.substr(0, scheme_end));
  if (scheme != "http" && scheme != "https") return std::nullopt;
  origin.tls = scheme == "https";
  rest.remove_prefix(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    origin.host = std::string(rest.substr(1, close - 1));
    if (close + 1 < rest.size() && rest[close + 1] == ':') port = rest.substr(close + 2);
  } else {
    const auto colon = rest.find(':');
    origin.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
  }
  if (origin.host.empty()) return std::nullopt;
  origin.port = port.empty() ? (origin.tls ? "443" : "80") : std::string(port);
  return origin;
}

void fetch(asio::io_context& loop, Origin origin, OutboundRequest request, ClientTls tls,
           std::function<void(OriginResult)> done) {
  asio::co_spawn(loop, exchange(std::move(origin), std::move(request), std::move(tls)),
                 [done = std::move(done)](std::exception_ptr failure, OriginResult result) {
                   if (failure) {
                     try {
                       std::rethrow_exception(failure);
                     } catch (const std::exception& error) {
                       result = invalid_proxy(error.what());
                     }
                   }
                   done(std::move(result));
                 });
}

}  // namespace rift::proxy
