package dev.rift;

import static dev.rift.Rift.*;
import static org.junit.jupiter.api.Assertions.*;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** spawn and connect carry the same client interface. */
class TransportsTest {
    static void exercise(RiftClient rift, int port) {
        rift.create(imposter("users").port(port).record()
            .stub(onGet("/users/1").willReturn(okJson("{\"id\": 1}"))));
        HttpResult r = rift.get(port, "/users/1");
        assertEquals(200, r.status());
        assertEquals("{\"id\": 1}", r.bodyText());
        rift.verify(port, onGet("/users/1"), times(1));
        assertThrows(VerificationError.class, () -> rift.verify(port, onGet("/users/1"), never()));
        rift.deleteAll();
        assertEquals(java.util.List.of(), rift.ports());
    }

    @Test
    void spawnStartsAndStopsItsServer() throws Exception {
        RiftClient rift = Rift.spawn();
        assertEquals("spawn", rift.transport());
        exercise(rift, 24570);
        long pid = ((dev.rift.internal.SpawnTransport) field(rift)).pid();
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        assertTrue(h.isPresent() && h.get().isAlive());
        rift.close();
        rift.close();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "rift still running after close");
    }

    @Test
    void connectToARunningServer() throws Exception {
        try (TestServer server = TestServer.start(); RiftClient rift = Rift.connect(server.url())) {
            assertEquals("connect", rift.transport());
            assertEquals(server.url(), rift.adminUrl());
            exercise(rift, 24571);
        }
    }

    @Test
    void spawnWithABadBinaryFailsClearly() {
        System.setProperty("rift.bin", "/nonexistent/rift");
        try {
            RiftException e = assertThrows(RiftException.class, Rift::spawn);
            assertTrue(e.getMessage().contains("/nonexistent/rift"), e.getMessage());
        } finally {
            System.clearProperty("rift.bin");
        }
    }

    static Object field(RiftClient c) throws Exception {
        var f = c.getClass().getDeclaredField("transport");
        f.setAccessible(true);
        return f.get(c);
    }
}
