#include "runtime/smtp/mail_parts.h"

#include <gmime/gmime.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "compiler/base64.h"
#include "compiler/text_encoding.h"
#include "runtime/smtp/address_parser.h"
#include "runtime/smtp/gmime_support.h"
#include "runtime/smtp/html_text.h"
#include "runtime/smtp/js_text.h"
#include "runtime/smtp/mime_types.h"
#include "runtime/smtp/mime_words.h"

namespace rift::smtp {
namespace {

// A part as mailsplit's MimeNode.parseHeaders sees it. Its values come from "binary" strings
// (a byte per character), so raw 8-bit bytes in them read as Latin-1, as in Mountebank.
struct PartInfo {
  std::optional<std::string> content_type;  // lower-cased; absent when the header's value is empty
  std::optional<std::string> charset;
  std::optional<std::string> disposition;  // lower-cased, encoded words decoded
  std::optional<std::string> filename;
  std::string encoding;
  bool flowed = false;
  bool del_sp = false;
  std::optional<std::string> boundary;  // a multipart's, when it has one
  bool descends = false;                // an inline message/rfc822 read as a message of its own
};

// Headers.getFirst: the first header of that name, unfolded and trimmed, as a binary string.
std::string first_header(const std::vector<MimeHeader>& headers, std::string_view key) {
  for (const MimeHeader& header : headers) {
    if (header.key == key) return latin1_to_utf8(decode_header(header.line).value);
  }
  return "";
}

std::optional<std::string> non_empty(const std::string* value) {
  if (value == nullptr || value->empty()) return std::nullopt;
  return *value;
}

// path.parse(name).ext without its dot: the basename's text after its last dot, if that dot is
// not the basename's first character.
std::string path_extension(std::string_view name) {
  if (const size_t slash = name.rfind('/'); slash != std::string_view::npos)
    name.remove_prefix(slash + 1);
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return "";
  return std::string(name.substr(dot + 1));
}

PartInfo part_info(const MimeNode& node) {
  PartInfo info;
  const HeaderValue disposition =
      parse_header_value(first_header(node.headers, "content-disposition"));
  bool has_content_type = false;
  for (const MimeHeader& header : node.headers) has_content_type |= header.key == "content-type";
  std::string content_header;
  if (has_content_type) {
    content_header = first_header(node.headers, "content-type");
  } else {
    // No Content-Type: typed by the file name's extension, else by the disposition.
    if (const std::string* filename = disposition.param("filename")) {
      if (const std::string extension = path_extension(*filename); !extension.empty()) {
        content_header = std::string(detect_mime_type(extension));
      }
    }
    if (content_header.empty()) {
      content_header = ascii_lower(disposition.value) == "attachment" ? "application/octet-stream"
                                                                      : "text/plain";
    }
  }
  const HeaderValue content_type = parse_header_value(content_header);

  std::string encoding = first_header(node.headers, "content-transfer-encoding");
  // .replace(/\(.*\)/g, ''): a comment, from the first '(' to the last ')'.
  if (const size_t open = encoding.find('('); open != std::string::npos) {
    if (const size_t close = encoding.rfind(')'); close != std::string::npos && close > open) {
      encoding.erase(open, close - open + 1);
    }
  }
  info.encoding = std::string(js_trim(ascii_lower(encoding)));
  if (std::string type(js_trim(ascii_lower(content_type.value))); !type.empty())
    info.content_type = std::move(type);
  info.charset = non_empty(content_type.param("charset"));
  if (std::string value(js_trim(ascii_lower(disposition.value))); !value.empty()) {
    info.disposition = decode_words(value);
  }
  info.filename = non_empty(disposition.param("filename"));
  if (!info.filename) info.filename = non_empty(content_type.param("name"));
  if (info.filename) info.filename = decode_words(*info.filename);
  if (const std::string* format = content_type.param("format")) {
    info.flowed = js_trim(ascii_lower(*format)) == "flowed";
    const std::string* del_sp = content_type.param("delsp");
    info.del_sp = info.flowed && del_sp != nullptr && js_trim(ascii_lower(*del_sp)) == "yes";
  }
  const std::string type = info.content_type.value_or("");
  const size_t slash = type.find('/');
  const bool multipart = slash != std::string::npos && type.compare(0, slash, "multipart") == 0 &&
                         slash + 1 < type.size();
  if (multipart) info.boundary = non_empty(content_type.param("boundary"));
  info.descends = type == "message/rfc822" &&
                  (info.encoding.empty() || info.encoding == "7bit" || info.encoding == "8bit" ||
                   info.encoding == "binary") &&
                  info.disposition == "inline";
  return info;
}

std::string base64_body(std::string_view body) {
  // libbase64 reads the body as 7-bit ASCII and keeps only the alphabet and '='.
  std::string cleaned;
  cleaned.reserve(body.size());
  for (char c : body) {
    const char ascii = static_cast<char>(static_cast<unsigned char>(c) & 0x7F);
    if ((ascii >= 'A' && ascii <= 'Z') || (ascii >= 'a' && ascii <= 'z') ||
        (ascii >= '0' && ascii <= '9') || ascii == '+' || ascii == '/' || ascii == '=') {
      cleaned.push_back(ascii);
    }
  }
  GMimeEncoding state;
  g_mime_encoding_init_decode(&state, GMIME_CONTENT_ENCODING_BASE64);
  std::string out(g_mime_encoding_outlen(&state, cleaned.size()), '\0');
  const size_t written = g_mime_encoding_flush(&state, cleaned.data(), cleaned.size(), out.data());
  out.resize(written);
  return out;
}

// The part's content with its transfer encoding undone (mailsplit's getDecoder).
std::string decoded_body(const MimeNode& node, const PartInfo& info) {
  if (node.kind == MimeNode::Kind::message) return node.body;  // GMime has decoded it already
  if (info.encoding == "base64") return base64_body(node.body);
  if (info.encoding == "quoted-printable") return quoted_printable_decode(node.body);
  return node.body;
}

bool is_text_type(const std::optional<std::string>& type) {
  return type == "text/plain" || type == "text/html" || type == "message/delivery-status";
}

std::string replace_line_ends(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;  // \r?\n -> \n
    out.push_back(text[i]);
  }
  return out;
}

// getAddressesText: "Name <a@b>, c@d, Group: x@y;".
std::string addresses_text(const std::vector<MailAddress>& addresses) {
  std::string out;
  for (size_t i = 0; i < addresses.size(); ++i) {
    const MailAddress& entry = addresses[i];
    if (i > 0) out.append(", ");
    if (!entry.name.empty()) out.append(entry.name).append(entry.group ? ": " : "");
    if (entry.address && !entry.address->empty()) {
      out.append(entry.name.empty() ? *entry.address : " <" + *entry.address + ">");
    }
    if (entry.group) out.append(addresses_text(*entry.group)).append(";");
  }
  return out;
}

// Date#toUTCString of a Date header (mailparser: new Date(value), or now when unparseable).
std::string utc_date(std::string_view value) {
  const std::string text(value);
  GDateTime* parsed = g_mime_utils_header_decode_date(text.c_str());
  GDateTime* date = parsed != nullptr ? g_date_time_to_utc(parsed) : g_date_time_new_now_utc();
  if (parsed != nullptr) g_date_time_unref(parsed);
  gchar* formatted = g_date_time_format(date, "%a, %d %b %Y %H:%M:%S GMT");
  std::string out(formatted != nullptr ? formatted : "");
  g_free(formatted);
  g_date_time_unref(date);
  return out;
}

// An embedded message's From, Subject, Date, To, Cc and Bcc before its text (showMeta), the last
// header of each name counting.
std::string meta_text(const std::vector<MimeHeader>& headers) {
  static constexpr std::pair<std::string_view, std::string_view> kFields[] = {
      {"From", "from"}, {"Subject", "subject"}, {"Date", "date"},
      {"To", "to"},     {"Cc", "cc"},           {"Bcc", "bcc"}};
  std::string out = "\n";
  bool first = true;
  for (const auto& [label, key] : kFields) {
    const MimeHeader* last = nullptr;
    for (const MimeHeader& header : headers) {
      if (header.key == key && !decode_header(header.line).value.empty()) last = &header;
    }
    if (last == nullptr) continue;
    const std::string value = to_valid_utf8(decode_header(last->line).value);
    std::string shown;
    if (key == "subject") {
      shown = decode_words(value);
      if (shown.empty()) continue;
    } else if (key == "date") {
      shown = utc_date(value);
    } else {
      shown = addresses_text(parse_address_header(value));
    }
    if (!first) out.push_back('\n');
    first = false;
    out.append(label).append(": ").append(shown);
  }
  out.push_back('\n');
  return out;
}

bool is_image_type(const std::optional<std::string>& type) {
  // /^image\/[\w]+$/i
  if (!type || type->size() <= 6 || ascii_lower(type->substr(0, 6)) != "image/") return false;
  for (size_t i = 6; i < type->size(); ++i) {
    const char c = (*type)[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

// updateImageLinks: each "cid:<id>" naming an image attachment becomes a data: URL of it.
// updateImageLinks: each "cid:<id>" naming an image attachment becomes a data: URL of it. The
// URLs written are capped in total (kMaxLinkedBytes): a message that names a large image over and
// over would otherwise grow its HTML without bound (Mountebank runs out of memory on it).
constexpr size_t kMaxLinkedBytes = 64 * 1024 * 1024;

std::string link_images(const std::string& html, const std::vector<Attachment>& attachments) {
  std::unordered_map<std::string, size_t> images;  // cid -> the first image attachment with it
  for (size_t i = 0; i < attachments.size(); ++i) {
    if (attachments[i].content_id && is_image_type(attachments[i].content_type)) {
      images.emplace(attachments[i].cid, i);
    }
  }
  if (images.empty()) return html;
  std::unordered_map<size_t, std::string> urls;
  size_t linked = 0;
  std::string out;
  size_t copied = 0;
  const auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t at = html.find("cid:"); at != std::string::npos; at = html.find("cid:", at + 1)) {
    if (at > 0 && word(html[at - 1])) continue;  // \b
    // [^'"\s]{1,256}
    size_t end = at + 4;
    size_t characters = 0;
    while (end < html.size() && characters < 256 && html[end] != '\'' && html[end] != '"' &&
           js_space_length(html, end) == 0) {
      const auto lead = static_cast<unsigned char>(html[end]);
      end += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
      ++characters;
    }
    end = std::min(end, html.size());
    if (end == at + 4) continue;
    const auto image = images.find(html.substr(at + 4, end - at - 4));
    if (image == images.end()) {
      at = end - 1;
      continue;
    }
    std::string& url = urls[image->second];
    if (url.empty()) {
      const Attachment& attachment = attachments[image->second];
      url = "data:" + *attachment.content_type + ";base64," + base64_encode(attachment.content);
    }
    if (linked + url.size() > kMaxLinkedBytes) break;
    linked += url.size();
    out.append(html, copied, at - copied);
    out.append(url);
    copied = end;
    at = end - 1;
  }
  out.append(html, copied);
  return out;
}

class Reader {
 public:
  explicit Reader(std::vector<MimeNode> nodes) : nodes_(std::move(nodes)) {
    infos_.reserve(nodes_.size());
    for (const MimeNode& node : nodes_) infos_.push_back(part_info(node));
  }

  ParsedMail read() {
    ParsedMail mail;
    texts_.assign(nodes_.size(), std::nullopt);
    for (size_t i = 0; i < nodes_.size(); ++i) visit(static_cast<int>(i), mail);
    std::vector<std::string> text;
    std::vector<std::string> html;
    collect(0, false, text, html);
    for (size_t i = 0; i < text.size(); ++i) mail.text.append(i > 0 ? "\n" : "").append(text[i]);
    for (size_t i = 0; i < html.size(); ++i)
      mail.html.append(i > 0 ? "<br/>\n" : "").append(html[i]);
    if (!mail.html.empty()) mail.html = link_images(mail.html, mail.attachments);
    mail.top_headers = std::move(nodes_.front().headers);
    return mail;
  }

 private:
  // The node's type as mailparser holds it: the top part defaults to text/plain.
  std::optional<std::string> type_of(int index) const {
    const auto& type = infos_[index].content_type;
    if (!type && index == 0) return "text/plain";
    return type;
  }

  bool is_multipart(int index) const {
    const auto type = type_of(index);
    return type && ascii_lower(type->substr(0, 10)) == "multipart/";
  }

  // Whether mailsplit reads this node's children: a multipart with a boundary, or an inline
  // message/rfc822 (nodes GMime parsed into in other cases are skipped).
  bool has_children(int index) const {
    if (is_multipart(index)) return infos_[index].boundary.has_value();
    return infos_[index].descends && nodes_[index].kind == MimeNode::Kind::message;
  }

  bool reachable(int index) const {
    for (int parent = nodes_[index].parent; parent >= 0;
         index = parent, parent = nodes_[parent].parent) {
      if (!has_children(parent)) return false;
    }
    return true;
  }

  // The boundary mailsplit files the node under for its part number.
  std::optional<std::string> parent_boundary(int index) const {
    const int parent = nodes_[index].parent;
    if (parent < 0) return std::nullopt;
    if (!is_multipart(parent)) {
      // The top of an embedded message: its message/rfc822 part's parent's boundary.
      const int grandparent = nodes_[parent].parent;
      return grandparent >= 0 ? infos_[grandparent].boundary : std::nullopt;
    }
    return infos_[parent].boundary;
  }

  // mailparser's _getPartId: counts per boundary, in order of first appearance, joined with dots.
  std::string part_id(const std::string& boundary) {
    size_t index = 0;
    while (index < boundaries_.size() && boundaries_[index].first != boundary) ++index;
    if (index == boundaries_.size()) {
      boundaries_.emplace_back(boundary, 1);
    } else {
      ++boundaries_[index].second;
    }
    std::string id;
    for (size_t i = 0; i <= index; ++i)
      id.append(i > 0 ? "." : "").append(std::to_string(boundaries_[i].second));
    return id;
  }

  void visit(int index, ParsedMail& mail) {
    if (!reachable(index)) return;
    std::optional<std::string> id;
    if (auto boundary = parent_boundary(index)) id = part_id(*boundary);
    const PartInfo& info = infos_[index];
    if (is_multipart(index) || (info.descends && nodes_[index].kind == MimeNode::Kind::message))
      return;
    const auto type = type_of(index);
    std::string disposition;
    if (info.disposition && *info.disposition != "attachment" && *info.disposition != "inline") {
      disposition = "attachment";
    } else if (!info.disposition && !is_text_type(type)) {
      disposition = "attachment";
    } else {
      disposition = info.disposition.value_or("inline");
    }
    const bool attachment = !is_text_type(type) || disposition != "inline";
    if (attachment) {
      Attachment record;
      record.content = decoded_body(nodes_[index], info);
      record.content_type = type;
      if (type == "application/octet-stream" && info.filename) {
        record.content_type = std::string(detect_mime_type(*info.filename));
      }
      record.part_id = id;
      record.content_disposition = info.disposition;
      record.filename = info.filename;
      for (const MimeHeader& header : nodes_[index].headers) {
        if (header.key != "content-id") continue;
        std::string value = to_valid_utf8(decode_header(header.line).value);
        if (!value.empty()) record.content_id = std::move(value);  // the last one counts
      }
      if (record.content_id) {
        std::string_view cid = js_trim(*record.content_id);
        if (!cid.empty() && cid.front() == '<') cid.remove_prefix(1);
        if (!cid.empty() && cid.back() == '>') cid.remove_suffix(1);
        record.cid = std::string(js_trim(cid));
        for (int parent = nodes_[index].parent; parent >= 0; parent = nodes_[parent].parent) {
          record.related |= type_of(parent) == "multipart/related";
        }
      }
      mail.attachments.push_back(std::move(record));
      return;
    }
    if (type == "text/plain" || type == "message/delivery-status") has_text_ = true;
    if (type == "text/html") has_html_ = true;
    std::string content = decoded_body(nodes_[index], info);
    if (info.flowed) content = decode_flowed(content, info.del_sp);
    texts_[index] = replace_line_ends(decode_text_charset(content, info.charset.value_or("")));
  }

  // getTextContent's walk: text and HTML parts in order, an HTML part's text when there is no
  // plain alternative to it, a plain part's HTML when there is HTML elsewhere.
  void collect(int index, bool alternative, std::vector<std::string>& text,
               std::vector<std::string>& html) {
    const int parent = nodes_[index].parent;
    if (parent >= 0 && infos_[parent].descends && !is_multipart(parent)) {
      // The top of an embedded message: its headers come first (showMeta).
      if (has_text_) text.push_back(meta_text(nodes_[index].headers));
      if (has_html_) html.push_back(meta_html(nodes_[index].headers));
    }
    const auto type = type_of(index);
    if (texts_[index] && !texts_[index]->empty()) {
      const std::string& content = *texts_[index];
      if (type == "text/plain" || type == "message/delivery-status") {
        text.push_back(content);
        if (!alternative && has_html_) html.push_back(text_to_html(content));
      } else if (type == "text/html") {
        if ((!alternative && has_text_) || (index == 0 && !has_text_))
          text.push_back(html_to_text(content));
        html.push_back(content);
      }
    }
    alternative = alternative || type == "multipart/alternative";
    if (!has_children(index)) return;
    for (int child : nodes_[index].children) collect(child, alternative, text, html);
  }

  static std::string meta_html(const std::vector<MimeHeader>& headers) {
    // mailparser's table of the same fields; rare enough (HTML beside a forwarded message) that
    // the text lines, escaped, stand in for its markup.
    return "<table class=\"mp_head\">" + text_to_html(meta_text(headers)) + "<table>";
  }

  std::vector<MimeNode> nodes_;
  std::vector<PartInfo> infos_;
  std::vector<std::optional<std::string>> texts_;
  std::vector<std::pair<std::string, int>> boundaries_;
  bool has_text_ = false;
  bool has_html_ = false;
};

}  // namespace

ParsedMail parse_mail(std::string_view message) {
  return Reader(read_mime_tree(message)).read();
}

}  // namespace rift::smtp
