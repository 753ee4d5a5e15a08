package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One Rift, whichever the transport: the admin API (imposters, journal, raw calls) and the
 * imposters' traffic. Close it to stop an embedded engine or a spawned server (idempotent).
 */
public interface RiftClient extends AutoCloseable {
    /** "embedded", "spawn" or "connect". */
    String transport();

    /** The admin API's base URL; for embedded, null until {@link #serveAdmin()}. */
    String adminUrl();

    /** Binds the admin API over HTTP (embedded only; spawn and connect have it already). */
    String serveAdmin();

    /** Creates the imposter (POST /imposters); answers its port. */
    int create(Imposter imposter);

    /** Creates an imposter from Mountebank JSON text; answers its port. */
    int createJson(String imposterJson);

    /** Replaces every imposter (PUT /imposters) with a {"imposters": [...]} document. */
    void replaceAll(String impostersJson);

    /** Adds a stub to a running imposter (POST /imposters/:port/stubs). */
    void addStub(int port, Stub stub);

    /** Inserts a stub at index (POST /imposters/:port/stubs with "index"). */
    void addStub(int port, int index, Stub stub);

    void delete(int port);

    void deleteAll();

    /** The ports of the imposters there are now. */
    List<Integer> ports();

    /** GET /imposters/:port as JSON. */
    JsonNode imposter(int port);

    /** The imposter's journal (needs recordRequests: {@link Imposter#record()}). */
    List<JsonNode> requests(int port);

    /** Throws a {@link VerificationError} unless the journal holds the request as often as times says. */
    void verify(int port, RequestPattern request, Times times);

    /** How many journal entries match the request. */
    int count(int port, RequestPattern request);

    /** A raw admin API call: path may carry a query; body may be null. */
    HttpResult request(String method, String path, String body);

    HttpResult request(String method, String path, Map<String, String> headers, byte[] body);

    /** A call to the imposter on port (through the gateway when embedded, over a socket otherwise). */
    HttpResult call(int port, String method, String path, Map<String, String> headers, byte[] body);

    default HttpResult get(int port, String path) {
        return call(port, "GET", path, Map.of(), null);
    }

    @Override
    void close();
}
