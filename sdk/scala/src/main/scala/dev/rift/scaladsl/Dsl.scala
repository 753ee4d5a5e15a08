package dev.rift.scaladsl

import dev.rift.{Imposter as JImposter, Predicate as JPredicate, RequestPattern as JRequestPattern, Response as JResponse, Stub as JStub, Times as JTimes}

/** A Mountebank response (is, proxy, inject) with its behaviors; immutable. */
final class Response private[scaladsl] (private[scaladsl] val build: () => JResponse):
  private def and(f: JResponse => JResponse) = Response(() => f(build()))
  /** Content-Type application/json and the text as the body, as given. */
  def json(text: String): Response =
    dev.rift.internal.Json.parse(text): Unit
    and(_.header("Content-Type", "application/json").body(text))
  def body(text: String): Response = and(_.body(text))
  def header(name: String, value: String): Response = and(_.header(name, value))
  def headers(hs: (String, String)*): Response = and(r => hs.foldLeft(r)((r, h) => r.header(h._1, h._2)))
  def binary(base64: String): Response = and(_.binaryBody(base64))
  def waitMs(ms: Int): Response = and(_.waitMs(ms))
  def waitJs(js: String): Response = and(_.waitJs(js))
  def repeat(times: Int): Response = and(_.repeat(times))
  def decorate(js: String): Response = and(_.decorate(js))
  def copyRegex(from: String, into: String, selector: String): Response = and(_.copyRegex(from, into, selector))
  def copy(json: String): Response = and(_.copy(json))
  def lookup(json: String): Response = and(_.lookup(json))
  def shellTransform(command: String): Response = and(_.shellTransform(command))
  def predicateGenerators(json: String): Response = and(_.predicateGenerators(json))
  def toJava: JResponse = build()
  override def toString: String = build().toString

/** A Mountebank predicate; immutable. */
final class Predicate private[scaladsl] (private[scaladsl] val build: () => JPredicate):
  private def and(f: JPredicate => JPredicate) = Predicate(() => f(build()))
  def caseSensitive: Predicate = and(_.caseSensitive(true))
  def except(regex: String): Predicate = and(_.except(regex))
  def jsonpath(selector: String): Predicate = and(_.jsonpath(selector))
  def xpath(selector: String): Predicate = and(_.xpath(selector))
  def toJava: JPredicate = build()
  override def toString: String = build().toString

object Predicate:
  private def fields(op: () => JPredicate, method: String, path: String, query: Map[String, String],
                     headers: Map[String, Any], body: String, json: String): Predicate =
    Predicate { () =>
      val p = op()
      if method != null then p.method(method)
      if path != null then p.path(path)
      query.foreach((k, v) => p.query(k, v))
      headers.foreach((k, v) => p.header(k, v))
      if body != null then p.body(body)
      if json != null then p.jsonBody(json)
      p
    }

  def equalTo(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
              headers: Map[String, String] = Map.empty, body: String = null, json: String = null): Predicate =
    fields(() => JPredicate.equalTo(), method, path, query, headers, body, json)
  def deepEquals(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
                 headers: Map[String, String] = Map.empty, body: String = null, json: String = null): Predicate =
    fields(() => JPredicate.deepEquals(), method, path, query, headers, body, json)
  def contains(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
               headers: Map[String, String] = Map.empty, body: String = null): Predicate =
    fields(() => JPredicate.contains(), method, path, query, headers, body, null)
  def startsWith(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
                 headers: Map[String, String] = Map.empty, body: String = null): Predicate =
    fields(() => JPredicate.startsWith(), method, path, query, headers, body, null)
  def endsWith(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
               headers: Map[String, String] = Map.empty, body: String = null): Predicate =
    fields(() => JPredicate.endsWith(), method, path, query, headers, body, null)
  def matches(method: String = null, path: String = null, query: Map[String, String] = Map.empty,
              headers: Map[String, String] = Map.empty, body: String = null): Predicate =
    fields(() => JPredicate.matches(), method, path, query, headers, body, null)
  /** exists: headers/query names to true (present) or false (absent). */
  def exists(headers: Map[String, Boolean] = Map.empty, query: Map[String, Boolean] = Map.empty,
             body: Option[Boolean] = None): Predicate =
    Predicate { () =>
      val p = JPredicate.exists()
      headers.foreach((k, v) => p.header(k, v))
      query.foreach((k, v) => p.query(k, v))
      body.foreach(b => p.body(b))
      p
    }
  def not(p: Predicate): Predicate = Predicate(() => JPredicate.not(p.build()))
  def or(ps: Predicate*): Predicate = Predicate(() => JPredicate.or(ps.map(_.build())*))
  def and(ps: Predicate*): Predicate = Predicate(() => JPredicate.and(ps.map(_.build())*))

