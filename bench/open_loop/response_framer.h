// Frames HTTP/1.1 responses on a keep-alive connection, by Content-Length or chunked transfer
// coding (what Node and so Mountebank and Rift send when a stub gives no length): enough for the
// mock answers a load generator reads, and strict about what it cannot frame (a body without
// either), which it reports instead of guessing.
#pragma once

#include <strings.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rift::bench {

class ResponseFramer {
 public:
  // The status of every response these bytes complete, in order; -1 (then stop) on bytes it
  // cannot frame, with error() saying why.
  std::vector<int> feed(std::string_view bytes) {
    std::vector<int> statuses;
    pending_.append(bytes);
    for (;;) {
      const size_t head_end = pending_.find("\r\n\r\n");
      if (head_end == std::string::npos) break;
      const std::string_view head(pending_.data(), head_end);
      if (head.size() < 12 || head.substr(0, 5) != "HTTP/") return fail(statuses, "no status line");
      const int status = std::atoi(std::string(head.substr(9, 3)).c_str());
      std::optional<size_t> length;
      bool chunked = false;
      size_t line = head.find("\r\n");
      while (line != std::string_view::npos) {
        const size_t next = head.find("\r\n", line + 2);
        const std::string_view header =
            head.substr(line + 2, (next == std::string_view::npos ? head.size() : next) - line - 2);
        if (starts_with_ignoring_case(header, "content-length:")) {
          length = std::strtoul(std::string(header.substr(15)).c_str(), nullptr, 10);
        } else if (starts_with_ignoring_case(header, "transfer-encoding:")) {
          chunked = true;
        }
        line = next;
      }
      if (chunked) {
        const std::optional<size_t> total = chunked_end(head_end + 4);
        if (!total) break;
        if (*total == 0) return fail(statuses, "a malformed chunk size");
        pending_.erase(0, *total);
        statuses.push_back(status);
        continue;
      }
      if (!length) {
        if (status != 204 && status != 304) return fail(statuses, "a response without a length");
        length = 0;
      }
      const size_t total = head_end + 4 + *length;
      if (pending_.size() < total) break;
      pending_.erase(0, total);
      statuses.push_back(status);
    }
    return statuses;
  }

  const std::string& error() const { return error_; }

 private:
  // Where the chunked body starting at `at` ends: nullopt while incomplete, 0 when malformed.
  // Trailers are not expected (Node sends none) but are skipped up to the blank line.
  std::optional<size_t> chunked_end(size_t at) const {
    for (;;) {
      const size_t line_end = pending_.find("\r\n", at);
      if (line_end == std::string::npos) return std::nullopt;
      char* parsed = nullptr;
      const std::string size_text = pending_.substr(at, line_end - at);
      const size_t size = std::strtoul(size_text.c_str(), &parsed, 16);
      if (parsed == size_text.c_str()) return 0;
      if (size == 0) {
        const size_t end = pending_.find("\r\n\r\n", line_end);
        if (end == std::string::npos) return std::nullopt;
        return end + 4;
      }
      at = line_end + 2 + size + 2;
      if (pending_.size() < at) return std::nullopt;
    }
  }

  static bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           strncasecmp(text.data(), prefix.data(), prefix.size()) == 0;
  }

  std::vector<int>& fail(std::vector<int>& statuses, std::string why) {
    error_ = std::move(why);
    statuses.push_back(-1);
    return statuses;
  }

  std::string pending_;
  std::string error_;
};

}  // namespace rift::bench
