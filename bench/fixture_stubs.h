// The benchmark fixture (docs/benchmark-workload.md §3-5) as ir::Json imposter
// documents: a C++ port of the stub generators G1-G14 in bench/fixture.py. `canonical_dump`
// reproduces the canonical serialization of §3 (", " and ": " separators, keys in insertion
// order), so the documents can be checked byte-for-byte against the published SHA-256 digests.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir.h"

namespace rift::bench {

using ir::Json;

// Builds an object whose keys keep the order written (ir::Json is insertion-ordered).
inline Json obj(std::initializer_list<std::pair<const char*, Json>> members) {
  Json out = Json::object();
  for (const auto& [key, value] : members) out[key] = value;
  return out;
}

inline Json arr(std::initializer_list<Json> items) {
  Json out = Json::array();
  for (const auto& item : items) out.push_back(item);
  return out;
}

// docs/benchmark-workload.md §3: separators ", " and ": ", no other whitespace; strings
// escape '"' and '\' only (the fixture is ASCII); integers without fraction.
inline void canonical_dump(const Json& value, std::string& out) {
  switch (value.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += ", ";
        first = false;
        canonical_dump(Json(key), out);
        out += ": ";
        canonical_dump(item, out);
      }
      out += '}';
      break;
    }
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += ", ";
        first = false;
        canonical_dump(item, out);
      }
      out += ']';
      break;
    }
    case Json::value_t::string:
      out += '"';
      for (char c : value.get_ref<const std::string&>()) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '"';
      break;
    default:  // integers, booleans, null: nlohmann's compact form is already canonical
      out += value.dump();
  }
}

inline std::string canonical_dump(const Json& value) {
  std::string out;
  canonical_dump(value, out);
  return out;
}

// {"predicates": [...], "responses": [{"is": {"statusCode", "headers"?, "body"?}}]}
inline Json stub(Json predicates, int status = 200, std::optional<Json> headers = std::nullopt,
                 std::optional<std::string> body = std::nullopt) {
  Json is = obj({{"statusCode", status}});
  if (headers) is["headers"] = *headers;
  if (body) is["body"] = *body;
  return obj({{"predicates", std::move(predicates)}, {"responses", arr({obj({{"is", is}})})}});
}

inline Json ct_json() {
  return obj({{"Content-Type", "application/json"}});
}
inline std::string num(int i) {
  return std::to_string(i);
}

// Response bodies are JSON text with the canonical separators.
inline std::string body_of(const Json& value) {
  return canonical_dump(value);
}

inline Json g1_simple() {
  return arr({stub(arr({obj({{"equals", obj({{"path", "/health"}})}})}), 200, std::nullopt, "OK"),
              stub(arr({obj({{"equals", obj({{"path", "/ping"}})}})}), 200, std::nullopt, "pong")});
}

// The API shape, generalized: resources r = 1, 2, ... each contribute 31 stubs (GET list, then
// GET/PUT/DELETE for items 1..10) until `count` stubs exist. count = 310 is exactly G2.
inline Json g2_api(int count = 310) {
  Json stubs = Json::array();
  auto full = [&] { return static_cast<int>(stubs.size()) >= count; };
  for (int r = 1; !full(); ++r) {
    const std::string name = "resource" + num(r);
    stubs.push_back(
        stub(arr({obj({{"equals", obj({{"method", "GET"}, {"path", "/api/v1/" + name}})}})}), 200,
             ct_json(),
             body_of(obj({{"items", arr({obj({{"id", 1}}), obj({{"id", 2}})})}, {"total", 2}}))));
    for (int j = 1; j <= 10 && !full(); ++j) {
      const std::string path = "/api/v1/" + name + "/" + num(j);
      stubs.push_back(stub(arr({obj({{"equals", obj({{"method", "GET"}, {"path", path}})}})}), 200,
                           ct_json(), body_of(obj({{"id", j}, {"name", name + "_" + num(j)}}))));
      if (full()) break;
      stubs.push_back(stub(arr({obj({{"equals", obj({{"method", "PUT"}, {"path", path}})}})}), 200,
                           std::nullopt, body_of(obj({{"id", j}, {"updated", true}}))));
      if (full()) break;
      stubs.push_back(
          stub(arr({obj({{"equals", obj({{"method", "DELETE"}, {"path", path}})}})}), 204));
    }
  }
  return stubs;
}

