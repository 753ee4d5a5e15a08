// The one text of a JSON value (compiler/canonical_json.h).
#include "compiler/canonical_json.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

TEST(CanonicalJson, KeysAreSortedAtEveryLevel) {
  const ir::Json value = ir::Json::parse(R"({"b":{"z":1,"a":[{"y":2,"x":3}]},"a":null})");
  EXPECT_EQ(canonical_json(value), R"({"a":null,"b":{"a":[{"x":3,"y":2}],"z":1}})");
}

TEST(CanonicalJson, SpellingsOfOneValueGiveOneText) {
  EXPECT_EQ(canonical_json(ir::Json::parse(R"({"b":1,"a":2})")),
            canonical_json(ir::Json::parse(R"({ "a" : 2, "b" : 1 })")));
  EXPECT_EQ(canonical_json(ir::Json("\xff")), "\"\xEF\xBF\xBD\"");  // not UTF-8: replaced
}

}  // namespace
}  // namespace rift
