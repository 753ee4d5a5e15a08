// The reference replayer of the conformance corpus (tests/conformance/README.md): every SDK's
// replayer does what this one does, on its own transports. Two transports here: `embedded`
// (librift through rift.h, imposters called through the gateway; the jit tier when linked with
// librift-jit) and `spawn` (the rift binary started on a free loopback port, everything over
// HTTP/1.1), each on either tier.
//
//   rift_conformance_replay --conformance DIR --results DIR --transport embedded|spawn
//                           [--tier interpreter|jit] [--rift BIN] [--offset N]
//
// Writes <results>/cpp-<transport>-<tier>.jsonl and exits 1 when a step failed.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "rift.h"

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

struct Answer {
  int status = 0;  // 0: no answer; `body` says why
  std::string body;
};

struct Request {
  std::string method = "GET";
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// How a lane reaches the engine: the admin API and the imposters.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual Answer admin(const std::string& method, const std::string& target,
                       const std::string& body) = 0;
  virtual Answer imposter(int port, const Request& request) = 0;
};

class Embedded final : public Transport {
 public:
  explicit Embedded(const std::string& tier) {
    char* error = nullptr;
    if (rift_abi_version() != RIFT_ABI_VERSION) throw std::runtime_error("librift ABI mismatch");
    const std::string options =
        R"({"allowInjection": true, "threads": 2, "tier": ")" + tier + R"("})";
    if (rift_engine_open(options.c_str(), &engine_, &error) != RIFT_OK) {
      const std::string message = error ? error : "?";
      rift_free(error);
      throw std::runtime_error("rift_engine_open: " + message);
    }
  }
  ~Embedded() override { rift_engine_close(engine_); }

  Answer admin(const std::string& method, const std::string& target,
               const std::string& body) override {
    return call(method, target, R"({"Content-Type": "application/json"})", body);
  }
  Answer imposter(int port, const Request& request) override {
    Json headers = Json::array();
    for (const auto& [name, value] : request.headers) headers.push_back({name, value});
    return call(request.method, "/__rift/" + std::to_string(port) + request.path, headers.dump(),
                request.body);
  }

 private:
  Answer call(const std::string& method, const std::string& target, const std::string& headers,
              const std::string& body) {
    int32_t status = 0;
    char* out = nullptr;
    size_t length = 0;
    char* error = nullptr;
    const int32_t rc =
        rift_request(engine_, method.c_str(), target.c_str(), headers.c_str(), body.data(),
                     body.size(), &status, &out, &length, nullptr, &error);
    Answer answer;
    if (rc == RIFT_OK) {
      answer = {status, std::string(out, length)};
    } else {
      answer = {0, std::string(rift_status_name(rc)) + ": " + (error ? error : "")};
    }
    rift_free(out);
    rift_free(error);
    return answer;
  }

  rift_engine* engine_ = nullptr;
};

// One HTTP/1.1 exchange over a fresh loopback connection (Connection: close, read to the end).
Answer http(int port, const std::string& method, const std::string& target,
            const std::vector<std::pair<std::string, std::string>>& headers,
            const std::string& body) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {0, "socket failed"};
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return {0, "connection refused on port " + std::to_string(port)};
  }
  std::string message = method + " " + target +
                        " HTTP/1.1\r\nHost: localhost:" + std::to_string(port) +
                        "\r\nConnection: close\r\n";
  for (const auto& [name, value] : headers) message += name + ": " + value + "\r\n";
  message += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  for (size_t sent = 0; sent < message.size();) {
    const ssize_t n = ::send(fd, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string reply;
  char buffer[16384];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) reply.append(buffer, n);
  ::close(fd);
  const auto head_end = reply.find("\r\n\r\n");
  if (reply.compare(0, 9, "HTTP/1.1 ") != 0 || head_end == std::string::npos) {
    return {0, "no HTTP answer"};
  }
  Answer answer{std::atoi(reply.c_str() + 9), reply.substr(head_end + 4)};
  std::string head = reply.substr(0, head_end);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (head.find("transfer-encoding: chunked") != std::string::npos) {
    std::string decoded;
    size_t at = 0;
    for (;;) {
      const auto line_end = answer.body.find("\r\n", at);
      if (line_end == std::string::npos) break;
      const size_t size = std::strtoul(answer.body.c_str() + at, nullptr, 16);
      if (size == 0) break;
      decoded += answer.body.substr(line_end + 2, size);
      at = line_end + 2 + size + 2;
    }
    answer.body = decoded;
  }
  return answer;
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

class Spawned final : public Transport {
 public:
  Spawned(const std::string& rift, const std::string& tier) : port_(free_port()) {
    const std::string engine = tier == "jit" ? "jit" : "interp";
    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string port = std::to_string(port_);
      if (const int quiet = ::open("/dev/null", O_WRONLY); quiet >= 0) ::dup2(quiet, 1);
      ::execl(rift.c_str(), rift.c_str(), "start", "--port", port.c_str(), "--host", "127.0.0.1",
              "--allowInjection", "--nologfile", "--engine", engine.c_str(), nullptr);
      std::_Exit(127);
    }
    for (int i = 0; i < 500; ++i) {
      if (http(port_, "GET", "/", {}, "").status == 200) return;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) throw std::runtime_error("rift exited");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("rift did not answer on port " + std::to_string(port_));
  }
  ~Spawned() override {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  Answer admin(const std::string& method, const std::string& target,
               const std::string& body) override {
    return http(port_, method, target, {{"Content-Type", "application/json"}}, body);
  }
  Answer imposter(int port, const Request& request) override {
    return http(port, request.method, request.path, request.headers, request.body);
  }

 private:
  int port_;
  pid_t pid_ = -1;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// README.md §2: every `localhost:P` / `127.0.0.1:P` of a manifest port, where the digits end,
// shifted by `offset`, in one pass.
std::string shift_ports(const std::string& text, const std::vector<int>& ports, int offset) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    bool shifted = false;
    for (const char* host : {"localhost:", "127.0.0.1:"}) {
      const size_t host_length = std::strlen(host);
      if (text.compare(at, host_length, host) != 0) continue;
      size_t end = at + host_length;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      const std::string digits = text.substr(at + host_length, end - at - host_length);
      for (int port : ports) {
        if (digits == std::to_string(port)) {
          out += host + std::to_string(port + offset);
          at = end;
          shifted = true;
          break;
        }
      }
      if (shifted) break;
    }
    if (!shifted) out += text[at++];
  }
  return out;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
    text.replace(at, from.size(), to);
  }
}

