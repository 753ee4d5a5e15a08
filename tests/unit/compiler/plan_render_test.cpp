// The rendered plan must show the tree the planner built (cells, prefixes, value indexes,
// candidates, residual checks), the right candidate-set sizes, and the findings, the same way
// every time.
#include "compiler/plan_render.h"

#include <gtest/gtest.h>

#include "compiler/analysis.h"
#include "compiler/plan.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

ir::Stub stub(const std::vector<std::string>& predicates) {
  ir::Stub out;
  for (const auto& text : predicates) {
    out.predicates.push_back(testing::predicate_from(ir::Json::parse(text)));
  }
  out.responses.push_back(ir::Response{});
  return out;
}

struct Planned {
  std::vector<ir::Stub> stubs;
  std::shared_ptr<const plan::Tree> tree;
  std::vector<analysis::Finding> findings;
};

Planned plan_of(std::vector<ir::Stub> stubs) {
  Planned out;
  out.stubs = std::move(stubs);
  auto built = plan::build(out.stubs);
  EXPECT_EQ(built.index(), 0u);
  out.tree = std::get<0>(built);
  out.findings = analysis::analyze(out.stubs);
  return out;
}

// 0, 1: GET /a (0 with a residual query check: a value index for one stub is not worth its
// lookup, so it stays in the rest leaf); 2: any method /a;
// 3: GET any path; 4: catch-all; 5: shadowed by 1; 6: POST /b with a residual header check,
// behind 4.
Planned example() {
  return plan_of({
      stub({R"({"equals": {"method": "GET", "path": "/A", "query": {"x": "1"}}})"}),
      stub({R"({"equals": {"method": "GET", "path": "/a"}})"}),
      stub({R"({"equals": {"path": "/a"}})"}),
      stub({R"({"equals": {"method": "GET"}})"}),
      stub({}),
      stub({R"({"equals": {"method": "GET", "path": "/a"}})", R"({"exists": {"body": true}})"}),
      stub({R"({"equals": {"method": "POST", "path": "/b"}})",
            R"({"exists": {"headers": {"X": true}}})"}),
  });
}

TEST(PlanRender, JsonShowsTheTree) {
  const Planned p = example();
  const ir::Json json = plan_to_json(*p.tree, p.stubs, p.findings);
  EXPECT_EQ(json["stubs"], 7);
  const ir::Json& tree = json["tree"];
  const ir::Json& get_a = tree["methods"]["GET"]["paths"]["/a"];
  EXPECT_EQ(get_a["size"], 3);
  EXPECT_EQ(get_a["candidates"][0]["stub"], 0);
  EXPECT_EQ(get_a["candidates"][0]["residual"][0]["equals"]["query"]["x"], "1");
  EXPECT_FALSE(get_a["candidates"][0].contains("value"));
  EXPECT_EQ(get_a["candidates"][1]["stub"], 1);
  EXPECT_EQ(get_a["candidates"][1]["residual"], ir::Json::array());
  EXPECT_EQ(get_a["candidates"][2]["stub"], 5);
  EXPECT_FALSE(get_a.contains("indexes"));
  EXPECT_FALSE(p.tree->stub_keys[0].value);
  EXPECT_EQ(tree["methods"]["GET"]["anyPath"]["candidates"][0]["stub"], 3);
  EXPECT_EQ(tree["methods"]["POST"]["paths"]["/b"]["candidates"][0]["residual"][0],
            ir::Json::parse(R"({"exists": {"headers": {"X": true}}})"));
  EXPECT_FALSE(tree["methods"]["POST"].contains("anyPath"));   // empty cells are left out
  EXPECT_FALSE(tree["methods"]["POST"].contains("prefixes"));  // and so are empty maps
  EXPECT_EQ(tree["anyMethod"]["paths"]["/a"]["candidates"][0]["stub"], 2);
  EXPECT_EQ(tree["anyMethod"]["anyPath"]["candidates"][0]["stub"], 4);

  // GET /a reaches (GET,/a)=3 + (GET,*)=1 + (*,/a)=1 + (*,*)=1.
  EXPECT_EQ(json["candidateSets"],
            ir::Json::parse(R"({"leaves": 5, "max": 3, "worstCase": 6, "worstCaseOneValue": 6})"));

  ASSERT_EQ(json["findings"].size(), 2u);
  EXPECT_EQ(json["findings"][0]["kind"], "shadowed");
  EXPECT_EQ(json["findings"][0]["stub"], 5);
  EXPECT_EQ(json["findings"][0]["by"], 1);
  EXPECT_EQ(json["findings"][1]["stub"], 6);  // behind the catch-all
  EXPECT_EQ(json["findings"][1]["by"], 4);
}

