// Node's globals and modules in the inject sandbox (runtime/script/node_globals.cpp), checked
// against known vectors and what Node 20 itself prints.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/script/engine.h"

namespace rift::script {
namespace {

class NodeGlobalsTest : public ::testing::Test {
 protected:
  NodeGlobalsTest()
      : engine_(EngineSettings{std::chrono::milliseconds(2000),
                               [this](LogLevel level, const std::string& message) {
                                 std::lock_guard lock(log_mutex_);
                                 log_.emplace_back(level, message);
                               }}),
        imposter_(engine_.open_imposter("[http:4545]")) {}

  // The value of `expression` inside an inject response, or the script's error message.
  ir::Json eval(const std::string& expression) {
    const Outcome outcome = engine_.call_and_wait(
        CallKind::kResponse, imposter_, "function (config) { return { v: (" + expression + ") }; }",
        ir::Json::parse(R"({"method":"POST","path":"/","body":"abc"})"));
    if (const auto* failure = std::get_if<ScriptError>(&outcome)) {
      return ir::Json{{"error", failure->message}};
    }
    return std::get<ir::Json>(outcome).at("v");
  }
  std::string text(const std::string& expression) {
    const ir::Json value = eval(expression);
    if (!value.is_string()) ADD_FAILURE() << expression << " gave " << value.dump();
    return value.is_string() ? value.get<std::string>() : "";
  }

