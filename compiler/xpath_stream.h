// XPath selectors answered in one SAX pass over the XML text, without a DOM
// (docs/mountebank-semantics.md §4.8).
//
// Only `//name` and `//name[@attr='value']` (or "value") stream: every element with that local
// name and no namespace, optionally carrying that attribute (no namespace) with exactly that
// value, in document order. Each yields Mountebank's node value, as xpath.cpp computes it on the
// DOM: the data of its first child (text, CDATA, comment or processing instruction) or
// "undefined" when the first child is an element or there is none.
//
// Anything the pass cannot answer exactly as libxml2's DOM would comes back as nullopt and the
// caller takes the DOM path: a text that is not well-formed (namespace errors included), a
// document type declaration (entities, default attributes), an entity reference, or a character
// or entity reference in the value of an attribute the selector compares.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/xpath.h"

namespace rift::xpath {

struct StreamForm {
  std::string element;                   // the local name after `//`
  std::optional<std::string> attribute;  // the predicate's attribute name, if any
  std::string value;                     // the attribute's expected value
};

// The streaming form of an XPath expression; nullopt for every other expression.
std::optional<StreamForm> stream_form(std::string_view expression);

// The selection, as Selector::select would give it on the parsed document; nullopt: use the DOM.
std::optional<Result> stream_select(const StreamForm& form, std::string_view xml);

}  // namespace rift::xpath
