// --datadir storage: atomic replacement, reload, what a write cut short leaves behind, corrupt
// files, and datadirs written by Mountebank 2.9.1.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "frontends/mountebank_json.h"
#include "runtime/datadir/durable_file.h"
#include "runtime/datadir/store.h"
#include "runtime/datadir/sync.h"

namespace rift {
namespace {
namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class DatadirStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            ("rift-datadir-" + std::to_string(getpid()) + "-" + info->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::vector<StoredImposter> load_ok(DatadirStore& store) {
    auto loaded = store.load([this](const std::string& line) { warnings_.push_back(line); });
    EXPECT_TRUE(std::holds_alternative<std::vector<StoredImposter>>(loaded))
        << std::get<std::string>(loaded);
    if (!std::holds_alternative<std::vector<StoredImposter>>(loaded)) return {};
    return std::get<std::vector<StoredImposter>>(loaded);
  }
  std::string load_error(DatadirStore& store) {
    auto loaded = store.load([this](const std::string& line) { warnings_.push_back(line); });
    EXPECT_TRUE(std::holds_alternative<std::string>(loaded)) << "loaded a bad datadir";
    return std::holds_alternative<std::string>(loaded) ? std::get<std::string>(loaded) : "";
  }
  void write(const fs::path& relative, const std::string& text) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static ir::Json imposter(int port, const std::string& body) {
    return ir::Json{
        {"protocol", "http"},
        {"port", port},
        {"stubs",
         ir::Json::array({{{"responses", ir::Json::array({{{"is", {{"body", body}}}}})}}})}};
  }
  bool warned(const std::string& text) const {
    for (const auto& line : warnings_) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }

  fs::path root_;
  std::vector<std::string> warnings_;
};

TEST_F(DatadirStoreTest, LoadCreatesAMissingFolder) {
  DatadirStore store(root_ / "nested" / "data");
  EXPECT_TRUE(load_ok(store).empty());
  EXPECT_TRUE(fs::is_directory(root_ / "nested" / "data"));
}

TEST_F(DatadirStoreTest, SavedImpostersLoadInPortOrder) {
  DatadirStore store(root_);
  ASSERT_FALSE(store.save(4546, imposter(4546, "b")));
  ASSERT_FALSE(store.save(4545, imposter(4545, "a")));
  EXPECT_TRUE(fs::exists(root_ / "4545" / "imposter.json"));  // Mountebank's layout

  DatadirStore reopened(root_);
  auto loaded = load_ok(reopened);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].port, 4545);
  EXPECT_EQ(loaded[0].document, imposter(4545, "a"));
  EXPECT_EQ(loaded[0].file, root_ / "4545" / "imposter.json");
  EXPECT_EQ(loaded[1].document, imposter(4546, "b"));
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(DatadirStoreTest, SaveReplacesTheWholeFileAndLeavesNoTemporary) {
  DatadirStore store(root_);
  ir::Json big = imposter(4545, std::string(100000, 'x'));
  ASSERT_FALSE(store.save(4545, big));
  ASSERT_FALSE(store.save(4545, imposter(4545, "short")));
  EXPECT_EQ(ir::Json::parse(read(store.file_for(4545))), imposter(4545, "short"));
  for (const auto& entry : fs::directory_iterator(root_ / "4545")) {
    EXPECT_EQ(entry.path().filename(), "imposter.json");
  }
}

TEST_F(DatadirStoreTest, AStaleTemporaryIsNeverLoadedAndIsRemoved) {
  DatadirStore store(root_);
  ASSERT_FALSE(store.save(4545, imposter(4545, "acknowledged")));
  // A write cut short after the temporary was written but before the rename.
  write("4545/imposter.json.tmp", R"({"protocol":"http","port":4545,"stubs":[{"respo)");

  auto loaded = load_ok(store);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].document, imposter(4545, "acknowledged"));
  EXPECT_FALSE(fs::exists(root_ / "4545" / "imposter.json.tmp"));
  EXPECT_TRUE(warned("imposter.json.tmp"));
}

TEST_F(DatadirStoreTest, AFirstWriteCutShortLeavesNothingBehind) {
  // The imposter's folder was made, its first temporary never renamed: never acknowledged.
  write("4547/imposter.json.tmp", R"({"protocol":"http","port":4547,"stubs":[]})");
  DatadirStore store(root_);
  EXPECT_TRUE(load_ok(store).empty());
  EXPECT_FALSE(fs::exists(root_ / "4547"));
}

