// The small shared vocabulary every generated stub and request draws from. Small on purpose:
// stubs built from it overlap (many match the same request), which is the interesting case for
// a planner. It mixes letter case, repeated keys, a non-ASCII word whose JavaScript lower case
// differs from its ASCII one, JSON objects and arrays (nested, with numbers in every notation,
// escapes, repeated and folding keys, integers beyond 64 bits), and XML with and without
// namespaces (a default one too), attributes, CDATA, comments, entities and a DTD.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rift::equivalence::vocabulary {

using Words = std::vector<std::string>;

// Methods as requests carry them (upper case) and as stubs may spell them.
inline const Words& request_methods() {
  static const Words words = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  return words;
}
inline const Words& stub_methods() {
  static const Words words = {"GET", "get", "Post", "PUT", "DELETE", "patch"};
  return words;
}

// Request paths are ASCII (the wire percent-encodes the rest); stubs may name any text.
inline const Words& request_paths() {
  static const Words words = {"/",      "/a",       "/A",        "/a/b",
                              "/users", "/users/1", "/Users/42", "/api/v1/items"};
  return words;
}
inline const Words& stub_paths() {
  static const Words words = {"/",
                              "/a",
                              "/A",
                              "/a/b",
                              "/users",
                              "/users/1",
                              "/Users/42",
                              "/api/v1/items",
                              "/\xC4\xB0"
                              "d"};
  return words;
}
// Fragments for contains / startsWith / endsWith on paths.
inline const Words& path_fragments() {
  static const Words words = {"/a", "/users", "1", "b", "/", "s/4", "A", "items", "/api"};
  return words;
}

// Prefixes for startsWith on paths (the planner files stubs under them).
inline const Words& path_prefixes() {
  static const Words words = {"/",       "/a",      "/a/",      "/A/",      "/users",
                              "/users/", "/Users/", "/api/",    "/api/v1/", "/api/v1/items",
                              "/u",      "/x",      "/\xC4\xB0"};
  return words;
}
// `^literal` patterns on paths, each with a path it matches: plain and escaped literals, a
// quantifier on the last character, a whole-path literal, and ones the planner must refuse.
inline const std::vector<std::pair<std::string, std::string>>& path_patterns() {
  static const std::vector<std::pair<std::string, std::string>> patterns = {
      {"^/users/\\d+$", "/users/42"},
      {"^/a", "/a/b"},
      {"^\\/api\\/v1\\/", "/api/v1/items"},
      {"^/users?/", "/user/1"},
      {"^/a$", "/a"},
      {"^/A/b", "/a/b"},
      {"^/api/v\\d+/items$", "/api/v1/items"},
      {"^/Users/4", "/Users/42"},
      {"^/a|^/users", "/users"},
      {"^/(a|users)", "/a"},
      {"^/a/b*", "/a/"},
      {"^/a\\.b", "/a.b"},
      {"^/u{1}sers", "/users"},
  };
  return patterns;
}

// Scalar values for query, headers, form and text bodies. "\xC3\x9Cn\xC3\xAF" is "Ünï".
inline const Words& values() {
  static const Words words = {
      "a", "A", "b", "ab", "abc", "1", "42", "true", "x y", "\xC3\x9Cn\xC3\xAF", ""};
  return words;
}

// Space ids (docs/spaces.md): two spellings of one id and a port-like one, since a flow id
// compares byte for byte.
inline const Words& spaces() {
  static const Words words = {"team-a", "TEAM-A", "team-b", "4545"};
  return words;
}
// What requests carry: the spaces, and flow ids no stub lives in.
inline const Words& flow_ids() {
  static const Words words = {"team-a", "TEAM-A", "team-b", "4545", "team-c", ""};
  return words;
}

// Scenario names and states (docs/scenarios.md): names and states that differ only in case, since
// the tree files gates under folded states and the gate compares exactly.
inline const Words& scenario_names() {
  static const Words words = {"checkout", "Checkout", "login"};
  return words;
}
inline const Words& scenario_states() {
  static const Words words = {"Started", "Paid", "paid", "Shipped"};
  return words;
}

inline const Words& query_keys() {
  static const Words words = {"q", "Q", "id", "tag", "page"};
  return words;
}
// Mixed-case names: header names are kept exactly as sent, and fold only in predicates.
inline const Words& header_names() {
  static const Words words = {"Accept", "accept", "X-Id", "x-id", "X-Tag", "Content-Type"};
  return words;
}
inline const Words& form_keys() {
  static const Words words = {"name", "id", "tag"};
  return words;
}

