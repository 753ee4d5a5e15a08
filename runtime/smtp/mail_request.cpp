#include "runtime/smtp/mail_request.h"

#include <glib.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/text_encoding.h"
#include "runtime/smtp/address_parser.h"
#include "runtime/smtp/html_text.h"
#include "runtime/smtp/js_text.h"
#include "runtime/smtp/mail_parts.h"
#include "runtime/smtp/mime_words.h"

namespace rift::smtp {
namespace {

// A header as mailparser's processHeaders reads it: the unfolded value, its bytes as UTF-8.
std::string header_text(const MimeHeader& header) {
  return to_valid_utf8(decode_header(header.line).value);
}

// "<id>" whatever the sender wrote (mailparser's ensureMessageIDFormat); nullopt for "".
std::optional<std::string> message_id_format(std::string value) {
  if (value.empty()) return std::nullopt;
  if (value.front() != '<') value.insert(value.begin(), '<');
  if (value.back() != '>') value.push_back('>');
  return value;
}

ir::Json address_json(const MailAddress& address) {
  ir::Json out = ir::Json::object();
  if (address.group) {
    out["name"] = address.name;
    ir::Json members = ir::Json::array();
    for (const auto& member : *address.group) members.push_back(address_json(member));
    out["group"] = std::move(members);
    return out;
  }
  out["address"] = address.address.value_or("");
  out["name"] = address.name;
  return out;
}

// The first address of a header's list, as Mountebank takes `value[0]`: null when it has none.
ir::Json first_address(std::string_view text) {
  const auto addresses = parse_address_header(text);
  return addresses.empty() ? ir::Json(nullptr) : address_json(addresses.front());
}

// The fields Mountebank takes from the top-level headers, with processHeaders' rules: the last
// From, Subject and In-Reply-To win; every To, Cc and Bcc header counts; References accumulate.
struct TopHeaders {
  std::optional<ir::Json> from;
  std::optional<std::string> subject;
  ir::Json to = ir::Json::array();
  ir::Json cc = ir::Json::array();
  ir::Json bcc = ir::Json::array();
  std::vector<ir::Json> references;  // strings, or false for an empty one
  bool has_references = false;
  std::optional<std::string> in_reply_to;
};

TopHeaders read_top_headers(const std::vector<MimeHeader>& headers) {
  TopHeaders top;
  for (const MimeHeader& header : headers) {
    const std::string& key = header.key;
    if (key == "from") {
      const std::string text = header_text(header);
      const auto addresses = parse_address_header(text);
      top.from = addresses.empty() ? std::nullopt : std::optional(address_json(addresses.front()));
    } else if (key == "to" || key == "cc" || key == "bcc") {
      ir::Json& list = key == "to" ? top.to : (key == "cc" ? top.cc : top.bcc);
      list.push_back(first_address(header_text(header)));
    } else if (key == "subject") {
      std::string subject = decode_words(header_text(header));
      if (!subject.empty()) top.subject = std::move(subject);
    } else if (key == "references") {
      top.has_references = true;
      const std::string text = decode_words(header_text(header));
      for (std::string_view piece : js_split_whitespace(text)) {
        auto id = message_id_format(std::string(piece));
        top.references.push_back(id ? ir::Json(*id) : ir::Json(false));
      }
    } else if (key == "in-reply-to") {
      if (auto id = message_id_format(decode_words(header_text(header))))
        top.in_reply_to = std::move(id);
    }
  }
  return top;
}

std::string md5_hex(std::string_view bytes) {
  gchar* digest = g_compute_checksum_for_data(
      G_CHECKSUM_MD5, reinterpret_cast<const guchar*>(bytes.data()), bytes.size());
  std::string hex(digest);
  g_free(digest);
  return hex;
}

ir::Json attachment_json(const Attachment& attachment) {
  ir::Json out = ir::Json::object();
  out["type"] = "attachment";
  ir::Json data = ir::Json::array();
  for (char c : attachment.content) data.push_back(static_cast<unsigned char>(c));
  out["content"] = ir::Json{{"type", "Buffer"}, {"data", std::move(data)}};
  out["contentType"] =
      attachment.content_type ? ir::Json(*attachment.content_type) : ir::Json(false);
  out["partId"] = attachment.part_id ? ir::Json(*attachment.part_id) : ir::Json(nullptr);
  out["release"] = nullptr;  // simpleParser calls release() and it sets itself to null
  if (attachment.content_disposition) out["contentDisposition"] = *attachment.content_disposition;
  if (attachment.filename) out["filename"] = *attachment.filename;
  if (attachment.content_id) {
    out["contentId"] = *attachment.content_id;
    out["cid"] = attachment.cid;
    if (attachment.related) out["related"] = true;
  }
  out["headers"] = ir::Json::object();  // a Map, which JSON.stringify writes as {}
  out["checksum"] = md5_hex(attachment.content);
  out["size"] = attachment.content.size();
  return out;
}

}  // namespace

ir::Json mail_request(const SmtpMail& mail, std::string_view remote_address) {
  const ParsedMail parsed = parse_mail(mail.data);
  const TopHeaders top = read_top_headers(parsed.top_headers);

  ir::Json request = ir::Json::object();
  request["requestFrom"] = remote_address;
  request["ip"] = remote_address;
  request["envelopeFrom"] = mail.mail_from;
  request["envelopeTo"] = mail.rcpt_to;
  if (top.from) request["from"] = *top.from;
  request["to"] = top.to;
  request["cc"] = top.cc;
  request["bcc"] = top.bcc;
  if (top.subject) request["subject"] = *top.subject;
  request["priority"] = "normal";
  // One reference is a string (processHeaders unwraps a one-element list); none, or an empty
  // header's lone `false`, is Mountebank's [].
  if (!top.has_references || (top.references.size() == 1 && top.references.front().is_boolean())) {
    request["references"] = ir::Json::array();
  } else if (top.references.size() == 1) {
    request["references"] = top.references.front();
  } else {
    request["references"] = top.references;
  }
  request["inReplyTo"] = top.in_reply_to ? ir::Json(*top.in_reply_to) : ir::Json::array();
  request["text"] = std::string(js_trim(parsed.text));
  request["html"] = std::string(js_trim(parsed.html));
  ir::Json attachments = ir::Json::array();
  for (const Attachment& attachment : parsed.attachments)
    attachments.push_back(attachment_json(attachment));
  request["attachments"] = std::move(attachments);
  return request;
}

}  // namespace rift::smtp