/** A request as a stub matches it and verify counts it: get("/users/1").query("a" -> "1"). */
final case class RequestPattern(method: String, path: String, queryParams: Map[String, String] = Map.empty,
                                headerValues: Map[String, String] = Map.empty, bodyText: Option[String] = None,
                                extra: Vector[Predicate] = Vector.empty):
  def query(kv: (String, String)*): RequestPattern = copy(queryParams = queryParams ++ kv)
  def header(kv: (String, String)*): RequestPattern = copy(headerValues = headerValues ++ kv)
  def body(text: String): RequestPattern = copy(bodyText = Some(text))
  /** A further predicate for the stub (verify does not evaluate it). */
  def where(p: Predicate): RequestPattern = copy(extra = extra :+ p)
  def reply(responses: Response*): Stub = Stub(() => {
    val j = toJava
    extra.foreach(p => j.and(p.build()))
    j.willReturn(responses.map(_.build())*)
  })
  def toJava: JRequestPattern =
    val j = dev.rift.Rift.onRequest(method, path)
    queryParams.foreach((k, v) => j.withQuery(k, v))
    headerValues.foreach((k, v) => j.withHeader(k, v))
    bodyText.foreach(j.withBody)
    j

/** A stub: predicates and the responses it cycles through. */
final class Stub private[scaladsl] (private[scaladsl] val build: () => JStub):
  def toJava: JStub = build()
  override def toString: String = build().toString

/** An imposter as Mountebank's JSON; immutable. */
final class Imposter private[scaladsl] (private[scaladsl] val build: () => JImposter):
  private def and(f: JImposter => JImposter) = Imposter(() => f(build()))
  def port(n: Int): Imposter = and(_.port(n))
  def https: Imposter = and(_.https())
  def protocol(p: String): Imposter = and(_.protocol(p))
  def record: Imposter = and(_.record())
  def host(h: String): Imposter = and(_.host(h))
  def stub(s: Stub*): Imposter = and(i => s.foldLeft(i)((i, s) => i.stub(s.build())))
  def defaultResponse(r: Response): Imposter = and(_.defaultResponse(r.build()))
  def field(name: String, value: Any): Imposter = and(_.field(name, value))
  def toJava: JImposter = build()
  def json: String = build().toString
  override def toString: String = json

/** How many recorded requests verify expects. */
opaque type Times = JTimes
object Times:
  extension (t: Times) def toJava: JTimes = t
  def apply(t: JTimes): Times = t

/** The DSL: import dev.rift.scaladsl.dsl.* */
object dsl:
  def imposter(name: String): Imposter = Imposter(() => dev.rift.Rift.imposter(name))
  def imposter: Imposter = Imposter(() => dev.rift.Rift.imposter())

  def get(path: String): RequestPattern = RequestPattern("GET", path)
  def post(path: String): RequestPattern = RequestPattern("POST", path)
  def put(path: String): RequestPattern = RequestPattern("PUT", path)
  def delete(path: String): RequestPattern = RequestPattern("DELETE", path)
  def patch(path: String): RequestPattern = RequestPattern("PATCH", path)
  def request(method: String, path: String): RequestPattern = RequestPattern(method, path)
  /** A stub from predicates alone: when(Predicate.startsWith(path = "/a")).reply(ok). */
  def when(ps: Predicate*): WhenBuilder = WhenBuilder(ps.toVector)
  final case class WhenBuilder(ps: Vector[Predicate]):
    def reply(responses: Response*): Stub =
      Stub(() => JStub.when(ps.map(_.build())*).willReturn(responses.map(_.build())*))

  def ok: Response = status(200)
  def status(code: Int): Response = Response(() => JResponse.status(code))
  def notFound: Response = status(404)
  def proxy(to: String, mode: String = "proxyOnce"): Response = Response(() => JResponse.proxy(to, mode))
  def inject(js: String): Response = Response(() => JResponse.inject(js))

  def times(n: Int): Times = Times(JTimes.times(n))
  def once: Times = Times(JTimes.once())
  def never: Times = Times(JTimes.never())
  def atLeast(n: Int): Times = Times(JTimes.atLeast(n))
  def atMost(n: Int): Times = Times(JTimes.atMost(n))
