package dev.rift.scaladsl

import java.net.{HttpURLConnection, URI}
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/** The scala client's three conformance lanes, one after another (munit runs tests in order). */
class ConformanceSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(240, "s")
  val Offset = 15000

  def check(o: ConformanceReplayer.Outcome): Unit =
    println(s"${o.file}: ${o.passed} passed, ${o.failed} failed, ${o.skipped} skipped")
    assert(o.passed > 0, "the lane passed nothing")
    assertEquals(o.failures, Nil)

  test("embedded lane") {
    val rift = Rift.embedded()
    try check(ConformanceReplayer.run(rift, "scala", Offset)) finally rift.close()
  }

  test("spawn lane") {
    val rift = Rift.spawn()
    try check(ConformanceReplayer.run(rift, "scala", Offset)) finally rift.close()
  }

  test("connect lane (rift started here with a plain subprocess)") {
    val server = TestServer.start()
    try
      val rift = Rift.connect(server.url)
      try check(ConformanceReplayer.run(rift, "scala", Offset)) finally rift.close()
    finally server.close()
  }

/** A rift started with a plain subprocess, for the connect transport. */
final class TestServer(process: Process, val url: String):
  def close(): Unit =
    process.destroy()
    if !process.waitFor(10, TimeUnit.SECONDS) then process.destroyForcibly().waitFor()

object TestServer:
  def start(): TestServer =
    val port = dev.rift.internal.SpawnTransport.freePort()
    val dir = Files.createTempDirectory("rift-scala-connect-")
    val bin = dev.rift.internal.SpawnTransport.locateBinary().toString
    val p = ProcessBuilder(bin, "start", "--port", port.toString, "--host", "127.0.0.1", "--allowInjection",
                           "--nologfile", "--pidfile", dir.resolve("rift.pid").toString)
      .directory(dir.toFile).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile).start()
    val url = s"http://127.0.0.1:$port"
    val deadline = System.nanoTime + TimeUnit.SECONDS.toNanos(20)
    var ready = false
    while !ready do
      if !p.isAlive then throw IllegalStateException("rift exited: " + Files.readString(dir.resolve("out.log")))
      ready =
        try
          val c = URI.create(url + "/").toURL.openConnection().asInstanceOf[HttpURLConnection]
          c.setConnectTimeout(500)
          c.getResponseCode == 200
        catch case _: java.io.IOException => false
      if !ready then
        if System.nanoTime > deadline then
          p.destroyForcibly()
          throw IllegalStateException(s"rift did not answer at $url")
        p.waitFor(20, TimeUnit.MILLISECONDS)
    TestServer(p, url)
