package dev.rift;

import static dev.rift.Rift.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EmbeddedTest {
    static RiftClient rift;

    @BeforeAll
    static void open() {
        rift = Rift.embedded();
    }

    @AfterAll
    static void close() {
        rift.close();
    }

    @AfterEach
    void clean() {
        rift.deleteAll();
    }

    @Test
    void stubCallAndVerify() {
        int port = rift.create(imposter("users").port(24545).record()
            .stub(onGet("/users/1").willReturn(okJson("{\"id\": 1, \"name\": \"Ada\"}"))));
        assertEquals(24545, port);
        HttpResult r = rift.get(port, "/users/1");
        assertEquals(200, r.status());
        assertEquals("{\"id\": 1, \"name\": \"Ada\"}", r.bodyText());
        assertEquals("application/json", r.header("content-type"));
        HttpResult miss = rift.get(port, "/users/2"); // Mountebank's default response: 200, empty
        assertEquals(200, miss.status());
        assertEquals("", miss.bodyText());
        rift.verify(port, onGet("/users/1"), times(1));
        rift.verify(port, onPost("/users/1"), never());
        VerificationError e = assertThrows(VerificationError.class, () -> rift.verify(port, onGet("/users/1"), times(2)));
        assertEquals(1, e.count());
    }

    @Test
    void verifyMatchesQueryHeadersAndBody() {
        int port = rift.create(imposter().port(24546).record()
            .stub(onPost("/orders").withQuery("dry", "1").withHeader("X-Tenant", "a").willReturn(status(201))));
        HttpResult r = rift.call(port, "POST", "/orders?dry=1", Map.of("X-Tenant", "a"), "{\"n\":1}".getBytes(StandardCharsets.UTF_8));
        assertEquals(201, r.status());
        assertEquals(200, rift.call(port, "POST", "/orders?dry=2", Map.of("X-Tenant", "a"), null).status());
        rift.verify(port, onPost("/orders").withQuery("dry", "1").withHeader("x-tenant", "a"), once());
        rift.verify(port, onPost("/orders").withBody("{\"n\": 1}"), once()); // JSON-equal
        rift.verify(port, onPost("/orders").withHeader("X-Tenant", "b"), never());
        rift.verify(port, onPost("/orders"), times(2));
        assertThrows(VerificationError.class, () -> rift.verify(port, onPost("/orders").withQuery("dry", "3"), atLeast(1)));
    }

    @Test
    void verifyWithoutRecordingExplains() {
        int port = rift.create(imposter().port(24547).stub(onGet("/").willReturn(ok())));
        rift.get(port, "/");
        VerificationError e = assertThrows(VerificationError.class, () -> rift.verify(port, onGet("/"), once()));
        assertTrue(e.getMessage().contains("record()"), e.getMessage());
    }

    @Test
    void predicatesResponsesAndBehaviors() {
        int port = rift.create(imposter().port(24548)
            .stub(when(Predicate.startsWith().path("/cycle")).willReturn(status(500).body("first"),
                                                                          status(200).body("second").repeat(2)))
            .stub(when(Predicate.or(Predicate.equalTo().path("/a"), Predicate.equalTo().path("/b")),
                       Predicate.not(Predicate.exists().header("X-No", true)))
                      .willReturn(ok().body("a or b")))
            .stub(when(Predicate.matches().path("^/n/\\d+$")).willReturn(inject(
                "function (config) { return { statusCode: 200, body: 'injected ' + config.request.path }; }")))
            .stub(when(Predicate.equalTo().path("/deco")).willReturn(ok().body("x")
                .decorate("function (config) { config.response.body = 'decorated'; }")))
            .stub(when(Predicate.equalTo().path("/echo")).willReturn(ok().body("id=${id}")
                .copyRegex("path", "${id}", "\\d+$")))
            .defaultResponse(status(418).body("nope")));
        assertEquals("first", rift.get(port, "/cycle").bodyText());
        assertEquals("second", rift.get(port, "/cycle").bodyText());
        assertEquals("second", rift.get(port, "/cycle").bodyText());
        assertEquals("first", rift.get(port, "/cycle").bodyText());
        assertEquals("a or b", rift.get(port, "/b").bodyText());
        assertEquals(418, rift.call(port, "GET", "/b", Map.of("X-No", "1"), null).status());
        assertEquals("injected /n/7", rift.get(port, "/n/7").bodyText());
        assertEquals("decorated", rift.get(port, "/deco").bodyText());
        assertEquals(418, rift.get(port, "/zzz").status());
    }

    @Test
    void rawJsonAndRequestEscapeHatch() {
        int port = rift.createJson("{\"port\": 24549, \"protocol\": \"http\", \"stubs\": [{\"responses\": [{\"is\": {\"body\": \"raw\"}}]}]}");
        assertEquals(24549, port);
        assertEquals("raw", rift.get(port, "/anything").bodyText());
        HttpResult list = rift.request("GET", "/imposters", null);
        assertEquals(200, list.status());
        assertEquals(24549, list.json().path("imposters").get(0).path("port").asInt());
        HttpResult bad = rift.request("POST", "/imposters", "{\"protocol\": \"gopher\"}");
        assertEquals(400, bad.status());
        assertTrue(bad.bodyText().contains("errors"), bad.bodyText());
        rift.addStub(port, onGet("/last").willReturn(ok().body("never reached")));
        assertEquals("raw", rift.get(port, "/last").bodyText());
        rift.addStub(port, 0, onGet("/added").willReturn(ok().body("added")));
        assertEquals("added", rift.get(port, "/added").bodyText());
        assertTrue(rift.ports().contains(port));
        rift.delete(port);
        assertFalse(rift.ports().contains(port));
    }

    @Test
    void binaryBodiesKeepTheirNuls() {
        int port = rift.create(imposter().port(24550)
            .stub(onGet("/bin").willReturn(ok().binaryBody("AAEAAgA="))));
        byte[] body = rift.get(port, "/bin").body();
        assertArrayEquals(new byte[] {0, 1, 0, 2, 0}, body);
    }

    @Test
    void engineErrorsCarryCodeNameAndMessage() {
        RiftException e = assertThrows(RiftException.class, () -> Rift.embedded("{\"nosuchoption\": 1}"));
        assertEquals(-1, e.code());
        assertEquals("RIFT_ERR_ARGUMENT", e.name());
        assertTrue(e.getMessage().contains("nosuchoption"), e.getMessage());
        RiftException jit = assertThrows(RiftException.class, () -> Rift.embedded("{\"tier\": \"jit\"}"));
        assertEquals("RIFT_ERR_UNSUPPORTED", jit.name());
    }

    @Test
    void closeIsIdempotentAndLaterCallsFailClearly() {
        RiftClient other = Rift.embedded("{}");
        other.ports();
        other.close();
        other.close();
        RiftException e = assertThrows(RiftException.class, other::ports);
        assertEquals("RIFT_ERR_STATE", e.name());
    }

    @Test
    void serveAdminGivesAnHttpAdminApi() {
        try (RiftClient own = Rift.embedded("{}")) {
            String url = own.serveAdmin();
            assertTrue(url.startsWith("http://127.0.0.1:"), url);
            own.create(imposter().port(24551).stub(onGet("/").willReturn(ok().body("via http admin"))));
            try (RiftClient viaHttp = Rift.connect(url)) {
                assertEquals(java.util.List.of(24551), viaHttp.ports());
                assertEquals("via http admin", viaHttp.get(24551, "/").bodyText());
            }
            assertEquals(url, own.serveAdmin());
        }
    }
}
