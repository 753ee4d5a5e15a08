package dev.rift.scaladsl

import cats.effect.IO
import cats.effect.unsafe.implicits.global
import dev.rift.{RiftException, VerificationError}
import dev.rift.internal.Json
import dsl.*

/** The Scala DSL's JSON. */
class DslSuite extends munit.FunSuite:
  def assertJson(actual: Any, expected: String)(using munit.Location): Unit =
    assertEquals(Json.parse(actual.toString), Json.parse(expected))

  test("imposter with a request-pattern stub") {
    assertJson(
      imposter("users").port(4545).record.stub(get("/users/1").query("a" -> "1").header("X" -> "y").reply(ok.json("""{"id":1}"""))),
      """{"protocol":"http","name":"users","port":4545,"recordRequests":true,"stubs":[
           {"predicates":[{"equals":{"method":"GET","path":"/users/1","query":{"a":"1"},"headers":{"X":"y"}}}],
            "responses":[{"is":{"statusCode":200,"headers":{"Content-Type":"application/json"},"body":"{\"id\":1}"}}]}]}""")
  }

  test("predicates, options, responses and behaviors") {
    assertJson(Predicate.contains(body = "x").caseSensitive, """{"contains":{"body":"x"},"caseSensitive":true}""")
    assertJson(Predicate.exists(headers = Map("X-Token" -> true)), """{"exists":{"headers":{"X-Token":true}}}""")
    assertJson(Predicate.not(Predicate.or(Predicate.startsWith(path = "/a"), Predicate.matches(path = "^/b"))),
               """{"not":{"or":[{"startsWith":{"path":"/a"}},{"matches":{"path":"^/b"}}]}}""")
    assertJson(Predicate.equalTo(json = """{"a":1}""").jsonpath("$.a"), """{"equals":{"body":{"a":1}},"jsonpath":{"selector":"$.a"}}""")
    assertJson(status(201).body("b").waitMs(5).repeat(2), """{"is":{"statusCode":201,"body":"b"},"_behaviors":{"wait":5,"repeat":2}}""")
    assertJson(proxy("http://x"), """{"proxy":{"to":"http://x","mode":"proxyOnce"}}""")
    // Immutable: deriving a response leaves the original as it was.
    val base = ok.body("a")
    base.header("X", "1")
    assertJson(base, """{"is":{"statusCode":200,"body":"a"}}""")
    intercept[IllegalArgumentException](ok.json("{not json"))
  }

/** The wrapper on the embedded engine, with the per-suite munit fixture. */
class EmbeddedSuite extends munit.FunSuite:
  val rift = RiftFixture.perSuite("embedded")
  override def munitFixtures = List(rift)

  test("stub, call and verify") {
    val port = rift().create(imposter("users").port(25545).record
      .stub(get("/users/1").reply(ok.json("""{"id": 1, "name": "Ada"}"""))))
    val r = rift().get(port, "/users/1")
    assertEquals(r.status, 200)
    assertEquals(r.text, """{"id": 1, "name": "Ada"}""")
    assertEquals(r.header("content-type"), Some("application/json"))
    rift().verify(port, get("/users/1"), times(1))
    rift().verify(port, post("/users/1"), never)
    val e = intercept[VerificationError](rift().verify(port, get("/users/1"), times(2)))
    assertEquals(e.count, 1)
  }

  test("the fixture deleted the previous test's imposters") {
    assertEquals(rift().ports, Nil)
  }

  test("predicates, cycling responses, inject") {
    val port = rift().create(imposter.port(25546)
      .stub(when(Predicate.startsWith(path = "/cycle")).reply(status(500).body("first"), ok.body("second")))
      .stub(when(Predicate.matches(path = "^/n/\\d+$")).reply(inject(
        "function (config) { return { statusCode: 200, body: 'injected ' + config.request.path }; }")))
      .defaultResponse(status(418)))
    assertEquals(List.fill(3)(rift().get(port, "/cycle").text), List("first", "second", "first"))
    assertEquals(rift().get(port, "/n/4").text, "injected /n/4")
    assertEquals(rift().get(port, "/other").status, 418)
  }

  test("raw JSON and request escape hatch") {
    val port = rift().createJson("""{"port": 25547, "protocol": "http", "stubs": [{"responses": [{"is": {"body": "raw"}}]}]}""")
    assertEquals(rift().get(port, "/x").text, "raw")
    val bad = rift().request("POST", "/imposters", Some("""{"protocol": "gopher"}"""))
    assertEquals(bad.status, 400)
    assertEquals(rift().request("GET", "/imposters").json.path("imposters").get(0).path("port").asInt, 25547)
  }

  test("librift errors carry code and name") {
    val e = intercept[RiftException](Rift.embedded("""{"nosuch": 1}"""))
    assertEquals(e.code, -1)
    assertEquals(e.name, "RIFT_ERR_ARGUMENT")
  }

/** FunFixture: a fresh engine per test. */
class FunFixtureSuite extends RiftSuite:
  val fresh = riftPerTest("embedded")
  var seen: List[RiftClient] = Nil

  fresh.test("each test gets its own engine") { rift =>
    seen ::= rift
    rift.create(imposter.port(25550).stub(get("/").reply(ok.body("one"))))
    assertEquals(rift.get(25550, "/").text, "one")
  }

  fresh.test("and the engine before was closed") { rift =>
    assertEquals(rift.ports, Nil)
    assert(!seen.contains(rift))
    val e = intercept[RiftException](seen.head.ports)
    assertEquals(e.name, "RIFT_ERR_STATE")
  }

/** Cats Effect Resource. */
class ResourceSuite extends munit.FunSuite:
  test("Resource opens the engine for use and closes it after") {
    val (inside, client) = RiftResource.embedded[IO]().use { rift =>
      IO.blocking {
        rift.create(imposter.port(25560).record.stub(get("/ce").reply(ok.body("cats"))))
        val body = rift.get(25560, "/ce").text
        rift.verify(25560, get("/ce"), once)
        (body, rift)
      }
    }.unsafeRunSync()
    assertEquals(inside, "cats")
    val e = intercept[RiftException](client.ports)
    assertEquals(e.name, "RIFT_ERR_STATE")
  }

  test("spawn as a Resource stops the server") {
    val pid = RiftResource.spawn[IO].use { rift =>
      IO.blocking {
        assertEquals(rift.transport, "spawn")
        rift.underlying.getClass.getDeclaredField("transport") match
          case f =>
            f.setAccessible(true)
            f.get(rift.underlying).asInstanceOf[dev.rift.internal.SpawnTransport].pid()
      }
    }.unsafeRunSync()
    assert(!ProcessHandle.of(pid).map(_.isAlive).orElse(false), s"rift $pid still running")
  }