// Prefix cells and value indexes: 0 and 1 route by a header under the /api/ prefix, 2 and 3 by a
// JSON body field under POST /orders, 4 is decided by its prefix alone, 5 and 6 route by the
// header in the any-path cell, 7 sits alone under the prefix of its regex.
Planned routed() {
  return plan_of({
      stub({R"({"startsWith": {"path": "/api/"}, "caseSensitive": true})",
            R"({"equals": {"headers": {"X-Tenant": "a"}}})"}),
      stub({R"({"startsWith": {"path": "/API/"}})",
            R"({"equals": {"headers": {"x-tenant": "b"}}})"}),
      stub({R"({"equals": {"method": "POST", "path": "/orders", "body": {"id": 7}}})"}),
      stub({R"({"equals": {"method": "POST", "path": "/orders", "body": {"id": "8"}}})"}),
      stub({R"({"startsWith": {"path": "/api/"}})"}),
      stub({R"({"equals": {"headers": {"X-Tenant": "a"}}})"}),
      stub({R"({"equals": {"headers": {"X-Tenant": "b"}}})"}),
      stub({R"({"matches": {"path": "^/API/v\\d"}})"}),
  });
}

TEST(PlanRender, JsonShowsPrefixesAndValueIndexes) {
  const Planned p = routed();
  const ir::Json json = plan_to_json(*p.tree, p.stubs, p.findings);
  const ir::Json& any = json["tree"]["anyMethod"];
  const ir::Json& api = any["prefixes"]["/api/"];
  EXPECT_EQ(api["size"], 3);
  EXPECT_EQ(api["candidates"][0]["value"],
            ir::Json::parse(R"({"field": "headers", "key": "x-tenant", "value": "a"})"));
  EXPECT_EQ(api["candidates"][0]["residual"].size(), 2u);  // caseSensitive stays a check
  EXPECT_EQ(api["candidates"][1]["value"]["value"], "b");
  EXPECT_EQ(api["candidates"][1]["residual"].size(), 1u);  // the prefix decides startsWith
  EXPECT_EQ(api["candidates"][2]["stub"], 4);
  EXPECT_EQ(api["candidates"][2]["residual"], ir::Json::array());
  EXPECT_EQ(api["indexes"], ir::Json::parse(R"([{"field": "headers", "key": "x-tenant",
                                                 "values": 2, "largest": 1}])"));
  EXPECT_EQ(any["prefixes"]["/api/v"]["candidates"][0]["stub"], 7);
  const ir::Json& orders = json["tree"]["methods"]["POST"]["paths"]["/orders"];
  EXPECT_EQ(orders["candidates"][0]["value"],
            ir::Json::parse(R"({"field": "body", "key": "$.id", "value": "7"})"));
  EXPECT_EQ(orders["candidates"][1]["value"]["value"], "8");
  EXPECT_EQ(any["anyPath"]["indexes"][0]["key"], "x-tenant");
  // GET /api/v1 with X-Tenant a and b reaches every stub but 2 and 3; the bound for one value
  // per key takes the largest leaf of each index: 2 + 1 + 1.
  EXPECT_EQ(json["candidateSets"]["worstCase"], 6);
  EXPECT_EQ(json["candidateSets"]["worstCaseOneValue"], 4);
}

