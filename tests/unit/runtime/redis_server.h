// A private redis-server for tests: loopback only, nothing saved, killed with the fixture.
#pragma once

#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace rift::testing {

class RedisServer {
 public:
  RedisServer() { start(); }
  ~RedisServer() { stop(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

  // Starts it again on the same port (after stop(), to test recovery).
  void start() {
    // A port the kernel just handed out and took back; redis-server failing to bind it (someone
    // else took it meanwhile) shows as an exit, and another port is tried.
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (port_ == 0 || attempt > 0) port_ = free_port();
      if (launch()) return;
    }
    throw std::runtime_error("redis-server did not start (is it installed? tools/install-deps)");
  }

  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  // A command on a connection of its own (to look at TTLs, or write past Rift).
  std::string command(const std::vector<std::string>& arguments) const {
    redisContext* context = redisConnect("127.0.0.1", port_);
    std::vector<const char*> pointers;
    std::vector<size_t> lengths;
    for (const auto& argument : arguments) {
      pointers.push_back(argument.data());
      lengths.push_back(argument.size());
    }
    auto* reply = static_cast<redisReply*>(redisCommandArgv(
        context, static_cast<int>(pointers.size()), pointers.data(), lengths.data()));
    std::string out;
    if (reply) {
      out = reply->type == REDIS_REPLY_INTEGER ? std::to_string(reply->integer)
            : reply->str                       ? std::string(reply->str, reply->len)
                                               : "";
      freeReplyObject(reply);
    }
    redisFree(context);
    return out;
  }

 private:
  static int free_port() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    close(fd);
    return ntohs(address.sin_port);
  }

  bool launch() {
    const std::string port = std::to_string(port_);
    std::vector<std::string> arguments = {"redis-server", "--port",    port,       "--bind",
                                          "127.0.0.1",    "--save",    "",         "--appendonly",
                                          "no",           "--logfile", "/dev/null"};
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "redis-server", nullptr, nullptr, argv.data(), environ) != 0) {
      pid_ = -1;
      return false;
    }
    for (int i = 0; i < 200; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      if (command({"PING"}) == "PONG") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    stop();
    return false;
  }

  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace rift::testing
