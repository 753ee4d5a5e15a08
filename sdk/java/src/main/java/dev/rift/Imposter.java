package dev.rift;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;

/**
 * An imposter as Mountebank's JSON.
 * <pre>imposter("users").port(4545).record().stub(onGet("/users/1").willReturn(okJson("{}")))</pre>
 */
public final class Imposter {
    private final ObjectNode node = Json.object();

    Imposter(String name) {
        node.put("protocol", "http");
        if (name != null) node.put("name", name);
        node.putArray("stubs");
    }

    public Imposter port(int port) { node.put("port", port); return this; }
    /** "http" (default) or "https" (a self-signed certificate unless key/cert are given). */
    public Imposter protocol(String protocol) { node.put("protocol", protocol); return this; }
    public Imposter https() { return protocol("https"); }
    /** recordRequests: the journal verify reads. */
    public Imposter record() { node.put("recordRequests", true); return this; }
    public Imposter host(String host) { node.put("host", host); return this; }
    public Imposter stub(Stub stub) { node.withArray("stubs").add(stub.toJson()); return this; }

    public Imposter defaultResponse(Response is) {
        var r = is.toJson().path("is");
        if (r.isMissingNode()) throw new IllegalArgumentException("defaultResponse is an `is` response");
        node.set("defaultResponse", r);
        return this;
    }

    /** Any other top-level field as a JSON-able value (e.g. "allowCORS", true). */
    public Imposter field(String name, Object value) { node.set(name, Json.MAPPER.valueToTree(value)); return this; }

    public Integer port() { return node.has("port") ? node.get("port").asInt() : null; }

    public ObjectNode toJson() { return node.deepCopy(); }

    @Override
    public String toString() { return node.toString(); }
}
