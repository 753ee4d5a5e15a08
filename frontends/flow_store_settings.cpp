#include "frontends/flow_store_settings.h"

#include <charconv>
#include <cmath>

#include "compiler/ascii.h"

namespace rift::frontends {
namespace {

std::string show(const ir::Json& value) {
  return value.dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

MbError url_error(std::string_view url, std::string_view why) {
  return bad_data("Flow store configuration error: flowState.redis.url " + std::string(why),
                  ir::Json(std::string(url)));
}

// Userinfo is percent-encoded in a URL (a password may hold '@' or ':').
std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = ascii::hex_value(text[i + 1]);
    const int low = ascii::hex_value(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

template <class Number>
bool parse_decimal(std::string_view text, Number& out) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

bool is_whole(const ir::Json& value) {
  return value.is_number() && std::isfinite(value.get<double>()) &&
         std::floor(value.get<double>()) == value.get<double>();
}

void read_redis(const ir::Json& redis, FlowStoreSettings& settings, MbErrors& errors) {
  if (!redis.is_object()) {
    errors.push_back(
        bad_data("Flow store configuration error: flowState.redis must be an object", redis));
    return;
  }
  if (auto url = redis.find("url"); url == redis.end() || !url->is_string()) {
    errors.push_back(bad_data(
        "Flow store configuration error: flowState.redis.url must be a redis:// URL string"));
  } else if (auto address = parse_redis_url(url->get_ref<const std::string&>());
             auto* error = std::get_if<MbError>(&address)) {
    errors.push_back(std::move(*error));
  } else {
    settings.redis = std::get<RedisAddress>(address);
  }
  if (auto pool = redis.find("poolSize"); pool != redis.end()) {
    if (!is_whole(*pool) || pool->get<double>() < 1 || pool->get<double>() > 1024) {
      errors.push_back(bad_data(
          "Flow store configuration error: flowState.redis.poolSize must be a whole number from "
          "1 to 1024, not " +
              show(*pool),
          *pool));
    } else {
      settings.pool_size = static_cast<int>(pool->get<double>());
    }
  }
  if (auto prefix = redis.find("keyPrefix"); prefix != redis.end()) {
    if (!prefix->is_string()) {
      errors.push_back(bad_data(
          "Flow store configuration error: flowState.redis.keyPrefix must be a string, not " +
              show(*prefix),
          *prefix));
    } else {
      settings.key_prefix = prefix->get<std::string>();
    }
  }
}

}  // namespace

std::variant<RedisAddress, MbError> parse_redis_url(std::string_view url) {
  constexpr std::string_view kScheme = "redis://";
  if (url.size() >= kScheme.size() && ascii::iequals(url.substr(0, kScheme.size()), kScheme)) {
    url.remove_prefix(kScheme.size());
  } else if (url.find("://") != std::string_view::npos) {
    // rediss:// needs hiredis' TLS, and sentinel discovery a client this build does not carry
    // (docs/rift-compatibility.md).
    return url_error(url,
                     "must use the redis:// scheme; rediss:// and redis+sentinel:// are not "
                     "supported (put a TLS tunnel or the current master's address in front)");
  } else {
    return url_error(url, "must be a URL of the form redis://[[user]:password@]host[:port][/db]");
  }
  const std::string_view whole = url;
  if (url.find_first_of("?#") != std::string_view::npos) {
    return url_error(whole, "may not carry a query or a fragment");
  }
  RedisAddress address;
  const size_t slash = url.find('/');
  std::string_view authority = url.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : url.substr(slash + 1);
  if (!path.empty() && (!parse_decimal(path, address.db) || address.db < 0)) {
    return url_error(whole,
                     "names a database that is not a whole number: '" + std::string(path) + "'");
  }
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    authority.remove_prefix(at + 1);
    const size_t colon = userinfo.find(':');
    auto user = percent_decoded(userinfo.substr(0, colon));
    auto password = percent_decoded(colon == std::string_view::npos ? std::string_view()
                                                                    : userinfo.substr(colon + 1));
    if (!user || !password) return url_error(whole, "has a bad percent-escape in its user info");
    // redis://secret@host: a lone userinfo is the password, as Redis clients read it.
    if (colon == std::string_view::npos) std::swap(*user, *password);
    address.user = std::move(*user);
    address.password = std::move(*password);
  }
  std::string_view port;
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return url_error(whole, "has an unclosed IPv6 address");
    address.host = std::string(authority.substr(1, close - 1));
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return url_error(whole, "has a malformed host");
    port = rest.empty() ? rest : rest.substr(1);
  } else {
    const size_t colon = authority.find(':');
    address.host = std::string(authority.substr(0, colon));
    port = colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
    if (colon != std::string_view::npos && port.empty()) {
      return url_error(whole, "has an empty port");
    }
  }
  if (address.host.empty()) return url_error(whole, "has no host");
  if (!port.empty() &&
      (!parse_decimal(port, address.port) || address.port < 1 || address.port > 65535)) {
    return url_error(whole, "has a port that is not a number from 1 to 65535");
  }
  return address;
}

std::variant<FlowStoreSettings, MbErrors> parse_flow_store(const ir::Json& flow_state) {
  FlowStoreSettings settings;
  MbErrors errors;
  auto backend = flow_state.find("backend");
  if (backend != flow_state.end()) {
    if (*backend == "redis") {
      settings.backend = FlowStoreSettings::Backend::kRedis;
    } else if (*backend != "inmemory") {
      errors.push_back(
          bad_data("Flow store configuration error: flowState.backend is " + show(*backend) +
                   " but no such backend exists (expected \"inmemory\" or \"redis\")"));
    }
  }
  if (auto ttl = flow_state.find("ttlSeconds"); ttl != flow_state.end()) {
    if (!is_whole(*ttl) || ttl->get<double>() < 1 || ttl->get<double>() > 1e12) {
      errors.push_back(
          bad_data("Flow store configuration error: flowState.ttlSeconds must be >= 1 (got " +
                   show(*ttl) + "); a non-positive TTL would expire every write immediately"));
    } else {
      settings.ttl_seconds = static_cast<int64_t>(ttl->get<double>());
    }
  }
  if (settings.backend == FlowStoreSettings::Backend::kRedis) {
    auto redis = flow_state.find("redis");
    if (redis == flow_state.end()) {
      errors.push_back(
          bad_data("Flow store configuration error: flowState.backend is \"redis\" but no redis "
                   "config block was provided"));
    } else {
      read_redis(*redis, settings, errors);
    }
  }
  if (!errors.empty()) return errors;
  return settings;
}

}  // namespace rift::frontends