// The (method, path) that stub `index` of g2_api answers.
inline std::pair<std::string, std::string> g2_request_for(int index) {
  const int r = index / 31 + 1;
  const int pos = index % 31;
  const std::string base = "/api/v1/resource" + num(r);
  if (pos == 0) return {"GET", base};
  static const char* const kVerbs[] = {"GET", "PUT", "DELETE"};
  return {kVerbs[(pos - 1) % 3], base + "/" + num((pos - 1) / 3 + 1)};
}

inline Json g3_regex() {
  Json stubs = Json::array();
  for (int i = 1; i <= 100; ++i) {
    stubs.push_back(stub(
        arr({obj({{"matches", obj({{"path", "/regex/pattern" + num(i) + "/[a-zA-Z0-9]+"}})}})}),
        200, std::nullopt, "regex " + num(i)));
  }
  return stubs;
}

inline Json g4_complex() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    Json either =
        arr({obj({{"contains", obj({{"headers", obj({{"X-Request-Type", "json"}})}})}}),
             obj({{"contains", obj({{"headers", obj({{"Content-Type", "application/json"}})}})}})});
    Json all = arr({obj({{"equals", obj({{"method", "POST"}})}}),
                    obj({{"startsWith", obj({{"path", "/complex/" + num(i) + "/"}})}}),
                    obj({{"or", either}})});
    stubs.push_back(stub(arr({obj({{"and", all}})}), 200, ct_json(),
                         body_of(obj({{"complex", i}, {"matched", true}}))));
  }
  return stubs;
}

inline Json g5_json_body(int count = 50) {
  Json stubs = Json::array();
  for (int i = 1; i <= count; ++i) {
    Json fields = obj({{"method", "POST"},
                       {"path", "/json/equals/" + num(i)},
                       {"body", obj({{"id", i}, {"type", "request"}})}});
    stubs.push_back(stub(arr({obj({{"equals", fields}})}), 200, std::nullopt,
                         body_of(obj({{"matched", "equals"}, {"id", i}}))));
  }
  return stubs;
}

inline Json g6_jsonpath() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    stubs.push_back(
        stub(arr({obj({{"equals", obj({{"method", "POST"}, {"path", "/jsonpath/" + num(i)}})}}),
                  obj({{"equals", obj({{"body", num(i)}})},
                       {"jsonpath", obj({{"selector", "$.user.id"}})}})}),
             200, std::nullopt, body_of(obj({{"jsonpath_matched", true}, {"user_id", i}}))));
  }
  return stubs;
}

inline Json g7_xpath() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    stubs.push_back(
        stub(arr({obj({{"equals", obj({{"method", "POST"}, {"path", "/xpath/" + num(i)}})}}),
                  obj({{"exists", obj({{"body", true}})},
                       {"xpath", obj({{"selector", "//item[@id='" + num(i) + "']"}})}})}),
             200, obj({{"Content-Type", "application/xml"}}),
             "<response><id>" + num(i) + "</id></response>"));
  }
  return stubs;
}

inline Json g8_template() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    stubs.push_back(stub(
        arr({obj({{"equals", obj({{"path", "/template/" + num(i)}})}})}), 200,
        obj({{"Content-Type", "application/json"}, {"X-Request-Path", "${request.path}"}}),
        body_of(
            obj({{"template", i}, {"path", "${request.path}"}, {"query", "${request.query}"}}))));
  }
  return stubs;
}

