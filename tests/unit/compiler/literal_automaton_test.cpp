#include "compiler/literal_automaton.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace rift {
namespace {

std::multiset<int> found_in(const LiteralAutomaton& automaton, std::string_view text) {
  std::multiset<int> found;
  automaton.scan(text, [&](int id) { found.insert(id); });
  return found;
}

// Every occurrence of every literal, by brute force.
std::multiset<int> brute_force(const std::vector<std::string>& literals, std::string text) {
  for (char& c : text) c = static_cast<char>(LiteralAutomaton::fold(static_cast<uint8_t>(c)));
  std::multiset<int> found;
  for (size_t id = 0; id < literals.size(); ++id) {
    for (size_t at = text.find(literals[id]); at != std::string::npos;
         at = text.find(literals[id], at + 1)) {
      found.insert(static_cast<int>(id));
    }
  }
  return found;
}

TEST(LiteralAutomaton, FindsOverlappingAndNestedLiterals) {
  const std::vector<std::string> literals = {"he", "she", "his", "hers", "/api/", "api"};
  const LiteralAutomaton automaton(literals);
  EXPECT_EQ(found_in(automaton, "ushers"), (std::multiset<int>{0, 1, 3}));
  EXPECT_EQ(found_in(automaton, "/API/v1"), (std::multiset<int>{4, 5}));
  EXPECT_EQ(found_in(automaton, "nothing here"), (std::multiset<int>{0}));
  EXPECT_TRUE(found_in(automaton, "").empty());
}

TEST(LiteralAutomaton, EmptyAutomatonFindsNothing) {
  const LiteralAutomaton automaton(std::vector<std::string>{});
  EXPECT_TRUE(automaton.empty());
  EXPECT_TRUE(found_in(automaton, "anything").empty());
}

TEST(LiteralAutomaton, AgreesWithBruteForceOnRandomLiteralsAndTexts) {
  std::mt19937 random(7);
  const std::string alphabet = "abAB/-";
  auto word = [&](size_t min, size_t max) {
    std::string text(min + random() % (max - min + 1), 'a');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    return text;
  };
  for (int round = 0; round < 300; ++round) {
    std::set<std::string> distinct;
    const size_t count = 1 + random() % 12;
    while (distinct.size() < count) {
      std::string literal = word(1, 5);
      for (char& c : literal)
        c = static_cast<char>(LiteralAutomaton::fold(static_cast<uint8_t>(c)));
      distinct.insert(literal);
    }
    const std::vector<std::string> literals(distinct.begin(), distinct.end());
    const LiteralAutomaton automaton(literals);
    for (int t = 0; t < 20; ++t) {
      const std::string text = word(0, 24);
      ASSERT_EQ(found_in(automaton, text), brute_force(literals, text)) << text;
    }
  }
}

}  // namespace
}  // namespace rift