TEST(PlanRender, TextAndDotShowPrefixesAndValues) {
  const Planned p = routed();
  const std::string text = plan_to_text(*p.tree, p.stubs, p.findings);
  EXPECT_NE(text.find("a request visits at most 6 candidates (4 with one value per indexed key)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  /api/*  (3 candidates; by headers x-tenant: 2 values)\n"
                      "    stub 0  when headers x-tenant=a  if "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    stub 4  no residual checks\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  /orders  (2 candidates; by body $.id: 2 values)\n"), std::string::npos)
      << text;
  const std::string dot = plan_to_dot(*p.tree, p.stubs, p.findings);
  EXPECT_NE(dot.find("[label=\"/api/*\\n3 candidates\\nby headers x-tenant\"]"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find(" -> s0 [label=\"headers x-tenant=a\"];"), std::string::npos) << dot;
}

TEST(PlanRender, KeysAreSorted) {
  const Planned p = plan_of({
      stub({R"({"equals": {"method": "PUT", "path": "/z"}})"}),
      stub({R"({"equals": {"method": "DELETE", "path": "/m"}})"}),
      stub({R"({"equals": {"method": "PUT", "path": "/b"}})"}),
  });
  const ir::Json json = plan_to_json(*p.tree, p.stubs, p.findings);
  std::vector<std::string> methods;
  for (const auto& [method, node] : json["tree"]["methods"].items()) methods.push_back(method);
  EXPECT_EQ(methods, (std::vector<std::string>{"DELETE", "PUT"}));
  std::vector<std::string> paths;
  for (const auto& [path, leaf] : json["tree"]["methods"]["PUT"]["paths"].items()) {
    paths.push_back(path);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"/b", "/z"}));
  EXPECT_EQ(json["tree"]["anyMethod"], ir::Json::object());
  EXPECT_EQ(json["findings"], ir::Json::array());
}

TEST(PlanRender, TextNamesStubsAndFindings) {
  const Planned p = example();
  const std::string text = plan_to_text(*p.tree, p.stubs, p.findings);
  EXPECT_EQ(text.rfind("plan: 7 stubs in 5 leaves; largest leaf 3; a request visits at most 6 "
                       "candidates\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("GET\n  /a  (3 candidates)\n    stub 0  if [{\"equals\":{\"method\":\"GET\","
                      "\"path\":\"/A\",\"query\":{\"x\":\"1\"}}}]\n    stub 1  no residual "
                      "checks\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(any method)\n"), std::string::npos);
  EXPECT_NE(text.find("  (any path)  (1 candidate)\n    stub 4"), std::string::npos) << text;
  EXPECT_NE(text.find("findings (2):\n  shadowed: stub 5 can never match"), std::string::npos)
      << text;
  EXPECT_EQ(text, plan_to_text(*p.tree, p.stubs, p.findings));
}

TEST(PlanRender, TextCapsFindings) {
  std::vector<ir::Stub> stubs{stub({})};
  for (int i = 0; i < 150; ++i) stubs.push_back(stub({R"({"equals": {"method": "GET"}})"}));
  const Planned p = plan_of(std::move(stubs));
  ASSERT_EQ(p.findings.size(), 150u);
  const std::string text = plan_to_text(*p.tree, p.stubs, p.findings);
  EXPECT_NE(text.find("findings (150):"), std::string::npos);
  EXPECT_NE(text.find("  ... and 50 more (--format json lists them all)\n"), std::string::npos);
}

TEST(PlanRender, DotIsAGraph) {
  const Planned p = example();
  const std::string dot = plan_to_dot(*p.tree, p.stubs, p.findings);
  EXPECT_EQ(dot.rfind("digraph plan {\n", 0), 0u);
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
  EXPECT_NE(dot.find("[label=\"GET\"]"), std::string::npos);
  EXPECT_NE(dot.find("s5 -> s1 [style=dashed, color=red, label=\"shadowed\"];"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("s0 [label=\"stub 0\\n+1 residual\"]"), std::string::npos) << dot;
}

TEST(PlanRender, EmptyStubList) {
  const Planned p = plan_of({});
  const ir::Json json = plan_to_json(*p.tree, p.stubs, p.findings);
  EXPECT_EQ(json["candidateSets"],
            ir::Json::parse(R"({"leaves": 0, "max": 0, "worstCase": 0, "worstCaseOneValue": 0})"));
  EXPECT_NE(plan_to_text(*p.tree, p.stubs, p.findings).find("findings: none"), std::string::npos);
}

}  // namespace
}  // namespace rift