  std::mutex log_mutex_;
  std::vector<std::pair<LogLevel, std::string>> log_;
  Engine engine_;
  const uint64_t imposter_;
};

TEST_F(NodeGlobalsTest, ProcessEnvIsTheRealEnvironment) {
  // The engine reads the environment when it starts; PATH is set in any test run.
  const char* path = std::getenv("PATH");
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(text("process.env.PATH"), path);
  EXPECT_EQ(text("process.env.RIFT_SURELY_UNSET_VARIABLE || 'test'"), "test");
  EXPECT_EQ(text("process.platform"), "linux");
  EXPECT_EQ(text("process.version"), "v20.11.1");
  EXPECT_EQ(text("process.versions.node"), "20.11.1");
  EXPECT_EQ(eval("process.pid"), ir::Json(static_cast<double>(getpid())));
  EXPECT_EQ(eval("typeof process.cwd() === 'string' && process.argv.length > 0"), true);
  EXPECT_EQ(eval("process.hrtime().length === 2 && typeof process.hrtime.bigint() === 'bigint'"),
            true);
  EXPECT_EQ(eval("process.uptime() >= 0 && process.memoryUsage().rss > 0"), true);
}

TEST_F(NodeGlobalsTest, NextTickAnswersLater) {
  const Outcome outcome = engine_.call_and_wait(
      CallKind::kResponse, imposter_,
      "(config, injectState, logger, callback) => process.nextTick(callback, { body: 'later' })",
      ir::Json::parse(R"({"method":"GET","path":"/"})"));
  ASSERT_TRUE(std::holds_alternative<ir::Json>(outcome));
  EXPECT_EQ(std::get<ir::Json>(outcome), ir::Json::parse(R"({"body":"later"})"));
}

TEST_F(NodeGlobalsTest, BufferEncodings) {
  EXPECT_EQ(text("Buffer.from('héllo').toString('base64')"), "aMOpbGxv");
  EXPECT_EQ(text("Buffer.from('héllo').toString('hex')"), "68c3a96c6c6f");
  EXPECT_EQ(text("Buffer.from('héllo', 'latin1').toString('hex')"), "68e96c6c6f");
  EXPECT_EQ(text("Buffer.from('68e96c6c6f', 'hex').toString('latin1')"), "héllo");
  EXPECT_EQ(text("Buffer.from('68e96c6c6f', 'hex').toString('binary')"), "héllo");
  EXPECT_EQ(text("Buffer.from('aMOpbGxv', 'base64').toString()"), "héllo");
  EXPECT_EQ(text("Buffer.from('aMOpbGxv', 'base64').toString('utf-8')"), "héllo");
  EXPECT_EQ(text("Buffer.from('héllo').toString('ascii')"), "hC)llo");  // high bit cleared
  EXPECT_EQ(text("Buffer.from('héllo').toString('base64url')"), "aMOpbGxv");
  EXPECT_EQ(text("Buffer.from('😀').toString('hex')"), "f09f9880");
  EXPECT_EQ(text("Buffer.from([0xc3, 0x28, 0x41]).toString()"), "\xEF\xBF\xBD(A");
  EXPECT_EQ(text("Buffer.from('hi', 'utf16le').toString('hex')"), "68006900");
  // Node's lenient decoders: whitespace skipped in base64, hex stops at the first bad pair.
  EXPECT_EQ(text("Buffer.from('aGVs\\nbG8=', 'base64').toString()"), "hello");
  EXPECT_EQ(text("Buffer.from('abzz12', 'hex').toString('hex')"), "ab");
  EXPECT_EQ(text("String(Buffer.from('round trip'))"), "round trip");
  EXPECT_EQ(eval("Buffer.from('x', 'nope')"), ir::Json({{"error", "Unknown encoding: nope"}}));
}

TEST_F(NodeGlobalsTest, BufferShapeAndHelpers) {
  EXPECT_EQ(eval("Buffer.byteLength('héllo')"), 6);
  EXPECT_EQ(eval("Buffer.byteLength('aMOpbGxv', 'base64')"), 6);
  EXPECT_EQ(eval("Buffer.byteLength('héllo', 'latin1')"), 5);
  EXPECT_EQ(text("Buffer.concat([Buffer.from('ab'), Buffer.from('cd')]).toString()"), "abcd");
  EXPECT_EQ(text("Buffer.concat([Buffer.from('ab'), Buffer.from('cd')], 3).toString()"), "abc");
  EXPECT_EQ(text("JSON.stringify(Buffer.from('hi'))"), R"({"type":"Buffer","data":[104,105]})");
  EXPECT_EQ(text("JSON.stringify({ b: Buffer.alloc(2, 1) })"),
            R"({"b":{"type":"Buffer","data":[1,1]}})");
  EXPECT_EQ(text("Buffer.alloc(5, 'ab').toString()"), "ababa");
  EXPECT_EQ(eval("Buffer.isBuffer(Buffer.alloc(1)) && !Buffer.isBuffer(new Uint8Array(1))"), true);
  EXPECT_EQ(eval("Buffer.from('hello') instanceof Uint8Array"), true);
  EXPECT_EQ(eval("Buffer.from('hello').length"), 5);
  EXPECT_EQ(eval("Buffer.from('hello')[1]"), 101);
  EXPECT_EQ(text("Buffer.from('hello').slice(1, 3).toString()"), "el");
  EXPECT_EQ(text("Buffer.from('hello').subarray(3).toString()"), "lo");
  // slice shares memory, as Node's does.
  EXPECT_EQ(text("(() => { const b = Buffer.from('abc'); b.slice(1)[0] = 0x7a; return "
                 "b.toString(); })()"),
            "azc");
  EXPECT_EQ(eval("Buffer.from('abc').equals(Buffer.from('abc'))"), true);
  EXPECT_EQ(eval("Buffer.from('abc').equals(Buffer.from('abd'))"), false);
  EXPECT_EQ(text("Buffer.from(new Uint8Array([104, 105])).toString()"), "hi");
  EXPECT_EQ(text("Buffer.from(Buffer.from('copy')).toString()"), "copy");
  EXPECT_EQ(text("Buffer.from({ type: 'Buffer', data: [104, 105] }).toString()"), "hi");
  EXPECT_EQ(text("Buffer.from(config.request.body).toString('base64')"), "YWJj");
  EXPECT_EQ(text("require('buffer').Buffer === Buffer && 'same'"), "same");
}

TEST_F(NodeGlobalsTest, CryptoDigestsFromOpenSsl) {
  EXPECT_EQ(text("require('crypto').createHash('sha256').update('abc').digest('hex')"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(text("require('crypto').createHash('md5').update('abc').digest('hex')"),
            "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(text("require('crypto').createHash('sha1').update('a').update('bc').digest('hex')"),
            "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(text("require('crypto').createHash('sha512').update('abc').digest('hex')"),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  EXPECT_EQ(text("require('crypto').createHash('sha256').update('abc').digest('base64')"),
            "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  EXPECT_EQ(text("require('node:crypto').createHash('md5').update('abc').digest().toString('hex')"),
            "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(eval("require('crypto').createHash('md5').update('abc').digest('latin1').length"), 16);
  // RFC 4231 test case 2.
  EXPECT_EQ(text("require('crypto').createHmac('sha256', 'Jefe')"
                 ".update('what do ya want for nothing?').digest('hex')"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(text("require('crypto').createHmac('sha256', Buffer.from('4a656665', 'hex'))"
                 ".update('what do ya want for nothing?').digest('hex')"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(eval("require('crypto').createHash('nope')"),
            ir::Json({{"error", "Digest method not supported"}}));
}

TEST_F(NodeGlobalsTest, CryptoRandomness) {
  const std::string uuid = text("require('crypto').randomUUID()");
  EXPECT_TRUE(std::regex_match(
      uuid, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << uuid;
  EXPECT_NE(uuid, text("require('crypto').randomUUID()"));
  EXPECT_EQ(eval("require('crypto').randomBytes(16).length"), 16);
  EXPECT_EQ(eval("Buffer.isBuffer(require('crypto').randomBytes(0))"), true);
}

TEST_F(NodeGlobalsTest, QuerystringAndUrl) {
  EXPECT_EQ(text("JSON.stringify(require('querystring').parse('a=1&b=x+y%20z&a=2&c'))"),
            R"({"a":["1","2"],"b":"x y z","c":""})");
  EXPECT_EQ(text("require('querystring').stringify({ a: [1, 2], b: 'x y', c: 'é' })"),
            "a=1&a=2&b=x%20y&c=%C3%A9");
  EXPECT_EQ(text("require('querystring').escape('a b&c')"), "a%20b%26c");
  EXPECT_EQ(text("require('querystring').unescape('a%20b%zz')"), "a b%zz");
  EXPECT_EQ(text("new URL('/p?q=1', 'http://Example.com:80/a').href"), "http://example.com/p?q=1");
  EXPECT_EQ(text("new URL('http://h.com/?a=1&b=x+y').searchParams.get('b')"), "x y");
  EXPECT_EQ(text("new URLSearchParams({ a: '1', b: 'é &' }).toString()"), "a=1&b=%C3%A9+%26");
  EXPECT_EQ(text("require('url').parse('/x?a=1', true).query.a"), "1");
  EXPECT_EQ(text("require('url').parse('http://h.com:8080/p?q').host"), "h.com:8080");
}

TEST_F(NodeGlobalsTest, Util) {
  EXPECT_EQ(text("require('util').format('%s=%d', 'a', 1)"), "a=1");
  EXPECT_EQ(text("require('util').format('x', { a: 1 }, [1, 'y'], 'z')"),
            "x { a: 1 } [ 1, 'y' ] z");
  EXPECT_EQ(text("require('util').inspect({ a: { b: { c: { d: 1 } } } })"),
            "{ a: { b: { c: [Object] } } }");
  EXPECT_EQ(text("require('util').inspect(Buffer.from('hi'))"), "<Buffer 68 69>");
  EXPECT_EQ(eval("require('util').isDeepStrictEqual({ a: [1, 2] }, { a: [1, 2] })"), true);
  EXPECT_EQ(eval("require('util').isDeepStrictEqual({ a: [1, 2] }, { a: [1, '2'] })"), false);
  const Outcome outcome = engine_.call_and_wait(
      CallKind::kResponse, imposter_,
      "async () => ({ body: await require('util').promisify((x, cb) => cb(null, x + 1))(1) })",
      ir::Json::parse(R"({"method":"GET","path":"/"})"));
  ASSERT_TRUE(std::holds_alternative<ir::Json>(outcome));
  EXPECT_EQ(std::get<ir::Json>(outcome), ir::Json::parse(R"({"body":2})"));
}

TEST_F(NodeGlobalsTest, RequireOfAnythingElseNamesTheModule) {
  EXPECT_EQ(eval("require('fs')"),
            ir::Json({{"error",
                       "Cannot find module 'fs' (Rift's inject sandbox provides only buffer, "
                       "crypto, querystring, url, util)"}}));
  EXPECT_EQ(
      eval("(() => { try { require('node:child_process'); } catch (e) { return e.code; } })()"),
      "MODULE_NOT_FOUND");
}

TEST_F(NodeGlobalsTest, ConsoleWritesToTheLog) {
  EXPECT_EQ(eval("(console.log('n=%d', 5), console.info('i', { a: 1 }), console.warn('w'), "
                 "console.error('e'), console.debug('d'), true)"),
            true);
  std::lock_guard lock(log_mutex_);
  EXPECT_EQ(log_, (std::vector<std::pair<LogLevel, std::string>>{{LogLevel::kInfo, "n=5"},
                                                                 {LogLevel::kInfo, "i { a: 1 }"},
                                                                 {LogLevel::kWarn, "w"},
                                                                 {LogLevel::kError, "e"},
                                                                 {LogLevel::kDebug, "d"}}));
}

}  // namespace
}  // namespace rift::script
