// XPath 1.0 selection over XML text with libxml2 (docs/mountebank-semantics.md §4.8).
//
// Node values follow Mountebank (xmldom + xpath): a text node gives its text, an attribute its
// value, any other node the data of its first child, or "undefined" when that child has no data
// (an element) or there is no child. count()/boolean()/number()/string() results come back as
// scalars.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rift::xpath {

// The outcome of one selection. monostate: nothing selected (or unparsable document).
using Result = std::variant<std::monostate, double, bool, std::string, std::vector<std::string>>;

class Document;

class Selector {
 public:
  // Compiles `expression` with `ns` (prefix -> URI) bound. On a syntax error returns a message.
  static std::variant<Selector, std::string> compile(std::string_view expression,
                                                     std::map<std::string, std::string> ns);

  Selector(Selector&&) noexcept;
  Selector& operator=(Selector&&) noexcept;
  ~Selector();

  // Evaluates against a parsed document. Throws std::runtime_error when evaluation fails
  // (e.g. an unbound namespace prefix).
  Result select(const Document& document) const;

  // The selection read in one SAX pass over `xml` without building a document, for the forms
  // compiler/xpath_stream.h lists; nullopt when this selector or this text needs the DOM.
  // Equal to select(*Document::parse(xml)) whenever it answers.
  std::optional<Result> select_streaming(std::string_view xml) const;

  const std::string& source() const;

  struct Impl;

 private:
  explicit Selector(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Document {
 public:
  // nullopt when the text is empty or not well-formed XML.
  static std::optional<Document> parse(std::string_view xml);
  // A document with no nodes: what xmldom yields for text that is not XML, so count() is 0.
  static Document empty();

  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  ~Document();

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit Document(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Parse + select in one go, as Mountebank does: empty text selects nothing; other text that is
// not XML is searched as an empty document.
Result select(const Selector& selector, std::string_view xml);

}  // namespace rift::xpath