inline Json g9_header() {
  Json stubs = Json::array();
  for (int i = 1; i <= 100; ++i) {
    Json fields =
        obj({{"path", "/headers/route"}, {"headers", obj({{"X-Route-Id", "route-" + num(i)}})}});
    stubs.push_back(stub(arr({obj({{"equals", fields}})}), 200, std::nullopt,
                         body_of(obj({{"routed_to", i}}))));
  }
  return stubs;
}

inline Json g10_query() {
  Json stubs = Json::array();
  for (int i = 1; i <= 100; ++i) {
    Json fields =
        obj({{"path", "/query/search"}, {"query", obj({{"page", num(i)}, {"size", "10"}})}});
    stubs.push_back(
        stub(arr({obj({{"equals", fields}})}), 200, std::nullopt, body_of(obj({{"page", i}}))));
  }
  return stubs;
}

inline Json g11_deep_equals() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    Json order = obj({{"id", i}, {"items", arr({obj({{"sku", "sku-" + num(i)}, {"qty", i}})})}});
    Json fields = obj({{"method", "POST"},
                       {"path", "/deep/equals/" + num(i)},
                       {"body", obj({{"order", order}, {"meta", obj({{"source", "bench"}})}})}});
    stubs.push_back(stub(arr({obj({{"deepEquals", fields}})}), 200, std::nullopt,
                         body_of(obj({{"matched", "deepEquals"}, {"order", i}}))));
  }
  return stubs;
}

inline Json g12_literal() {
  Json stubs = Json::array();
  for (int i = 1; i <= 100; ++i) {
    stubs.push_back(
        stub(arr({obj({{"startsWith", obj({{"path", "/literal/prefix" + num(i) + "/"}})}})}), 200,
             std::nullopt, body_of(obj({{"literal", i}, {"kind", "prefix"}}))));
    stubs.push_back(stub(arr({obj({{"contains", obj({{"path", "/needle" + num(i) + "/"}})}})}), 200,
                         std::nullopt, body_of(obj({{"literal", i}, {"kind", "contains"}}))));
  }
  return stubs;
}

inline Json g13_method_mix() {
  Json stubs = Json::array();
  for (int i = 1; i <= 50; ++i) {
    for (const char* verb : {"PUT", "DELETE", "PATCH", "OPTIONS"}) {
      stubs.push_back(
          stub(arr({obj({{"equals", obj({{"method", verb}, {"path", "/method/" + num(i)}})}})}),
               200, std::nullopt, body_of(obj({{"method_matched", verb}, {"id", i}}))));
    }
  }
  return stubs;
}

inline Json g14_body_field(int count = 200) {
  Json stubs = Json::array();
  for (int i = 1; i <= count; ++i) {
    Json fields = obj({{"method", "POST"},
                       {"path", "/orders/submit"},
                       {"body", obj({{"orderId", "ord-" + num(i)}, {"channel", "web"}})}});
    stubs.push_back(stub(arr({obj({{"equals", fields}})}), 200, std::nullopt,
                         body_of(obj({{"body_field_matched", true}, {"order", i}}))));
  }
  return stubs;
}

// {"port", "protocol", "name", "recordRequests"? (Recording only), "stubs"}
inline Json imposter_doc(const std::string& name, int port, Json stubs) {
  Json doc = obj({{"port", port}, {"protocol", "http"}, {"name", name}});
  if (name == "Recording") doc["recordRequests"] = true;
  doc["stubs"] = std::move(stubs);
  return doc;
}

struct FixtureImposter {
  std::string name;
  int base_port;
  size_t published_bytes;  // docs/benchmark-workload.md §4, default stub counts, offset 0
  const char* published_sha256;
  Json doc;
};

inline constexpr int kDefaultStubCount = 50;
inline constexpr int kDefaultBodyFieldStubs = 200;

