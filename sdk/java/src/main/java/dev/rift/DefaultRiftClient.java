package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rift.internal.EmbeddedTransport;
import dev.rift.internal.Json;
import dev.rift.internal.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

final class DefaultRiftClient implements RiftClient {
    private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");
    private final Transport transport;

    DefaultRiftClient(Transport transport) {
        this.transport = transport;
    }

    @Override public String transport() { return transport.name(); }
    @Override public String adminUrl() { return transport.adminUrl(); }

    @Override
    public String serveAdmin() {
        if (transport instanceof EmbeddedTransport e) return e.adminUrl() != null ? e.adminUrl() : e.serveAdmin(null);
        return transport.adminUrl();
    }

    private HttpResult expect(HttpResult r, String what, int... ok) {
        for (int s : ok) if (r.status() == s) return r;
        throw new RiftException(what + " answered " + r.status() + ": " + r.bodyText(), null);
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int create(Imposter imposter) {
        return createJson(imposter.toString());
    }

    @Override
    public int createJson(String imposterJson) {
        HttpResult r = expect(request("POST", "/imposters", JSON, utf8(imposterJson)), "POST /imposters", 201, 200);
        return r.json().path("port").asInt();
    }

    @Override
    public void replaceAll(String impostersJson) {
        expect(request("PUT", "/imposters", JSON, utf8(impostersJson)), "PUT /imposters", 200);
    }

    @Override
    public void addStub(int port, Stub stub) {
        addStub(port, -1, stub);
    }

    @Override
    public void addStub(int port, int index, Stub stub) {
        var body = Json.object();
        if (index >= 0) body.put("index", index);
        body.set("stub", stub.toJson());
        expect(request("POST", "/imposters/" + port + "/stubs", JSON, utf8(body.toString())),
               "POST /imposters/" + port + "/stubs", 200, 201);
    }

    @Override
    public void delete(int port) {
        expect(request("DELETE", "/imposters/" + port, null), "DELETE /imposters/" + port, 200);
    }

    @Override
    public void deleteAll() {
        expect(request("DELETE", "/imposters", null), "DELETE /imposters", 200);
    }

    @Override
    public List<Integer> ports() {
        JsonNode all = expect(request("GET", "/imposters", null), "GET /imposters", 200).json().path("imposters");
        List<Integer> out = new ArrayList<>();
        for (JsonNode i : all) out.add(i.path("port").asInt());
        return out;
    }

    @Override
    public JsonNode imposter(int port) {
        return expect(request("GET", "/imposters/" + port, null), "GET /imposters/" + port, 200).json();
    }

    @Override
    public List<JsonNode> requests(int port) {
        List<JsonNode> out = new ArrayList<>();
        imposter(port).path("requests").forEach(out::add);
        return out;
    }

    @Override
    public int count(int port, RequestPattern request) {
        int n = 0;
        for (JsonNode r : requests(port)) if (request.matches(r)) n++;
        return n;
    }

    @Override
    public void verify(int port, RequestPattern request, Times times) {
        JsonNode imp = imposter(port);
        int n = 0;
        for (JsonNode r : imp.path("requests")) if (request.matches(r)) n++;
        if (!times.test(n)) {
            String hint = imp.path("recordRequests").asBoolean(false) ? "" : " (the imposter does not record requests: use .record())";
            throw new VerificationError("expected " + times + " request(s) matching " + request + " on port " + port
                                        + ", found " + n + hint + "; journal: " + imp.path("requests"), n);
        }
    }

    @Override
    public HttpResult request(String method, String path, String body) {
        return request(method, path, body == null ? null : JSON, utf8(body));
    }

    @Override
    public HttpResult request(String method, String path, Map<String, String> headers, byte[] body) {
        return transport.admin(method, path, headers, body);
    }

    @Override
    public HttpResult call(int port, String method, String path, Map<String, String> headers, byte[] body) {
        return transport.imposter(port, method, path, headers, body);
    }

    @Override
    public void close() {
        transport.close();
    }

    @Override
    public String toString() {
        return "RiftClient[" + transport.name() + "]";
    }
}