TEST_F(DatadirStoreTest, ACorruptFileRefusesToLoadAndNamesTheFile) {
  DatadirStore store(root_);
  ASSERT_FALSE(store.save(4545, imposter(4545, "fine")));
  write("4546/imposter.json", R"({"protocol":"http","port":4546,"stu)");
  const std::string error = load_error(store);
  EXPECT_NE(error.find("Corrupted database"), std::string::npos) << error;
  EXPECT_NE(error.find((root_ / "4546" / "imposter.json").string()), std::string::npos) << error;
  // Nothing was deleted: the file is there to repair.
  EXPECT_TRUE(fs::exists(root_ / "4546" / "imposter.json"));
}

TEST_F(DatadirStoreTest, AFileThatIsNotAnImposterRefusesToLoad) {
  write("4545/imposter.json", "[1,2]");
  DatadirStore store(root_);
  EXPECT_NE(load_error(store).find("does not hold an imposter"), std::string::npos);
}

TEST_F(DatadirStoreTest, APortThatIsNotTheFolderNameRefusesToLoad) {
  write("4545/imposter.json", imposter(4546, "x").dump());
  DatadirStore store(root_);
  const std::string error = load_error(store);
  EXPECT_NE(error.find("not its folder's name"), std::string::npos) << error;
}

TEST_F(DatadirStoreTest, FoldersWithoutAnImposterAreSkippedWithAWarning) {
  write("notes/readme.txt", "hello");
  write("loose-file", "x");
  DatadirStore store(root_);
  ASSERT_FALSE(store.save(4545, imposter(4545, "a")));
  auto loaded = load_ok(store);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_TRUE(warned("Skipping notes during loading; missing imposter.json"));
  EXPECT_TRUE(warned("Skipping loose-file"));
  EXPECT_TRUE(fs::exists(root_ / "notes" / "readme.txt"));
}

TEST_F(DatadirStoreTest, RemoveDeletesTheImpostersFolder) {
  DatadirStore store(root_);
  ASSERT_FALSE(store.save(4545, imposter(4545, "a")));
  ASSERT_FALSE(store.save(4546, imposter(4546, "b")));
  ASSERT_FALSE(store.remove(4545));
  EXPECT_FALSE(fs::exists(root_ / "4545"));
  EXPECT_FALSE(store.remove(4545));  // already gone: fine
  auto loaded = load_ok(store);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].port, 4546);
}

TEST_F(DatadirStoreTest, SaveReportsAFolderItCannotWrite) {
  write("blocked", "a file where the imposter's folder would go");
  DatadirStore store(root_ / "blocked");
  auto failed = store.save(4545, imposter(4545, "a"));
  ASSERT_TRUE(failed);
  EXPECT_NE(failed->find("blocked"), std::string::npos) << *failed;
}

// Exactly what Mountebank 2.9.1 writes for an imposter with two stubs (one added later at index
// 0), captured from `mb --datadir` and trimmed.
void write_mountebank_imposter(
    const std::function<void(const fs::path&, const std::string&)>& put) {
  put("41001/imposter.json", R"({
  "protocol": "http", "port": 41001, "name": "one", "recordRequests": true,
  "stubs": [
    {"meta": {"dir": "stubs/1796295876067-15995-8"}},
    {"meta": {"dir": "stubs/1796295875769-15995-1"},
     "predicates": [{"equals": {"path": "/a"}}]}
  ]
})");
  put("41001/stubs/1796295876067-15995-8/meta.json",
      R"({"responseFiles":["responses/1796295876067-15995-9.json"],"orderWithRepeats":[0],"nextIndex":0})");
  put("41001/stubs/1796295876067-15995-8/responses/1796295876067-15995-9.json",
      R"({"is":{"statusCode":201}})");
  put("41001/stubs/1796295875769-15995-1/meta.json",
      R"({"responseFiles":["responses/1796295875769-15995-2.json","responses/1796295875781-15995-3.json"],
          "orderWithRepeats":[0,1,1],"nextIndex":1})");
  put("41001/stubs/1796295875769-15995-1/responses/1796295875769-15995-2.json",
      R"({"is":{"body":"A"}})");
  put("41001/stubs/1796295875769-15995-1/responses/1796295875781-15995-3.json",
      R"({"is":{"body":"B"},"repeat":2})");
  put("41001/requests/1796295875917-15995-6.json", R"({"method":"GET","path":"/a"})");
}

