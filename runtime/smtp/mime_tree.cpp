#include "runtime/smtp/mime_tree.h"

#include <gmime/gmime.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "runtime/smtp/gmime_support.h"

namespace rift::smtp {
namespace {

constexpr size_t kMaxNodes = 1000;

struct Unref {
  void operator()(void* object) const { g_object_unref(object); }
};
template <typename T>
using Owned = std::unique_ptr<T, Unref>;

struct Positioned {
  gint64 offset;
  MimeHeader header;
};

void collect_headers(GMimeObject* object, std::vector<Positioned>& out) {
  GMimeHeaderList* list = g_mime_object_get_header_list(object);
  const int count = g_mime_header_list_get_count(list);
  for (int i = 0; i < count; ++i) {
    GMimeHeader* header = g_mime_header_list_get_header_at(list, i);
    const char* name = g_mime_header_get_raw_name(header);
    if (name == nullptr) name = g_mime_header_get_name(header);
    const char* value = g_mime_header_get_raw_value(header);
    MimeHeader entry;
    entry.line = std::string(name != nullptr ? name : "") + ":" + (value != nullptr ? value : "");
    while (!entry.line.empty() && (entry.line.back() == '\n' || entry.line.back() == '\r'))
      entry.line.pop_back();
    entry.key = name != nullptr ? name : "";
    for (char& c : entry.key) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    out.push_back({g_mime_header_get_offset(header), std::move(entry)});
  }
}

std::string stream_bytes(GMimeStream* stream) {
  Owned<GMimeStream> memory(g_mime_stream_mem_new());
  g_mime_stream_reset(stream);
  g_mime_stream_write_to_stream(stream, memory.get());
  GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(memory.get()));
  return std::string(reinterpret_cast<const char*>(bytes->data), bytes->len);
}

class Walker {
 public:
  Walker(std::vector<MimeNode>& nodes, std::string_view raw) : nodes_(nodes), raw_(raw) {}

  // A message's top part, its header block being the message's and the part's together.
  void message(GMimeMessage* message, int parent) {
    part(top_of(message), parent, message_headers(message));
  }

 private:
  static GMimeObject* top_of(GMimeMessage* message) {
    return g_mime_message_get_mime_part(message);
  }

  static std::vector<Positioned> message_headers(GMimeMessage* message) {
    std::vector<Positioned> headers;
    collect_headers(GMIME_OBJECT(message), headers);
    if (GMimeObject* top = top_of(message)) collect_headers(top, headers);
    std::stable_sort(headers.begin(), headers.end(),
                     [](const Positioned& a, const Positioned& b) { return a.offset < b.offset; });
    return headers;
  }

  // An embedded message's bytes as sent: from its first header to the line break before the
  // enclosing multipart's next boundary (or the end). GMime keeps only the parsed message, and
  // writing that out again would not give the same bytes (line ends, folding).
  std::string embedded_bytes(GMimeMessage* message, const std::vector<Positioned>& headers,
                             int parent) {
    if (headers.empty() || headers.front().offset < 0 ||
        static_cast<uint64_t>(headers.front().offset) > raw_.size()) {
      Owned<GMimeStream> memory(g_mime_stream_mem_new());
      g_mime_object_write_to_stream(GMIME_OBJECT(message), nullptr, memory.get());
      return stream_bytes(memory.get());
    }
    std::string_view rest = raw_.substr(static_cast<size_t>(headers.front().offset));
    if (parent >= 0 && !boundaries_[parent].empty()) {
      const std::string delimiter = "\n--" + boundaries_[parent];
      if (size_t end = rest.find(delimiter); end != std::string_view::npos) {
        if (end > 0 && rest[end - 1] == '\r') --end;
        rest = rest.substr(0, end);
      }
    }
    return std::string(rest);
  }

  void part(GMimeObject* object, int parent, std::vector<Positioned> headers) {
    // mailsplit gives up on a message of more than 1000 parts (Mountebank then records nothing);
    // Rift reads the first 1000, which also bounds the work per part (part numbers, nesting).
    if (nodes_.size() >= kMaxNodes) return;
    const int index = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    boundaries_.emplace_back();
    nodes_[index].parent = parent;
    if (parent >= 0) nodes_[parent].children.push_back(index);
    for (auto& header : headers) nodes_[index].headers.push_back(std::move(header.header));
    if (object == nullptr) return;  // a message with no body
    if (GMIME_IS_MULTIPART(object)) {
      nodes_[index].kind = MimeNode::Kind::multipart;
      GMimeMultipart* multipart = GMIME_MULTIPART(object);
      if (const char* boundary = g_mime_multipart_get_boundary(multipart))
        boundaries_[index] = boundary;
      const int count = g_mime_multipart_get_count(multipart);
      for (int i = 0; i < count; ++i) child(g_mime_multipart_get_part(multipart, i), index);
    } else if (GMIME_IS_MESSAGE_PART(object)) {
      nodes_[index].kind = MimeNode::Kind::message;
      GMimeMessage* embedded = g_mime_message_part_get_message(GMIME_MESSAGE_PART(object));
      if (embedded != nullptr) {
        std::vector<Positioned> inner = message_headers(embedded);
        nodes_[index].body = embedded_bytes(embedded, inner, parent);
        part(top_of(embedded), index, std::move(inner));
      }
    } else if (GMIME_IS_PART(object)) {
      GMimeDataWrapper* content = g_mime_part_get_content(GMIME_PART(object));
      if (content != nullptr)
        nodes_[index].body = stream_bytes(g_mime_data_wrapper_get_stream(content));
    }
  }

  void child(GMimeObject* object, int parent) {
    std::vector<Positioned> headers;
    collect_headers(object, headers);
    part(object, parent, std::move(headers));
  }

  std::vector<MimeNode>& nodes_;
  std::string_view raw_;
  std::vector<std::string> boundaries_;  // each node's, when it is a multipart
};

}  // namespace

std::vector<MimeNode> read_mime_tree(std::string_view message) {
  ensure_gmime();
  std::vector<MimeNode> nodes;
  Owned<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(message.data(), message.size()));
  Owned<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  Owned<GMimeMessage> parsed(g_mime_parser_construct_message(parser.get(), nullptr));
  if (parsed == nullptr) {
    nodes.emplace_back();  // no headers, no body
    return nodes;
  }
  Walker(nodes, message).message(parsed.get(), -1);
  return nodes;
}

}  // namespace rift::smtp