inline const Words& text_bodies() {
  static const Words words = {"", "hello", "a", "abc", "x y", "name=a&id=1", "42"};
  return words;
}
inline const Words& json_bodies() {
  static const Words words = {
      R"({"id":1,"name":"a","tags":["a","b"],"nested":{"k":"v"}})",
      R"({"id":2,"name":"B","tags":["b"],"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]})",
      R"([{"id":1},{"id":2}])",
      R"({"ID":"1","Name":"A","k":"V"})",
      R"([1,2,3])",
      R"({"user":{"id":7,"name":"a"},"id":[1,2],"type":"request"})",
      R"([{"id":2,"name":"b"},"{\"id\":1,\"name\":\"a\"}",[{"id":"7"}]])",
      R"({"id":3,"price":12.5,"neg":-0.25,"big":1e21,"small":2E-3,"zero":-0,"name":"a\"b",)"
      R"("path":"a\\b\/c","uni":"caf\u00e9 \ud83d\ude00","nl":"x\ny\t",)"
      R"("nested":{"deep":{"x":[1,{"y":"z"}],"k":"v"}},"flag":true,"none":null})",
      R"({"id":1,"id":2,"Name":"a","name":"b","NAME":"c","tags":[],"nested":{}})",
      R"([{"id":"1","tags":["x","y"]},{"id":1.0},null,true,"s",[[]],{"name":"a","id":7}])",
      R"({"\u00fcn\u00efcode":"\u00dcn\u00ef","user":{"id":"7","roles":["admin","Admin"],)"
      R"("name":"A"},"type":"Request"})",
      R"({"a":{"a":{"a":{"a":{"a":{"id":5,"name":"deep"}}}}},"id":[[1,2],[3]]})",
      R"({"id":123456789012345678901234567890,"n":18446744073709551615,)"
      R"("m":-9223372036854775809,"name":"big"})",
      R"( { "id" : 2 , "name" : "b" , "tags" : [ "b" , "a" ] } )",
      R"({"items":[{"id":2,"name":"b","price":1.5},{"id":3,"name":"c","price":10}],"count":2,)"
      R"("id":"2"})",
  };
  return words;
}
// Request bodies that only look like JSON documents, or are JSON but not objects or arrays: a
// syntax error after the members, a JSON string holding JSON, scalars, a lone surrogate escape,
// a byte order mark (JSON.parse refuses it).
inline const Words& odd_json_bodies() {
  static const Words words = {
      R"({"id":1,"name":"a",})",
      R"({"id":1} x)",
      R"("{\"id\":1,\"name\":\"a\"}")",
      "42",
      "null",
      R"({"id":"\ud800","name":"a"})",
      "\xEF\xBB\xBF{\"id\":1,\"name\":\"a\"}",
  };
  return words;
}
inline const Words& xml_bodies() {
  static const Words words = {
      "<root><id>1</id><name>a</name><item>a</item><item>b</item></root>",
      "<root id=\"7\"><name>B</name><item>b</item></root>",
      "<r xmlns:n=\"urn:x\"><n:id>1</n:id><n:name>A</n:name></r>",
      "<Root><ID>1</ID></Root>",
      "<root xmlns=\"urn:d\" xmlns:n=\"urn:x\"><id>1</id><n:id>2</n:id>"
      "<item n:type=\"a\">b</item></root>",
      "<root><item id=\"1\">a<item id=\"2\">b</item></item><item id=\"2\"/>"
      "<item id='3'>c</item></root>",
      "<root><name><![CDATA[a<b]]></name><id><!--c-->1</id><item>&amp;x&#65;</item>"
      "<?pi data?><item/></root>",
      "<root><id>1<![CDATA[2]]></id><name><![CDATA[a]]>b</name><item>a<!--c-->b</item></root>",
      "<root>\n  <id> 1 </id>\n  <name>a</name>\n</root>",
      "<root><item type=\"a&amp;b\">x</item><item type=\"a\">y</item></root>",
      "<R xmlns:N=\"urn:x\"><N:ID>1</N:ID><ID>2</ID></R>",
      "<?xml version=\"1.0\"?><!DOCTYPE root [<!ENTITY e \"v\">]>"
      "<root><id>&e;</id><name>a</name></root>",
  };
  return words;
}
// Request bodies that are not well-formed XML: searched as an empty document.
inline const Words& odd_xml_bodies() {
  static const Words words = {"<root><id>1</id>", "<root><n:id>1</n:id></root>", "<id>1</id"};
  return words;
}

