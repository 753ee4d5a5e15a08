#include "compiler/xpath.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include <stdexcept>

#include "compiler/xpath_stream.h"

namespace rift::xpath {
namespace {

struct DocDeleter {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};
struct CompDeleter {
  void operator()(xmlXPathCompExpr* comp) const { xmlXPathFreeCompExpr(comp); }
};
struct ContextDeleter {
  void operator()(xmlXPathContext* context) const { xmlXPathFreeContext(context); }
};
struct ObjectDeleter {
  void operator()(xmlXPathObject* object) const { xmlXPathFreeObject(object); }
};
struct ParserDeleter {
  void operator()(xmlParserCtxt* parser) const { xmlFreeParserCtxt(parser); }
};

// libxml2 reports through callbacks; errors are returned as values here instead.
void ignore_structured_error(void*, xmlErrorPtr) {}

const xmlChar* to_xml(const std::string& text) {
  return reinterpret_cast<const xmlChar*>(text.c_str());
}

std::string text_of(const xmlChar* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// xmldom's `data`: text, CDATA, comment and processing-instruction nodes carry data;
// elements and documents do not (JavaScript's String(undefined) is "undefined").
std::string node_data(const xmlNode* node) {
  switch (node->type) {
    case XML_TEXT_NODE:
    case XML_CDATA_SECTION_NODE:
    case XML_COMMENT_NODE:
    case XML_PI_NODE:
      return text_of(node->content);
    default:
      return "undefined";
  }
}

// Mountebank's nodeValue (models/xpath.js).
std::string node_value(const xmlNode* node) {
  if (node->type == XML_TEXT_NODE) return text_of(node->content);
  if (node->type == XML_ATTRIBUTE_NODE) {
    xmlChar* value = xmlNodeGetContent(node);
    std::string out = text_of(value);
    xmlFree(value);
    return out;
  }
  if (node->type == XML_NAMESPACE_DECL) {
    return text_of(reinterpret_cast<const xmlNs*>(node)->href);
  }
  const xmlNode* first = node->children;
  if (node->type == XML_DOCUMENT_NODE)
    first = xmlDocGetRootElement(reinterpret_cast<const xmlDoc*>(node));
  if (first != nullptr) return node_data(first);
  return node_data(node);
}

// Per-thread libxml2 state reused across requests: creating a parser context (its dictionary
// and buffers) and an XPath context (it registers every XPath function in a hash table) cost
// more than parsing and selecting a small body. Neither is shared between threads.
class ThreadState {
 public:
  static ThreadState& get() {
    thread_local ThreadState state;
    return state;
  }

  // A parser context for one more document. Documents keep a reference to the context's
  // dictionary of names, which grows with every distinct name parsed; a fresh context every
  // kParsesPerContext documents bounds it.
  xmlParserCtxt* parser() {
    if (!parser_ || parses_ == kParsesPerContext) {
      parser_.reset(xmlNewParserCtxt());
      parses_ = 0;
    }
    ++parses_;
    return parser_.get();
  }

  // The XPath context, pointed at `doc` with no namespaces registered yet.
  xmlXPathContext* xpath(xmlDoc* doc) {
    if (!xpath_) {
      xpath_.reset(xmlXPathNewContext(nullptr));
      if (xpath_) xpath_->error = &ignore_structured_error;
    }
    if (!xpath_) return nullptr;
    xmlXPathContext* context = xpath_.get();
    xmlXPathRegisteredNsCleanup(context);
    context->doc = doc;
    context->node = nullptr;
    context->contextSize = -1;
    context->proximityPosition = -1;
    return context;
  }

 private:
  static constexpr int kParsesPerContext = 256;
  std::unique_ptr<xmlParserCtxt, ParserDeleter> parser_;
  int parses_ = 0;
  std::unique_ptr<xmlXPathContext, ContextDeleter> xpath_;
};

}  // namespace

struct Document::Impl {
  std::unique_ptr<xmlDoc, DocDeleter> doc;
};

struct Selector::Impl {
  std::string source;
  std::map<std::string, std::string> ns;
  std::unique_ptr<xmlXPathCompExpr, CompDeleter> comp;
  std::optional<StreamForm> stream;  // set when the expression streams
};

Document::Document(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;
Document::~Document() = default;

std::optional<Document> Document::parse(std::string_view xml) {
  if (xml.empty()) return std::nullopt;
  constexpr int kOptions = XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NONET;
  xmlParserCtxt* parser = ThreadState::get().parser();
  xmlDoc* doc =
      parser != nullptr
          ? xmlCtxtReadMemory(parser, xml.data(), static_cast<int>(xml.size()), nullptr, "UTF-8",
                              kOptions)
          : xmlReadMemory(xml.data(), static_cast<int>(xml.size()), nullptr, "UTF-8", kOptions);
  if (doc == nullptr) return std::nullopt;
  auto impl = std::make_unique<Impl>();
  impl->doc.reset(doc);
  return Document(std::move(impl));
}

Document Document::empty() {
  auto impl = std::make_unique<Impl>();
  impl->doc.reset(xmlNewDoc(reinterpret_cast<const xmlChar*>("1.0")));
  return Document(std::move(impl));
}

Selector::Selector(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Selector::Selector(Selector&&) noexcept = default;
Selector& Selector::operator=(Selector&&) noexcept = default;
Selector::~Selector() = default;

const std::string& Selector::source() const {
  return impl_->source;
}

std::variant<Selector, std::string> Selector::compile(std::string_view expression,
                                                      std::map<std::string, std::string> ns) {
  auto impl = std::make_unique<Impl>();
  impl->source = std::string(expression);
  impl->ns = std::move(ns);
  // Compiling against a context routes syntax errors to our (silent) handler, not stderr.
  std::unique_ptr<xmlXPathContext, ContextDeleter> context(xmlXPathNewContext(nullptr));
  context->error = &ignore_structured_error;
  impl->comp.reset(xmlXPathCtxtCompile(context.get(), to_xml(impl->source)));
  if (!impl->comp) return std::string("malformed xpath predicate selector");
  impl->stream = stream_form(impl->source);
  return Selector(std::move(impl));
}

std::optional<Result> Selector::select_streaming(std::string_view xml) const {
  if (!impl_->stream) return std::nullopt;
  return stream_select(*impl_->stream, xml);
}

Result Selector::select(const Document& document) const {
  xmlDoc* doc = document.impl().doc.get();
  xmlXPathContext* context = ThreadState::get().xpath(doc);
  if (context == nullptr) throw std::runtime_error("malformed xpath predicate selector");
  for (const auto& [prefix, uri] : impl_->ns) {
    xmlXPathRegisterNs(context, to_xml(prefix), to_xml(uri));
  }
  std::unique_ptr<xmlXPathObject, ObjectDeleter> object(
      xmlXPathCompiledEval(impl_->comp.get(), context));
  if (!object) throw std::runtime_error("malformed xpath predicate selector");
  switch (object->type) {
    case XPATH_NUMBER:
      return object->floatval;
    case XPATH_BOOLEAN:
      return object->boolval != 0;
    case XPATH_STRING:
      return text_of(object->stringval);
    case XPATH_NODESET: {
      const xmlNodeSet* nodes = object->nodesetval;
      if (nodes == nullptr || nodes->nodeNr == 0) return std::monostate{};
      std::vector<std::string> values;
      values.reserve(static_cast<std::size_t>(nodes->nodeNr));
      for (int i = 0; i < nodes->nodeNr; ++i) values.push_back(node_value(nodes->nodeTab[i]));
      return values;
    }
    default:
      return std::monostate{};
  }
}

Result select(const Selector& selector, std::string_view xml) {
  if (xml.empty()) return std::monostate{};
  auto document = Document::parse(xml);
  if (document) return selector.select(*document);
  return selector.select(Document::empty());
}

}  // namespace rift::xpath
