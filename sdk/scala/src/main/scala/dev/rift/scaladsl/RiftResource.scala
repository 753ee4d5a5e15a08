package dev.rift.scaladsl

import cats.effect.{Resource, Sync}

/** Cats Effect: Rift as a Resource, opened and closed on the blocking pool. */
object RiftResource:
  def embedded[F[_]: Sync](options: String = Rift.DefaultOptions): Resource[F, RiftClient] =
    make(Rift.embedded(options))
  def spawn[F[_]: Sync]: Resource[F, RiftClient] = make(Rift.spawn())
  def connect[F[_]: Sync](baseUrl: String): Resource[F, RiftClient] = make(Rift.connect(baseUrl))
  def open[F[_]: Sync](transport: String): Resource[F, RiftClient] = make(Rift.open(transport))

  private def make[F[_]: Sync](open: => RiftClient): Resource[F, RiftClient] =
    Resource.make(Sync[F].blocking(open))(c => Sync[F].blocking(c.close()))
