#include "templates/words.h"

namespace rift::templates {

std::vector<std::string_view> split_stages(std::string_view text) {
  std::vector<std::string_view> stages;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\'') quoted = !quoted;
    if (text[i] == '|' && !quoted) {
      stages.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  stages.push_back(text.substr(start));
  return stages;
}

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::vector<std::string> split_words(std::string_view stage) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false;
  bool in_word = false;  // a quote opens a word even when it stays empty ('')
  for (char c : stage) {
    if (c == '\'') {
      quoted = !quoted;
      in_word = true;
    } else if (is_space(c) && !quoted) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word.push_back(c);
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace rift::templates
