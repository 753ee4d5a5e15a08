// The request journal: arrival order, the 10,000-entry cap, clearing, concurrent recorders.
#include "runtime/imposter/request_journal.h"

#include <gtest/gtest.h>

#include <thread>

namespace rift {
namespace {

Request request_for(const std::string& path) {
  Request request;
  request.method = "GET";
  request.path = path;
  request.headers = {{"Host", "x"}};
  request.request_from = "127.0.0.1:5000";
  request.ip = "127.0.0.1";
  return request;
}

TEST(RequestJournal, EntriesAreMountebanksJsonWithATimestampInArrivalOrder) {
  RequestJournal journal;
  journal.record(request_for("/a"));
  journal.record(request_for("/b"));
  const ir::Json entries = journal.to_json();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["path"], "/a");
  EXPECT_EQ(entries[1]["path"], "/b");
  EXPECT_EQ(entries[0]["headers"], ir::Json::parse(R"({"Host":"x"})"));
  EXPECT_EQ(entries[0]["requestFrom"], "127.0.0.1:5000");
  ASSERT_TRUE(entries[0]["timestamp"].is_string());
  EXPECT_EQ(entries[0]["timestamp"].get<std::string>().size(), 24u);  // 2024-05-01T10:00:00.123Z
}

TEST(RequestJournal, TheCursorReadsAfterAnIndexThatAClearDoesNotReset) {
  RequestJournal journal;
  EXPECT_EQ(journal.read({}, std::nullopt).next_index, 0u);
  for (const char* path : {"/a", "/b", "/c"}) journal.record(request_for(path));
  JournalPage page = journal.read({}, 1);
  ASSERT_EQ(page.requests.size(), 2u);
  EXPECT_EQ(page.requests[0]["path"], "/b");
  EXPECT_EQ(page.next_index, 3u);
  EXPECT_FALSE(page.truncated);
  journal.clear();
  journal.record(request_for("/d"));
  page = journal.read([](const Request& r) { return r.path != "/x"; }, 3);
  ASSERT_EQ(page.requests.size(), 1u);
  EXPECT_EQ(page.requests[0]["path"], "/d");
  EXPECT_EQ(page.next_index, 4u);
}

TEST(RequestJournal, TheCursorSaysWhenTheCapDroppedWhatItHadNotRead) {
  RequestJournal journal;
  const size_t total = RequestJournal::kCapacity + 5;
  for (size_t i = 1; i <= total; ++i) journal.record(request_for("/" + std::to_string(i)));
  EXPECT_TRUE(journal.read({}, 0).truncated);
  EXPECT_TRUE(journal.read({}, 4).truncated);
  EXPECT_FALSE(journal.read({}, 5).truncated);  // /1../5 were dropped; the reader had them
  EXPECT_FALSE(journal.read({}, std::nullopt).truncated);
  EXPECT_EQ(journal.read({}, 6).requests.size(), RequestJournal::kCapacity - 1);
  EXPECT_EQ(journal.copies({}).size(), RequestJournal::kCapacity);
  EXPECT_EQ(journal.copies({}).front().json["path"], "/6");
}

TEST(RequestJournal, KeepsTheNewestTenThousand) {
  RequestJournal journal;
  const size_t total = RequestJournal::kCapacity + 5;
  for (size_t i = 0; i < total; ++i) journal.record(request_for("/" + std::to_string(i)));
  const ir::Json entries = journal.to_json();
  ASSERT_EQ(entries.size(), RequestJournal::kCapacity);
  EXPECT_EQ(entries.front()["path"], "/5");
  EXPECT_EQ(entries.back()["path"], "/" + std::to_string(total - 1));
}

TEST(RequestJournal, ClearEmptiesEveryShard) {
  RequestJournal journal;
  std::thread other([&] { journal.record(request_for("/other")); });
  other.join();
  journal.record(request_for("/mine"));
  journal.clear();
  EXPECT_EQ(journal.to_json().size(), 0u);
  journal.record(request_for("/after"));
  EXPECT_EQ(journal.to_json().size(), 1u);
}

TEST(RequestJournal, ConcurrentRecordersKeepEachThreadsOrderAndTheCap) {
  RequestJournal journal;
  constexpr int kThreads = 4;
  constexpr int kEach = 4'000;  // 16,000 in all: more than the cap
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&journal, t] {
      for (int i = 0; i < kEach; ++i) {
        journal.record(request_for("/" + std::to_string(t) + "/" + std::to_string(i)));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const ir::Json entries = journal.to_json();
  ASSERT_EQ(entries.size(), RequestJournal::kCapacity);
  // Each thread's surviving entries are its newest ones, in order, with no gap.
  std::vector<std::vector<int>> kept(kThreads);
  for (const auto& entry : entries) {
    const std::string path = entry["path"];
    const int thread = std::stoi(path.substr(1, path.find('/', 1) - 1));
    kept[static_cast<size_t>(thread)].push_back(std::stoi(path.substr(path.find('/', 1) + 1)));
  }
  for (const auto& indices : kept) {
    for (size_t i = 0; i < indices.size(); ++i) {
      EXPECT_EQ(indices[i], kEach - static_cast<int>(indices.size()) + static_cast<int>(i));
    }
  }
}

}  // namespace
}  // namespace rift
