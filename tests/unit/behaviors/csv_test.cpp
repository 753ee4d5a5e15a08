#include "runtime/behaviors/csv.h"

#include <gtest/gtest.h>

namespace rift::behaviors {
namespace {

using Records = std::vector<std::vector<std::string>>;

Records parse(std::string_view text, std::string_view delimiter = ",") {
  return parse_csv(text, delimiter).records;
}

TEST(Csv, HeaderAndRowsWithOrWithoutFinalLineBreak) {
  EXPECT_EQ(parse("a,b\n1,2\n"), (Records{{"a", "b"}, {"1", "2"}}));
  EXPECT_EQ(parse("a,b\n1,2"), (Records{{"a", "b"}, {"1", "2"}}));
  EXPECT_EQ(parse(""), Records{});
}

TEST(Csv, QuotedCellsKeepDelimitersQuotesAndLineBreaks) {
  EXPECT_EQ(parse("a,b\n\"x,y\",2\n\"q\"\"z\",3\n\"l\nm\",4\n"),
            (Records{{"a", "b"}, {"x,y", "2"}, {"q\"z", "3"}, {"l\nm", "4"}}));
  EXPECT_EQ(parse("a;b\n\"x;y\";2\n", ";"), (Records{{"a", "b"}, {"x;y", "2"}}));
}

TEST(Csv, NothingIsTrimmed) {
  EXPECT_EQ(parse("a , b\n 1 , 2 \n"), (Records{{"a ", " b"}, {" 1 ", " 2 "}}));
  EXPECT_EQ(parse("\xEF\xBB\xBF"
                  "a,b\n1,2\n"),
            (Records{{"\xEF\xBB\xBF"
                      "a",
                      "b"},
                     {"1", "2"}}));
}

TEST(Csv, EmptyCellsAndATrailingDelimiter) {
  EXPECT_EQ(parse("a,b\n,2\n1,\n"), (Records{{"a", "b"}, {"", "2"}, {"1", ""}}));
  EXPECT_EQ(parse("a,b\n1,"), (Records{{"a", "b"}, {"1", ""}}));
}

TEST(Csv, MultiCharacterDelimiter) {
  EXPECT_EQ(parse("a::b\n1::2\n", "::"), (Records{{"a", "b"}, {"1", "2"}}));
}

TEST(Csv, TheFirstLineBreakDecidesTheRecordDelimiter) {
  EXPECT_EQ(parse("a,b\r\n1,2\r\n3,4"), (Records{{"a", "b"}, {"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(parse("a,b\r1,2\r3,4"), (Records{{"a", "b"}, {"1", "2"}, {"3", "4"}}));
  // After \n, a \r is an ordinary character (csv-parse gives "2\r").
  EXPECT_EQ(parse("a,b\n1,2\r\n3,4\n"), (Records{{"a", "b"}, {"1", "2\r"}, {"3", "4"}}));
}

TEST(Csv, MalformedRecordsEndTheTableKeepingTheRowsBefore) {
  // Each stops csv-parse with an error; Mountebank has used the rows before it.
  EXPECT_EQ(parse("a,b\n1,2\n\"3,4\n"), (Records{{"a", "b"}, {"1", "2"}}));   // unclosed quote
  EXPECT_EQ(parse("a,b\n1,2\nx\"y,2\n"), (Records{{"a", "b"}, {"1", "2"}}));  // stray quote
  EXPECT_EQ(parse("a,b\n\"x\"y,2\n"), (Records{{"a", "b"}}));    // text after a closing quote
  EXPECT_EQ(parse("a,b\n1,2,3\n4,5\n"), (Records{{"a", "b"}}));  // field count differs
  EXPECT_EQ(parse("a,b\n\n1,2\n"), (Records{{"a", "b"}}));       // an empty line is one empty field
  EXPECT_EQ(parse("a\n\nx\n"), (Records{{"a"}, {""}, {"x"}}));
}

TEST(Csv, FindRowMatchesTheKeyColumnExactly) {
  const CsvTable table = parse_csv("id,name,note\n1,one,\"a,b\"\n2,two,c\n2,again,d\n", ",");
  EXPECT_EQ(find_row(table, "id", "2"),
            (CsvRow{{"id", "2"}, {"name", "two"}, {"note", "c"}}));  // the first match wins
  EXPECT_EQ(find_row(table, "name", "one"),
            (CsvRow{{"id", "1"}, {"name", "one"}, {"note", "a,b"}}));
  EXPECT_EQ(find_row(table, "id", "3"), std::nullopt);
  EXPECT_EQ(find_row(table, "id", " 1"), std::nullopt);
  EXPECT_EQ(find_row(table, "ID", "1"), std::nullopt);  // keyColumn is case-sensitive
  EXPECT_EQ(find_row(table, "missing", "1"), std::nullopt);
  EXPECT_EQ(find_row(CsvTable{}, "id", "1"), std::nullopt);
}

TEST(Csv, RepeatedHeaderNamesKeepTheLastCell) {
  const CsvTable table = parse_csv("k,v,v\n1,first,second\n", ",");
  EXPECT_EQ(find_row(table, "k", "1"), (CsvRow{{"k", "1"}, {"v", "second"}}));
  EXPECT_EQ(find_row(table, "v", "second"), (CsvRow{{"k", "1"}, {"v", "second"}}));
}

}  // namespace
}  // namespace rift::behaviors