// Values jsonpath / xpath selections are compared with.
inline const Words& selected_values() {
  static const Words words = {"1",
                              "2",
                              "a",
                              "b",
                              "B",
                              "v",
                              "7",
                              "true",
                              "3",
                              "12.5",
                              "-0.25",
                              "1e+21",
                              "a\"b",
                              "z",
                              "c",
                              "5",
                              "admin",
                              "0",
                              "x\ny\t",
                              "a\\b/c",
                              "caf\xC3\xA9 \xF0\x9F\x98\x80",
                              "1.2345678901234568e+29",
                              "a<b",
                              "&xA",
                              "undefined"};
  return words;
}
inline const Words& jsonpath_selectors() {
  static const Words words = {
      "$.id", "$.name", "$..k", "$.tags[0]", "$.tags[*]", "$[0].id", "$.ID",
      "$.items[?(@.id==2)].name", "$..id", "$.missing", "$[*]", "$.tags.length", "$.user.id",
      "$.type", "$[*].id",
      // The documents with numbers, escapes and deep nesting.
      "$.nested.deep.x[1].y", "$.price", "$['name']", "$.a.a.a.a.a.id", "$..y", "$.uni",
      "$.user.roles[*]", "$..price", "$.items[?(@.price>2)].name", "$.big", "$.zero", "$.neg",
      "$.path", "$.nl",
      "$['\xC3\xBCn\xC3\xAF"
      "code']",
      "$.items[1].price",
      // Index and name spellings the tape walk must read as the tree does.
      "$.tags[01]", "$.tags[-1]", "$.tags['1']", "$.name.length", "$.id.length", "$.id[1]",
      "$[1].id", "$.nested['k']", "$.tags[1:]", "$.user['roles'][0]"};
  return words;
}
// An xpath selector, with the namespace prefix `ns` binds (or "") and its URI. "//n:id"
// without ns fails at evaluation. `//name` and `//name[@attr='value']` are read in one SAX pass
// (compiler/xpath_stream.h), the rest on the DOM.
struct XPathWord {
  std::string selector;
  std::string prefix;
  std::string uri;
};
inline const std::vector<XPathWord>& xpath_selectors() {
  static const std::vector<XPathWord> selectors = {
      {"//id", "", ""},
      {"/root/name", "", ""},
      {"//item", "", ""},
      {"count(//item)", "", ""},
      {"//@id", "", ""},
      {"//n:id", "n", "urn:x"},
      {"//N:ID", "N", "urn:x"},
      {"//n:id", "", ""},
      {"boolean(//name)", "", ""},
      {"//name/text()", "", ""},
      {"//ID", "", ""},
      {"//item[@id='2']", "", ""},
      {"//item[@type=\"a\"]", "", ""},
      {"//d:id", "d", "urn:d"},
      {"//*[local-name()='id']", "", ""},
      {"//item/@id", "", ""},
      {"string(//id)", "", ""},
      {"/root/item[2]", "", ""},
      {"//name", "", ""},
      {"//n:id | //id", "n", "urn:x"},
  };
  return selectors;
}

// ECMAScript patterns, each with a text it matches (for building requests that hit it).
inline const std::vector<std::pair<std::string, std::string>>& patterns() {
  static const std::vector<std::pair<std::string, std::string>> patterns = {
      {"^/users/\\d+$", "/users/42"},
      {"^/a", "/a/b"},
      {"b$", "/a/b"},
      {"^(GET|POST)$", "GET"},
      {"\\d+", "42"},
      {"^$", ""},
      {"^[a-z]+$", "abc"},
      {"A", "a"},
      {"x y", "x y"},
      {"(?<=/)a", "/a"},
      {"^\\W", "/a"},
      {"\xC3\x9C", "\xC3\xBC"},
      {"^[^/]", "abc"},
      {"^(?<w>\\w)\\k<w>", "aa"},
  };
  return patterns;
}
// Patterns that do not compile: creation must fail the same way on every side.
inline const Words& invalid_patterns() {
  static const Words words = {"(", "[a-"};
  return words;
}
inline const Words& except_patterns() {
  static const Words words = {"\\d+", "[aeiou]", "^/", "x", "-"};
  return words;
}
// `inject` predicate sources. The tester runs no JavaScript: VocabularyInjector answers each of
// these by its meaning, so what is checked is that every tier asks at the right leaf, in stub
// order, and stops at the first throw.
inline const Words& inject_sources() {
  static const Words words = {
      "config => config.request.method === 'GET'",
      "config => config.request.path.includes('a')",
      "() => false",
      "() => { throw new Error('injected'); }",
  };
  return words;
}

}  // namespace rift::equivalence::vocabulary
