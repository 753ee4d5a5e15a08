#include "compiler/xpath_stream.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <cstring>
#include <memory>
#include <vector>

namespace rift::xpath {
namespace {

bool name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool name_char(char c) {
  return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// An ASCII NCName at the front of `text`, consumed; empty when there is none. Non-ASCII names
// are left to the DOM path.
std::string_view take_name(std::string_view& text) {
  if (text.empty() || !name_start(text.front())) return {};
  std::size_t end = 1;
  while (end < text.size() && name_char(text[end])) ++end;
  const std::string_view name = text.substr(0, end);
  text.remove_prefix(end);
  return name;
}

bool take(std::string_view& text, std::string_view token) {
  if (!text.starts_with(token)) return false;
  text.remove_prefix(token.size());
  return true;
}

std::string as_string(const xmlChar* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

bool same(const xmlChar* text, const std::string& expected) {
  return text != nullptr && expected == reinterpret_cast<const char*>(text);
}

// One pass's state, reached from libxml2's callbacks through current_pass (the thread's pass in
// progress; libxml2 may reset the context's own user pointers when it starts a document).
struct Pass {
  const StreamForm* form = nullptr;
  std::vector<std::string> values;
  // The value being read: the last matched element's first child, while it is still open.
  enum class Pending { kNone, kFirstChild, kText, kCData } pending = Pending::kNone;
  bool unsupported = false;  // a DTD or an entity reference: the DOM path answers

  // The matched element's first child is not text, CDATA, a comment or a PI (or it has none):
  // its value is "undefined", as xpath.cpp's node_data gives for an element.
  void close_pending() {
    if (pending == Pending::kFirstChild) values.back() = "undefined";
    pending = Pending::kNone;
  }
  // Character data of `kind` arrived: libxml2's DOM merges adjacent data of one kind into one
  // node, so it extends the pending value; other data ends it.
  void data(Pending kind, const xmlChar* text, int length) {
    if (pending == Pending::kFirstChild) {
      pending = kind;
    } else if (pending != kind) {
      pending = Pending::kNone;
      return;
    }
    values.back().append(reinterpret_cast<const char*>(text), static_cast<std::size_t>(length));
  }
};

thread_local Pass* current_pass = nullptr;

Pass& pass_of(void*) {
  return *current_pass;
}

void on_start(void* context, const xmlChar* localname, const xmlChar* prefix, const xmlChar* uri,
              int, const xmlChar**, int attribute_count, int, const xmlChar** attributes) {
  Pass& pass = pass_of(context);
  pass.close_pending();
  if (prefix != nullptr || uri != nullptr || !same(localname, pass.form->element)) return;
  if (pass.form->attribute) {
    bool found = false;
    // Five pointers per attribute: localname, prefix, URI, value start, value end.
    for (int i = 0; i < attribute_count && !found; ++i) {
      const xmlChar** attribute = attributes + 5 * i;
      if (attribute[1] != nullptr || attribute[2] != nullptr) continue;
      if (!same(attribute[0], *pass.form->attribute)) continue;
      const std::string_view value(reinterpret_cast<const char*>(attribute[3]),
                                   static_cast<std::size_t>(attribute[4] - attribute[3]));
      // Without entity substitution libxml2 hands over `&amp;` as `&#38;`, which its tree
      // builder decodes afterwards: leave such values to the DOM path.
      if (value.find('&') != std::string_view::npos) pass.unsupported = true;
      found = value == pass.form->value;
    }
    if (!found) return;
  }
  pass.values.emplace_back();
  pass.pending = Pass::Pending::kFirstChild;
}

void on_end(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  pass_of(context).close_pending();
}

void on_characters(void* context, const xmlChar* text, int length) {
  pass_of(context).data(Pass::Pending::kText, text, length);
}

void on_cdata(void* context, const xmlChar* text, int length) {
  pass_of(context).data(Pass::Pending::kCData, text, length);
}

// A comment or processing instruction ends any pending text; as a first child it is the value.
void single_node(Pass& pass, const xmlChar* data) {
  if (pass.pending == Pass::Pending::kFirstChild) pass.values.back() = as_string(data);
  pass.pending = Pass::Pending::kNone;
}

void on_comment(void* context, const xmlChar* text) {
  single_node(pass_of(context), text);
}

void on_processing_instruction(void* context, const xmlChar*, const xmlChar* data) {
  single_node(pass_of(context), data);
}

void on_reference(void* context, const xmlChar*) {
  pass_of(context).unsupported = true;
}

void on_subset(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  pass_of(context).unsupported = true;
}

xmlSAXHandler make_handler() {
  xmlSAXHandler handler;
  std::memset(&handler, 0, sizeof handler);
  handler.initialized = XML_SAX2_MAGIC;
  handler.startElementNs = &on_start;
  handler.endElementNs = &on_end;
  handler.characters = &on_characters;
  handler.ignorableWhitespace = &on_characters;
  handler.cdataBlock = &on_cdata;
  handler.comment = &on_comment;
  handler.processingInstruction = &on_processing_instruction;
  handler.reference = &on_reference;
  handler.internalSubset = &on_subset;
  handler.externalSubset = &on_subset;
  return handler;
}

struct ParserDeleter {
  void operator()(xmlParserCtxt* parser) const { xmlFreeParserCtxt(parser); }
};

// The thread's SAX parser context, renewed every kParsesPerContext texts so that its dictionary
// of names stays bounded (as xpath.cpp does for the DOM parser).
xmlParserCtxt* thread_parser() {
  constexpr int kParsesPerContext = 256;
  thread_local std::unique_ptr<xmlParserCtxt, ParserDeleter> parser;
  thread_local int parses = 0;
  if (!parser || parses == kParsesPerContext) {
    parser.reset(xmlNewParserCtxt());
    parses = 0;
  }
  ++parses;
  return parser.get();
}

}  // namespace

std::optional<StreamForm> stream_form(std::string_view expression) {
  StreamForm form;
  if (!take(expression, "//")) return std::nullopt;
  const std::string_view element = take_name(expression);
  if (element.empty()) return std::nullopt;
  form.element = std::string(element);
  if (expression.empty()) return form;
  if (!take(expression, "[@")) return std::nullopt;
  const std::string_view attribute = take_name(expression);
  if (attribute.empty() || !take(expression, "=") || expression.empty()) return std::nullopt;
  const char quote = expression.front();
  if (quote != '\'' && quote != '"') return std::nullopt;
  expression.remove_prefix(1);
  const std::size_t close = expression.find(quote);
  if (close == std::string_view::npos) return std::nullopt;
  form.attribute = std::string(attribute);
  form.value = std::string(expression.substr(0, close));
  expression.remove_prefix(close + 1);
  if (expression != "]") return std::nullopt;
  return form;
}

std::optional<Result> stream_select(const StreamForm& form, std::string_view xml) {
  if (xml.empty()) return std::nullopt;
  xmlParserCtxt* parser = thread_parser();
  if (parser == nullptr || parser->sax == nullptr) return std::nullopt;
  static const xmlSAXHandler kHandler = make_handler();
  *parser->sax = kHandler;
  Pass pass;
  pass.form = &form;
  current_pass = &pass;
  // The DOM path's options, so that the same text is read the same way.
  constexpr int kOptions = XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NONET;
  xmlDoc* doc = xmlCtxtReadMemory(parser, xml.data(), static_cast<int>(xml.size()), nullptr,
                                  "UTF-8", kOptions);
  if (doc != nullptr) xmlFreeDoc(doc);  // never built by these callbacks; freed if it were
  current_pass = nullptr;
  if (pass.unsupported || !parser->wellFormed || !parser->nsWellFormed) return std::nullopt;
  if (pass.values.empty()) return Result(std::monostate{});
  return Result(std::move(pass.values));
}

}  // namespace rift::xpath
