package dev.rift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The three conformance lanes of the java client, one after another. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConformanceTest {
    static final int OFFSET = 14000;

    static void check(ConformanceReplayer.Outcome o) {
        System.out.println(o.file() + ": " + o.passed() + " passed, " + o.failed() + " failed, " + o.skipped() + " skipped");
        assertTrue(o.passed() > 0, "the lane passed nothing");
        assertEquals(List.of(), o.failures(), "failed steps");
    }

    @Test
    @Order(1)
    void embedded() throws IOException {
        try (RiftClient rift = Rift.embedded()) {
            check(new ConformanceReplayer(rift, "java", OFFSET).run());
        }
    }

    @Test
    @Order(2)
    void spawn() throws IOException {
        try (RiftClient rift = Rift.spawn()) {
            check(new ConformanceReplayer(rift, "java", OFFSET).run());
        }
    }

    @Test
    @Order(3)
    void connect() throws Exception {
        try (TestServer server = TestServer.start(); RiftClient rift = Rift.connect(server.url())) {
            check(new ConformanceReplayer(rift, "java", OFFSET).run());
        }
    }
}
