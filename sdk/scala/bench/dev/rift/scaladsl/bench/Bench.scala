package dev.rift.scaladsl.bench

import dev.rift.scaladsl.*
import dev.rift.scaladsl.dsl.*

/**
 * One stubbed GET returning a small JSON body: the embedded gateway vs loopback HTTP to a spawned
 * rift, through the Scala wrapper. Run with bench/run.sh [iterations] [warmup].
 */
object Bench:
  def run(rift: RiftClient, port: Int, warmup: Int, n: Int): Double =
    def once(): Unit =
      val r = rift.get(port, "/users/1")
      if r.status != 200 || r.body.isEmpty then throw AssertionError(r.toString)
    for _ <- 0 until warmup do once()
    val t0 = System.nanoTime
    for _ <- 0 until n do once()
    (System.nanoTime - t0) / 1000.0 / n

  def main(args: Array[String]): Unit =
    val n = args.headOption.map(_.toInt).getOrElse(5000)
    val warmup = args.lift(1).map(_.toInt).getOrElse(1000)
    val stub = get("/users/1").reply(ok.json("""{"id": 1, "name": "Ada", "tier": "gold"}"""))
    val embedded = Rift.embedded("{}")
    val spawned = Rift.spawn()
    try
      embedded.create(imposter.port(25595).stub(stub))
      spawned.create(imposter.port(25596).stub(stub))
      val e = run(embedded, 25595, warmup, n)
      val s = run(spawned, 25596, warmup, n)
      println(f"scala bench: $n%d calls after $warmup%d warm-up")
      println(f"  embedded gateway (rift_request):   $e%8.1f us/call")
      println(f"  spawned rift over loopback HTTP:   $s%8.1f us/call")
    finally
      embedded.close()
      spawned.close()