TEST_F(DatadirStoreTest, ADatadirWrittenByMountebankLoads) {
  write_mountebank_imposter(
      [this](const fs::path& path, const std::string& text) { write(path, text); });
  DatadirStore store(root_);
  auto loaded = load_ok(store);
  ASSERT_EQ(loaded.size(), 1u);
  const ir::Json expected = ir::Json::parse(R"({
    "protocol": "http", "port": 41001, "name": "one", "recordRequests": true,
    "stubs": [
      {"responses": [{"is": {"statusCode": 201}}]},
      {"predicates": [{"equals": {"path": "/a"}}],
       "responses": [{"is": {"body": "A"}}, {"is": {"body": "B"}, "repeat": 2}]}
    ]})");
  EXPECT_EQ(loaded[0].document, expected);
  // And it is a creation request Rift accepts.
  EXPECT_TRUE(std::holds_alternative<ir::Imposter>(
      frontends::parse_imposter(loaded[0].document, frontends::ParseOptions{})));
}

TEST_F(DatadirStoreTest, AMountebankStubWithAMissingResponseFileRefusesToLoad) {
  write_mountebank_imposter([this](const fs::path& path, const std::string& text) {
    if (path.filename() != "1796295875781-15995-3.json") write(path, text);
  });
  DatadirStore store(root_);
  const std::string error = load_error(store);
  EXPECT_NE(error.find("1796295875781-15995-3.json"), std::string::npos) << error;
}

TEST_F(DatadirStoreTest, AMountebankStubMetaThatIsNotAnObjectRefusesToLoad) {
  write_mountebank_imposter([this](const fs::path& path, const std::string& text) {
    write(path, path.filename() == "meta.json" ? "[\"responses/x.json\"]" : text);
  });
  DatadirStore store(root_);
  EXPECT_NE(load_error(store).find("has no 'responseFiles' array"), std::string::npos);
}

TEST_F(DatadirStoreTest, AMountebankStubFolderOutsideTheImposterRefusesToLoad) {
  write("41001/imposter.json",
        R"({"protocol":"http","port":41001,"stubs":[{"meta":{"dir":"../../etc"}}]})");
  DatadirStore store(root_);
  EXPECT_NE(load_error(store).find("outside"), std::string::npos);
}

TEST_F(DatadirStoreTest, SyncSavesTheCreationRequestWithCurrentStubs) {
  const ir::Json request = ir::Json::parse(R"({
    "protocol": "http", "port": 4545, "name": "orders", "allowCORS": true, "host": "127.0.0.1",
    "numberOfRequests": 3, "requests": [{"path": "/old"}],
    "stubs": [{"responses": [{"is": {"body": "first"}}]}]})");
  auto parsed = frontends::parse_imposter(request, frontends::ParseOptions{});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(parsed));
  auto created = Imposter::create(std::get<ir::Imposter>(std::move(parsed)), ServingOptions{});
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<Imposter>>(created));
  auto& imposter = *std::get<std::shared_ptr<Imposter>>(created);

  DatadirSync sync{DatadirStore(root_)};
  ASSERT_FALSE(sync.created(imposter, request));
  auto stub = frontends::parse_stub(ir::Json::parse(R"({"responses":[{"is":{"body":"second"}}]})"),
                                    frontends::ParseOptions{});
  ASSERT_TRUE(std::holds_alternative<ir::Stub>(stub));
  std::vector<ir::Stub> stubs = imposter.config().stubs;
  stubs.push_back(std::get<ir::Stub>(std::move(stub)));
  ASSERT_FALSE(imposter.set_stubs(std::move(stubs), {0, -1}));
  ASSERT_FALSE(sync.changed(imposter));

  const ir::Json saved = ir::Json::parse(read(root_ / "4545" / "imposter.json"));
  const ir::Json expected = ir::Json::parse(R"({
    "protocol": "http", "port": 4545, "name": "orders", "allowCORS": true, "host": "127.0.0.1",
    "stubs": [{"responses": [{"is": {"body": "first"}}]},
              {"responses": [{"is": {"body": "second"}}]}]})");
  EXPECT_EQ(saved, expected);

  ASSERT_FALSE(sync.removed(4545));
  EXPECT_FALSE(fs::exists(root_ / "4545"));
}

TEST(DurableFile, TemporaryNamesAreRecognised) {
  EXPECT_EQ(durable::temporary_for("/d/4545/imposter.json"), "/d/4545/imposter.json.tmp");
  EXPECT_TRUE(durable::is_temporary("/d/4545/imposter.json.tmp"));
  EXPECT_FALSE(durable::is_temporary("/d/4545/imposter.json"));
}

TEST(DurableFile, WriteIntoAMissingFolderFailsWithTheCall) {
  auto failed = durable::write_atomically("/nonexistent-rift-folder/x.json", "{}");
  ASSERT_TRUE(failed);
  EXPECT_NE(failed->find("open /nonexistent-rift-folder/x.json.tmp"), std::string::npos) << *failed;
}

}  // namespace
}  // namespace rift