// docs/benchmark-workload.md §4, in creation order; Recording appended when asked for.
inline std::vector<FixtureImposter> fixture_imposters(int offset = 0,
                                                      int stub_count = kDefaultStubCount,
                                                      int body_field_stubs = kDefaultBodyFieldStubs,
                                                      bool recording = true) {
  struct Row {
    const char* name;
    int port;
    size_t bytes;
    const char* sha;
  };
  static const Row kRows[] = {
      {"Simple", 4549, 281, "0f356d9af6f8ebb2485eda087929dfdf78cf761fd6398f08fd27d9ee19b5c7e4"},
      {"API", 4545, 54121, "342e9ebf45df1af9bcae959165c4b2d57e01e1109c383ccc419a0f0590b0c0b4"},
      {"Regex", 4546, 13846, "6b3661f2e19b44e7fb9ff1b17a5ddc10cf2942d46f3da852d4fee1f3079a2394"},
      {"Complex", 4547, 18746, "1835fa9d566d9ae1fbccfa35022831aaa075db906f1722152c00927fc6632db3"},
      {"JSONBody", 4550, 10488, "15e901f2b5b40fd39a55c9c7e6140b1e19fcc5360dfd5c3b9c31ad169357a17d"},
      {"JSONPath", 4551, 12138, "930bc5efe94f9eda50997132cabd8006918ee0f27e65e17b2810e2b5cde4ac57"},
      {"XPath", 4552, 13935, "626acb0a4fdcb32a1b1f96a4ca1f4fb87761042ab9fac764e9955e9c56388db7"},
      {"Template", 4553, 14047, "547d77da7ebaae584336e08ee4d5df3ee9286273f6f07d199ce9bbe0c793a875"},
      {"Header", 4554, 17247, "47e1e6031aa3e99ffdb061b59b3ae8f777d528337b047f076302930a90ec2d27"},
      {"Query", 4555, 16646, "1275423d1f8251d0a188861558c06665c044ec931654ec6e215ab26839e7e55a"},
      {"DeepEquals", 4560, 14122,
       "7d1faa6ba05fa1e413cebf6eb22beaab564f0d77fa687dc5bb60b90f6e7c2839"},
      {"Literal", 4557, 31432, "499ebc36fdda548d0272cfbf9b45bba4e32713c62c927e589378f98e1195aa57"},
      {"MethodMix", 4558, 34494,
       "c2e1e360366610b4c95842d87747784eadf30b2a9eb3e8da5363c88d1689a82e"},
      {"BodyField", 4559, 45450,
       "ab90f0d9504433b008c693a18e8a730917c93a7788975740c05c3a134ea120bd"},
      {"Recording", 4556, 54151,
       "8df5295919d83e8e34e0f8e5f1c244926f78fa4a39aee5680b1b7cd6008c3852"},
  };
  std::vector<FixtureImposter> out;
  for (const Row& row : kRows) {
    const std::string name = row.name;
    if (name == "Recording" && !recording) continue;
    Json stubs;
    if (name == "Simple")
      stubs = g1_simple();
    else if (name == "API" || name == "Recording")
      stubs = g2_api();
    else if (name == "Regex")
      stubs = g3_regex();
    else if (name == "Complex")
      stubs = g4_complex();
    else if (name == "JSONBody")
      stubs = g5_json_body(stub_count);
    else if (name == "JSONPath")
      stubs = g6_jsonpath();
    else if (name == "XPath")
      stubs = g7_xpath();
    else if (name == "Template")
      stubs = g8_template();
    else if (name == "Header")
      stubs = g9_header();
    else if (name == "Query")
      stubs = g10_query();
    else if (name == "DeepEquals")
      stubs = g11_deep_equals();
    else if (name == "Literal")
      stubs = g12_literal();
    else if (name == "MethodMix")
      stubs = g13_method_mix();
    else
      stubs = g14_body_field(body_field_stubs);
    out.push_back({name, row.port, row.bytes, row.sha,
                   imposter_doc(name, row.port + offset, std::move(stubs))});
  }
  return out;
}

}  // namespace rift::bench