// A request step's `request`, as README.md §5 reads it.
Request request_of(const Json& step) {
  Request request;
  request.method = step.value("method", "GET");
  request.path = step.at("path").get<std::string>();
  if (auto headers = step.find("headers"); headers != step.end()) {
    for (const auto& [name, value] : headers->items()) {
      request.headers.emplace_back(name, value.get<std::string>());
    }
  }
  if (auto body = step.find("body"); body != step.end() && !body->is_null()) {
    request.body = body->is_string() ? body->get<std::string>() : body->dump();
  }
  return request;
}

// Why the answer fails `expect`, or nothing when it holds.
std::optional<std::string> judge(const Json& expect, const Answer& answer) {
  if (answer.status == 0) return "no answer: " + answer.body;
  if (auto status = expect.find("status"); status != expect.end() && *status != answer.status) {
    return "status " + std::to_string(answer.status) + ", expected " + status->dump();
  }
  if (auto contains = expect.find("bodyContains"); contains != expect.end()) {
    const std::string needle = contains->get<std::string>();
    std::string compact = answer.body;
    // Keys in their order, as JSON.stringify writes them (README.md §5).
    const auto parsed = nlohmann::ordered_json::parse(answer.body, nullptr, false);
    if (!parsed.is_discarded()) compact = parsed.dump();
    if (answer.body.find(needle) == std::string::npos &&
        compact.find(needle) == std::string::npos) {
      return "body lacks " + contains->dump() + ": " + answer.body.substr(0, 300);
    }
  }
  if (auto equals = expect.find("bodyEquals"); equals != expect.end() && *equals != answer.body) {
    return "body " + Json(answer.body).dump() + ", expected " + equals->dump();
  }
  return std::nullopt;
}

struct Fixture {
  std::string corpus;
  std::string name;  // the file name without .json
  Json manifest_entry;
  Json imposter;  // rewritten
  std::optional<std::string> skipped;
  std::optional<std::string> refused;
};

class Lane {
 public:
  Lane(std::string transport, std::string tier, const fs::path& results)
      : transport_(std::move(transport)), tier_(std::move(tier)) {
    fs::create_directories(results);
    out_.open(results / ("cpp-" + transport_ + "-" + tier_ + ".jsonl"), std::ios::trunc);
  }
  void write(const Fixture& fixture, const Json& stub, const Json& step, const std::string& outcome,
             const std::string& reason) {
    Json line{{"client", "cpp"},
              {"transport", transport_},
              {"tier", tier_},
              {"corpus", fixture.corpus},
              {"fixture", fixture.name},
              {"stub", stub},
              {"step", step},
              {"outcome", outcome},
              {"reason", reason}};
    out_ << line.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    ++counts_[outcome];
  }
  int count(const std::string& outcome) const {
    auto found = counts_.find(outcome);
    return found == counts_.end() ? 0 : found->second;
  }

