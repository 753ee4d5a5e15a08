package dev.rift.scaladsl

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.node.ObjectNode
import dev.rift.internal.Json
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import scala.jdk.CollectionConverters.*
import scala.util.control.NonFatal

/** tests/conformance/README.md, replayed on one lane through the Scala client. */
object ConformanceReplayer:
  val LaneTags: Set[String] = Set("injection", "proxy", "https", "shell")
  val Corpora: List[String] = List("rift", "reference-rift")

  final case class Outcome(passed: Int, failed: Int, skipped: Int, failures: List[String], file: Path)

  def repoRoot: Path = Path.of("").toAbsolutePath.resolve("../..").normalize
  def resultsDir: Path = sys.env.get("RIFT_RESULTS").filter(_.nonEmpty).map(Path.of(_))
    .getOrElse(repoRoot.resolve("build/conformance-results"))

  private final case class Fixture(corpus: String, name: String, entry: JsonNode, dir: Path)

  def run(client: RiftClient, clientName: String, defaultOffset: Int): Outcome =
    val offset = sys.env.get("RIFT_CONFORMANCE_PORT_OFFSET").filter(_.nonEmpty).map(_.toInt).getOrElse(defaultOffset)
    val conformance = repoRoot.resolve("tests/conformance")
    val lines = Vector.newBuilder[ObjectNode]
    def line(fx: Fixture, stub: Option[Int], step: Option[Int], outcome: String, reason: String): Unit =
      val n = Json.`object`()
      n.put("client", clientName).put("transport", client.transport).put("tier", "interpreter")
        .put("corpus", fx.corpus).put("fixture", fx.name)
      stub.fold(n.putNull("stub"))(n.put("stub", _))
      step.fold(n.putNull("step"))(n.put("step", _))
      n.put("outcome", outcome).put("reason", reason)
      lines += n

    val skips = Json.MAPPER.readTree(conformance.resolve("skips.json").toFile).path("skips").asScala.toList
    def skipOf(fx: Fixture, stub: Option[Int]): Option[String] = skips.collectFirst {
      case s if s.path("corpus").asText == fx.corpus && s.path("fixture").asText == fx.name &&
                (stub match
                  case None => s.path("stub").isNull
                  case Some(i) => !s.path("stub").isNull && s.path("stub").asInt == i) => s.path("why").asText
    }

    val fixtures = Corpora.flatMap { corpus =>
      val dir = conformance.resolve(corpus)
      Json.MAPPER.readTree(dir.resolve("manifest.json").toFile).path("fixtures").asScala.toList.map { e =>
        Fixture(corpus, Path.of(e.path("file").asText).getFileName.toString.stripSuffix(".json"), e, dir)
      }
    }
    val manifestPorts = fixtures.map(_.entry.path("port").asInt).toSet
    val portRef = raw"(localhost|127\.0\.0\.1):(\d+)(?!\d)".r

    // 1-4: choose, rewrite, create every fixture first.
    val toReplay = fixtures.flatMap { fx =>
      val lacking = fx.entry.path("requires").asScala.map(_.asText).find(t => !LaneTags(t))
      val whole = skipOf(fx, None)
      (lacking, whole) match
        case (Some(tag), _) => line(fx, None, None, "skip", s"requires $tag"); None
        case (_, Some(why)) => line(fx, None, None, "skip", why); None
        case _ =>
          val text0 = Files.readString(fx.dir.resolve(fx.entry.path("file").asText), StandardCharsets.UTF_8)
          val text1 = portRef.replaceAllIn(text0, m =>
            val p = m.group(2).toInt
            scala.util.matching.Regex.quoteReplacement(if manifestPorts(p) then s"${m.group(1)}:${p + offset}" else m.matched))
          val data = fx.dir.resolve("corpus").toAbsolutePath.normalize.toString + "/data/"
          val imposter = Json.parse(text1.replace("\"data/", "\"" + data)).asInstanceOf[ObjectNode]
          imposter.put("port", fx.entry.path("port").asInt + offset)
          val refused =
            try
              val r = client.request("POST", "/imposters", Some(imposter.toString))
              if r.status == 201 || r.status == 200 then None else Some(s"POST /imposters answered ${r.status}: ${r.text}")
            catch case NonFatal(e) => Some(s"POST /imposters failed: ${e.getMessage}")
          Some((fx, imposter, refused))
    }

    // 5: replay.
    for (fx, imposter, refused) <- toReplay do
      val port = imposter.path("port").asInt
      for (stub, i) <- imposter.path("stubs").asScala.zipWithIndex do
        val why = skipOf(fx, Some(i))
        for (st, j) <- stub.path("_verify").path("sequence").asScala.zipWithIndex do
          (why, refused) match
            case (Some(w), _) => line(fx, Some(i), Some(j), "skip", w)
            case (_, Some(r)) => line(fx, Some(i), Some(j), "fail", r)
            case _ =>
              val failure = step(client, port, st)
              line(fx, Some(i), Some(j), if failure.isEmpty then "pass" else "fail", failure.getOrElse(""))

    // 6: delete every imposter.
    client.deleteAll()
    write(clientName, client.transport, lines.result())

  private def step(client: RiftClient, port: Int, st: JsonNode): Option[String] =
    val req = st.path("request")
    val exp = st.path("expect")
    val method = req.path("method").asText("GET")
    val path = req.path("path").asText("/")
    val headers = req.path("headers").properties.asScala.map(e =>
      e.getKey -> (if e.getValue.isTextual then e.getValue.asText else e.getValue.toString)).toMap
    val body = Option(req.get("body")).map(b => (if b.isTextual then b.asText else Json.write(b)).getBytes(StandardCharsets.UTF_8))
    try
      val r = client.call(port, method, path, headers, body)
      val got = r.text
      val problems = List(
        Option.when(exp.has("status") && exp.get("status").asInt != r.status)(
          s"status: expected ${exp.get("status").asInt}, got ${r.status}"),
        Option.when(exp.has("bodyContains") && {
          val want = exp.get("bodyContains").asText
          !got.contains(want) && !Option(Json.compact(got)).exists(_.contains(want))
        })(s"bodyContains: expected ${Json.write(exp.get("bodyContains").asText)} in ${Json.write(got.take(300))}"),
        Option.when(exp.has("bodyEquals") && exp.get("bodyEquals").asText != got)(
          s"bodyEquals: expected ${Json.write(exp.get("bodyEquals").asText)}, got ${Json.write(got.take(300))}")
      ).flatten
      Option.when(problems.nonEmpty)(s"$method $path: ${problems.mkString("; ")}")
    catch case NonFatal(e) => Some(s"$method $path: no answer: ${e.getMessage}")

  private def write(clientName: String, transport: String, lines: Vector[ObjectNode]): Outcome =
    val dir = resultsDir
    Files.createDirectories(dir)
    val file = dir.resolve(s"$clientName-$transport-interpreter.jsonl")
    Files.writeString(file, lines.map(_.toString + "\n").mkString, StandardCharsets.UTF_8)
    val outcomes = lines.map(_.path("outcome").asText)
    val failures = lines.filter(_.path("outcome").asText == "fail").map(n =>
      s"${n.path("corpus").asText}/${n.path("fixture").asText} stub ${n.path("stub")} step ${n.path("step")}: ${n.path("reason").asText}").toList
    Outcome(outcomes.count(_ == "pass"), outcomes.count(_ == "fail"), outcomes.count(_ == "skip"), failures, file)
