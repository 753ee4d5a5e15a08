// The SAX pass for `//name` and `//name[@attr='v']` must give exactly what libxml2's DOM and
// XPath give, and must hand every other case back to the DOM path.
#include "compiler/xpath_stream.h"

#include <gtest/gtest.h>

#include "predicate_test_util.h"

namespace rift::xpath {
namespace {

Result dom_select(const std::string& expression, const std::string& xml) {
  auto compiled = Selector::compile(expression, {});
  EXPECT_EQ(compiled.index(), 0u) << expression;
  auto document = Document::parse(xml);
  if (!document) return std::get<Selector>(compiled).select(Document::empty());
  return std::get<Selector>(compiled).select(*document);
}

std::optional<Result> streamed(const std::string& expression, const std::string& xml) {
  auto form = stream_form(expression);
  EXPECT_TRUE(form.has_value()) << expression;
  if (!form) return std::nullopt;
  return stream_select(*form, xml);
}

// The pass answers and agrees with the DOM.
void expect_same(const std::string& expression, const std::string& xml) {
  auto fast = streamed(expression, xml);
  ASSERT_TRUE(fast.has_value()) << expression << " on " << xml << " fell back";
  EXPECT_EQ(*fast, dom_select(expression, xml)) << expression << " on " << xml;
}

TEST(XPathStream, FormsThatStream) {
  EXPECT_TRUE(stream_form("//item"));
  EXPECT_TRUE(stream_form("//item[@id='25']"));
  EXPECT_TRUE(stream_form("//item[@id=\"25\"]"));
  auto form = stream_form("//a-b.c_d[@x-y='v w']");
  ASSERT_TRUE(form);
  EXPECT_EQ(form->element, "a-b.c_d");
  EXPECT_EQ(form->attribute, "x-y");
  EXPECT_EQ(form->value, "v w");
}

TEST(XPathStream, FormsLeftToTheDom) {
  for (const char* expression :
       {"/root/item", "//item/@id", "//item/text()", "//p:item", "//item[@p:id='1']",
        "count(//item)", "//item[1]", "//item[@id='1'][@b='2']", "//item[@id = '1']",
        "//item[@id='1' and @b='2']", "//*", "//item//x", "//item[@id=1]", "//item[text()='x']",
        "//item[@id='1']x", "//\xc3\xa9l"}) {
    EXPECT_FALSE(stream_form(expression)) << expression;
  }
}

TEST(XPathStream, ValuesLikeTheDom) {
  expect_same("//item[@id='25']", R"(<root><item id="25">x</item></root>)");
  expect_same("//item[@id='25']", R"(<root><item id="24">x</item></root>)");
  expect_same("//item", R"(<root><item>a</item><item>b</item><x><item>c</item></x></root>)");
  // First child kinds: element, none, self-closing, comment, PI, CDATA, text then CDATA.
  expect_same("//item", "<r><item><b>x</b>y</item></r>");
  expect_same("//item", "<r><item></item><item/></r>");
  expect_same("//item", "<r><item><!--note-->x</item></r>");
  expect_same("//item", "<r><item><?pi data?>x</item></r>");
  expect_same("//item", "<r><item><![CDATA[<c>]]>x</item></r>");
  expect_same("//item", "<r><item>t<![CDATA[c]]></item></r>");
  expect_same("//item", "<r><item><![CDATA[a]]><![CDATA[b]]></item></r>");
  expect_same("//item", "<r><item><![CDATA[" + std::string(70000, 'c') + "]]></item></r>");
  expect_same("//item", "<r><item><!--a--><!--b--></item><item><?a?></item></r>");
  expect_same("//item", "<r><item>  \n </item></r>");
  // Entities and character references are text; adjacent text is one node.
  expect_same("//item", "<r><item>a&amp;b&#65;&lt;c</item></r>");
  // A reference in the compared attribute's value is decoded by the DOM: the DOM path answers.
  auto form = stream_form("//item[@id='a&b']");
  ASSERT_TRUE(form);
  EXPECT_FALSE(stream_select(*form, R"(<r><item id="a&amp;b">v</item></r>)"));
  EXPECT_FALSE(stream_select(*form, R"(<r><item id="a&#38;b">v</item></r>)"));
  EXPECT_TRUE(
      testing::body_holds(R"J({"equals":{"body":"v"},"xpath":{"selector":"//item[@id='a&b']"}})J",
                          R"(<r><item id="a&amp;b">v</item></r>)"));
  // Other attributes may hold references; literal newlines in values are normalized to spaces.
  expect_same("//item[@id='x']", R"(<r><item id="x" b="&amp;">v</item></r>)");
  expect_same("//item[@id='a b']", "<r><item id=\"a\nb\">v</item><item id='a b'>w</item></r>");
  // Nested matches come in document order; the root itself can match.
  expect_same("//item", "<item><item>in</item>out</item>");
  expect_same("//item[@id=\"1\"]", R"(<r><item id="1"><item id="1">x</item></item></r>)");
  // A long text arrives in several callbacks.
  expect_same("//item", "<r><item>" + std::string(100000, 'x') + "</item></r>");
}

TEST(XPathStream, NamespacesAndAttributesLikeTheDom) {
  // An element or attribute in a namespace is not matched by an unprefixed name test.
  expect_same("//item", R"(<r xmlns="urn:x"><item>a</item></r>)");
  expect_same("//item", R"(<r xmlns:p="urn:x"><p:item>a</p:item><item>b</item></r>)");
  expect_same("//item[@id='1']", R"(<r xmlns:p="urn:x"><item p:id="1">a</item></r>)");
  expect_same("//item[@xmlns='urn:x']", R"(<r><item xmlns="urn:x">a</item></r>)");
  // The attribute name is matched exactly, the value too.
  expect_same("//item[@id='1']", R"(<r><item ID="1">a</item><item id="1 ">b</item></r>)");
  expect_same("//item[@id='']", R"(<r><item id="">a</item><item>b</item></r>)");
}

TEST(XPathStream, FallsBackWhereTheDomDecides) {
  auto form = stream_form("//item");
  ASSERT_TRUE(form);
  // Not well-formed, undeclared prefix, a DTD, an entity reference, empty text.
  EXPECT_FALSE(stream_select(*form, "<r><item>x</item>"));
  EXPECT_FALSE(stream_select(*form, "not xml"));
  EXPECT_FALSE(stream_select(*form, "<r><p:item>x</p:item></r>"));
  EXPECT_FALSE(stream_select(*form, "<!DOCTYPE r [<!ENTITY e \"v\">]><r><item>&e;</item></r>"));
  EXPECT_FALSE(stream_select(*form, ""));
}

TEST(XPathStream, SelectorUsesThePassOnlyForItsForms) {
  auto simple = Selector::compile("//item", {});
  ASSERT_EQ(simple.index(), 0u);
  EXPECT_TRUE(std::get<Selector>(simple).select_streaming("<r><item>x</item></r>"));
  auto other = Selector::compile("//item/text()", {});
  ASSERT_EQ(other.index(), 0u);
  EXPECT_FALSE(std::get<Selector>(other).select_streaming("<r><item>x</item></r>"));
}

// Through the predicate evaluator: the streamed answer and the DOM fallbacks.
TEST(XPathStream, Predicates) {
  using testing::body_holds;
  const char* exists = R"J({"exists":{"body":true},"xpath":{"selector":"//item[@id='25']"}})J";
  EXPECT_TRUE(body_holds(exists, R"(<root><item id="25">x</item></root>)"));
  EXPECT_FALSE(body_holds(exists, R"(<root><item id="26">x</item></root>)"));
  EXPECT_FALSE(body_holds(exists, R"(<root><item id="25">x</item>)"));  // malformed: DOM says none
  EXPECT_FALSE(body_holds(exists, ""));
  // caseSensitive off folds the selector and the body alike.
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"x"},"xpath":{"selector":"//ITEM[@ID='A']"}})J",
                         R"(<root><Item Id="a">X</Item></root>)"));
  EXPECT_FALSE(body_holds(
      R"J({"equals":{"body":"x"},"caseSensitive":true,"xpath":{"selector":"//ITEM[@ID='A']"}})J",
      R"(<root><Item Id="a">X</Item></root>)"));
  // Several matches are an array; equals holds when some element is equal.
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"b"},"xpath":{"selector":"//item"}})J",
                         "<r><item>a</item><item>b</item></r>"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":["b","a"]},"xpath":{"selector":"//item"}})J",
                         "<r><item>a</item><item>b</item></r>"));
  // except strips the body text before the pass.
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":"ab"},"except":"\\d","xpath":{"selector":"//item"}})J",
                 "<r><item>a1b2</item></r>"));
}

}  // namespace
}  // namespace rift::xpath