 private:
  std::string transport_, tier_;
  std::ofstream out_;
  std::map<std::string, int> counts_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string conformance, results = "conformance-results", transport = "embedded",
                           tier = "interpreter", rift = "rift";
  int offset = 10000;
  if (const char* env = std::getenv("RIFT_CONFORMANCE_PORT_OFFSET")) offset = std::atoi(env);
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--conformance")
      conformance = value;
    else if (flag == "--results")
      results = value;
    else if (flag == "--transport")
      transport = value;
    else if (flag == "--tier")
      tier = value;
    else if (flag == "--rift")
      rift = value;
    else if (flag == "--offset")
      offset = std::stoi(value);
    else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (conformance.empty() || (transport != "embedded" && transport != "spawn") ||
      (tier != "interpreter" && tier != "jit")) {
    std::cerr << "usage: --conformance DIR --results DIR --transport embedded|spawn "
                 "[--tier interpreter|jit] [--rift BIN] [--offset N]\n";
    return 2;
  }
  try {
    const Json skips = Json::parse(read_file(fs::path(conformance) / "skips.json")).at("skips");
    std::vector<Fixture> fixtures;
    for (const char* corpus : {"rift", "reference-rift"}) {
      const fs::path root = fs::absolute(fs::path(conformance) / corpus);
      const Json manifest = Json::parse(read_file(root / "manifest.json"));
      std::vector<int> ports;
      for (const auto& entry : manifest.at("fixtures")) ports.push_back(entry.at("port"));
      for (const auto& entry : manifest.at("fixtures")) {
        Fixture fixture{corpus, fs::path(entry.at("file").get<std::string>()).stem().string(),
                        entry,  {},
                        {},     {}};
        for (const auto& tag : entry.at("requires")) {
          if (tag != "injection" && tag != "proxy" && tag != "https" && tag != "shell") {
            fixture.skipped = "requires " + tag.get<std::string>();
          }
        }
        for (const auto& skip : skips) {
          if (skip.at("corpus") == corpus && skip.at("fixture") == fixture.name &&
              skip.at("stub").is_null()) {
            fixture.skipped = skip.at("why").get<std::string>();
          }
        }
        std::string text = read_file(root / entry.at("file").get<std::string>());
        text = shift_ports(text, ports, offset);
        replace_all(text, "\"data/", "\"" + (root / "corpus" / "data").string() + "/");
        fixture.imposter = Json::parse(text);
        fixture.imposter["port"] = entry.at("port").get<int>() + offset;
        fixtures.push_back(std::move(fixture));
      }
    }

    std::unique_ptr<Transport> engine;
    if (transport == "embedded")
      engine = std::make_unique<Embedded>(tier);
    else
      engine = std::make_unique<Spawned>(rift, tier);
    Lane lane(transport, tier, results);

    for (auto& fixture : fixtures) {
      if (fixture.skipped) continue;
      const Answer created = engine->admin("POST", "/imposters", fixture.imposter.dump());
      if (created.status != 201) {
        fixture.refused = "POST /imposters answered " + std::to_string(created.status) + ": " +
                          created.body.substr(0, 300);
      }
    }
    // The JIT lane replays on compiled matchers only: each imposter's plan must report the
    // jit tier (the compile runs in the background after the POST) before its first step.
    if (tier == "jit") {
      for (auto& fixture : fixtures) {
        if (fixture.skipped || fixture.refused) continue;
        const std::string plan =
            "/imposters/" + std::to_string(fixture.imposter.at("port").get<int>()) + "/plan";
        std::string seen;
        for (int i = 0; i < 600 && seen != "jit"; ++i) {
          const Json answer = Json::parse(engine->admin("GET", plan, "").body, nullptr, false);
          seen = answer.is_object() ? answer.value("tier", "") : "";
          if (seen != "jit") std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (seen != "jit") fixture.refused = "the JIT never served it (tier " + seen + ")";
      }
    }
    for (const auto& fixture : fixtures) {
      if (fixture.skipped) {
        lane.write(fixture, nullptr, nullptr, "skip", *fixture.skipped);
        continue;
      }
      const Json& stubs = fixture.imposter.value("stubs", Json::array());
      for (size_t s = 0; s < stubs.size(); ++s) {
        std::optional<std::string> skipped;
        for (const auto& skip : skips) {
          if (skip.at("corpus") == fixture.corpus && skip.at("fixture") == fixture.name &&
              skip.at("stub") == s) {
            skipped = skip.at("why").get<std::string>();
          }
        }
        const Json sequence =
            stubs[s].value("_verify", Json::object()).value("sequence", Json::array());
        for (size_t k = 0; k < sequence.size(); ++k) {
          if (skipped) {
            lane.write(fixture, s, k, "skip", *skipped);
          } else if (fixture.refused) {
            lane.write(fixture, s, k, "fail", *fixture.refused);
          } else {
            const Answer answer = engine->imposter(fixture.imposter.at("port"),
                                                   request_of(sequence[k].at("request")));
            const auto failure = judge(sequence[k].at("expect"), answer);
            lane.write(fixture, s, k, failure ? "fail" : "pass", failure.value_or(""));
            if (failure) {
              std::cerr << fixture.corpus << "/" << fixture.name << " stub " << s << " step " << k
                        << ": " << *failure << "\n";
            }
          }
        }
      }
    }
    engine->admin("DELETE", "/imposters", "");
    std::cout << "cpp-" << transport << "-" << tier << ": conformance: " << lane.count("pass")
              << " passed, " << lane.count("fail") << " failed, " << lane.count("skip")
              << " skipped\n";
    return lane.count("fail") == 0 && lane.count("pass") > 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "conformance replay: " << error.what() << "\n";
    return 1;
  }
}
