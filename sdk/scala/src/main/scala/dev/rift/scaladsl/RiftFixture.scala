package dev.rift.scaladsl

import munit.{AfterEach, BeforeEach}

/** munit integration: mix RiftSuite into a FunSuite, or list RiftFixture.perSuite in munitFixtures. */
object RiftFixture:
  /** The transport from the rift.transport system property, else embedded. */
  def defaultTransport: String = sys.props.getOrElse("rift.transport", "embedded")

  /**
   * One Rift per suite (list it in munitFixtures); the imposters a test creates are deleted
   * after it. Use `rift()` inside a test.
   */
  def perSuite(transport: String = defaultTransport): SuiteRift = SuiteRift(transport)

  final class SuiteRift(transport: String) extends munit.Fixture[RiftClient]("rift"):
    private var client: RiftClient = null
    private var before: Set[Int] = Set.empty
    def apply(): RiftClient =
      if client == null then throw IllegalStateException("the rift fixture is not open: list it in munitFixtures")
      client
    override def beforeAll(): Unit = client = Rift.open(transport)
    override def beforeEach(context: BeforeEach): Unit = before = client.ports.toSet
    override def afterEach(context: AfterEach): Unit =
      client.ports.filterNot(before).foreach(client.delete)
    override def afterAll(): Unit =
      if client != null then client.close()
      client = null

/** A FunSuite with a per-test Rift: `riftTest.test("...") { rift => ... }`. */
trait RiftSuite extends munit.FunSuite:
  /** A fresh Rift for each test (FunFixture), closed after it. */
  def riftPerTest(transport: String = RiftFixture.defaultTransport): FunFixture[RiftClient] =
    FunFixture[RiftClient](_ => Rift.open(transport), _.close())
