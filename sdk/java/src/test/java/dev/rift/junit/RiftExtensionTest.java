package dev.rift.junit;

import static dev.rift.Rift.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.rift.RiftClient;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@RiftTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RiftExtensionTest {
    static RiftClient first;
    private final RiftClient fromConstructor;

    RiftExtensionTest(RiftClient rift) {
        this.fromConstructor = rift;
    }

    @Test
    @Order(1)
    void injectsAClientAndKeepsItForTheClass(RiftClient rift) {
        first = rift;
        assertSame(fromConstructor, rift);
        assertEquals(System.getProperty("rift.transport", "embedded"), rift.transport());
        rift.create(imposter().port(24580).record().stub(onGet("/").willReturn(ok().body("hi"))));
        assertEquals("hi", rift.get(24580, "/").bodyText());
        rift.verify(24580, onGet("/"), once());
    }

    @Test
    @Order(2)
    void deletesTheImpostersOfTheTestBefore(RiftClient rift) {
        assertSame(first, rift, "one engine per test class");
        assertEquals(java.util.List.of(), rift.ports());
    }

    @RiftTest(transport = "spawn")
    @org.junit.jupiter.api.Nested
    class Spawned {
        @Test
        void annotationChoosesTheTransport(RiftClient rift) {
            assertEquals("spawn", rift.transport());
        }
    }
}
