package dev.rift.scaladsl

import com.fasterxml.jackson.databind.JsonNode
import dev.rift.{HttpResult, RiftClient as JClient}
import java.nio.charset.StandardCharsets
import scala.jdk.CollectionConverters.*

/** One HTTP answer: status, headers as (name, value) pairs, body bytes. */
final case class Reply(status: Int, headers: List[(String, String)], body: Array[Byte]):
  def text: String = String(body, StandardCharsets.UTF_8)
  def header(name: String): Option[String] = headers.collectFirst { case (k, v) if k.equalsIgnoreCase(name) => v }
  def json: JsonNode = dev.rift.internal.Json.parse(text)
  override def toString: String = s"Reply($status, $text)"

object Reply:
  def apply(r: HttpResult): Reply =
    Reply(r.status(), r.headers().asScala.toList.map(e => e.getKey -> e.getValue), r.body())

/** Rift, whichever the transport; close() is idempotent. Wraps rift-java's RiftClient. */
final class RiftClient(val underlying: JClient) extends AutoCloseable:
  def transport: String = underlying.transport()
  def adminUrl: Option[String] = Option(underlying.adminUrl())
  def serveAdmin(): String = underlying.serveAdmin()

  def create(imposter: Imposter): Int = underlying.create(imposter.toJava)
  def createJson(json: String): Int = underlying.createJson(json)
  def addStub(port: Int, stub: Stub, index: Int = -1): Unit = underlying.addStub(port, index, stub.toJava)
  def delete(port: Int): Unit = underlying.delete(port)
  def deleteAll(): Unit = underlying.deleteAll()
  def ports: List[Int] = underlying.ports().asScala.toList.map(_.intValue)
  def requests(port: Int): List[JsonNode] = underlying.requests(port).asScala.toList
  def count(port: Int, request: RequestPattern): Int = underlying.count(port, request.toJava)
  /** Throws dev.rift.VerificationError (an AssertionError) unless the journal agrees. */
  def verify(port: Int, request: RequestPattern, times: Times = dsl.once): Unit =
    underlying.verify(port, request.toJava, times.toJava)

  /** A raw admin API call. */
  def request(method: String, path: String, body: Option[String] = None): Reply =
    Reply(underlying.request(method, path, body.orNull))

  /** A call to the imposter on port (gateway when embedded, socket otherwise). */
  def call(port: Int, method: String, path: String, headers: Map[String, String] = Map.empty,
           body: Option[Array[Byte]] = None): Reply =
    Reply(underlying.call(port, method, path, headers.asJava, body.orNull))
  def get(port: Int, path: String): Reply = call(port, "GET", path)

  override def close(): Unit = underlying.close()
  override def toString: String = s"RiftClient($transport)"

object Rift:
  val DefaultOptions: String = dev.rift.Rift.DEFAULT_OPTIONS
  /** The engine in process (librift through rift-java's FFM binding). */
  def embedded(options: String = DefaultOptions): RiftClient = RiftClient(dev.rift.Rift.embedded(options))
  /** A rift binary (RIFT_BIN, then PATH) on a free loopback port; stopped on close. */
  def spawn(extraArgs: String*): RiftClient = RiftClient(dev.rift.Rift.spawn(extraArgs.asJava))
  /** A running rift at its admin base URL. */
  def connect(baseUrl: String): RiftClient = RiftClient(dev.rift.Rift.connect(baseUrl))
  /** "embedded", "spawn" or "connect:URL". */
  def open(transport: String): RiftClient = RiftClient(dev.rift.Rift.open(transport))
