// The small shared vocabulary every generated stub and request draws from. Small on purpose:
// stubs built from it overlap (many match the same request), which is the interesting case for
// a planner. It mixes letter case, repeated keys, a non-ASCII word whose JavaScript lower case
// differs from its ASCII one, JSON objects and arrays, and XML with and without namespaces.
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
  };
  return words;
}
inline const Words& xml_bodies() {
  static const Words words = {
      "<root><id>1</id><name>a</name><item>a</item><item>b</item></root>",
      "<root id=\"7\"><name>B</name><item>b</item></root>",
      "<r xmlns:n=\"urn:x\"><n:id>1</n:id><n:name>A</n:name></r>",
      "<Root><ID>1</ID></Root>",
  };
  return words;
}

// Values jsonpath / xpath selections are compared with.
inline const Words& selected_values() {
  static const Words words = {"1", "2", "a", "b", "B", "v", "7", "true", "3"};
  return words;
}
inline const Words& jsonpath_selectors() {
  static const Words words = {"$.id",      "$.name",    "$..k",   "$.tags[0]",
                              "$.tags[*]", "$[0].id",   "$.ID",   "$.items[?(@.id==2)].name",
                              "$..id",     "$.missing", "$[*]",   "$.tags.length",
                              "$.user.id", "$.type",    "$[*].id"};
  return words;
}
// {selector, namespace prefix bound by `ns` or ""}: "//n:id" without ns fails at evaluation.
inline const std::vector<std::pair<std::string, std::string>>& xpath_selectors() {
  static const std::vector<std::pair<std::string, std::string>> selectors = {
      {"//id", ""},          {"/root/name", ""}, {"//item", ""},
      {"count(//item)", ""}, {"//@id", ""},      {"//n:id", "n"},
      {"//N:ID", "N"},       {"//n:id", ""},     {"boolean(//name)", ""},
      {"//name/text()", ""}, {"//ID", ""},
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
