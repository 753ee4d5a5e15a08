package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request as a stub matches it and as {@code verify} counts it: method, path, query,
 * headers and body (an {@code equals} predicate), plus any further predicates for the stub.
 * <pre>onGet("/users/1").withQuery("full", "true").withHeader("Accept", "application/json")</pre>
 */
public final class RequestPattern {
    private final String method;
    private final String path;
    private final Map<String, String> query = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String body;
    private final List<Predicate> extra = new ArrayList<>();

    RequestPattern(String method, String path) {
        this.method = method;
        this.path = path;
    }

    public RequestPattern withQuery(String name, String value) { query.put(name, value); return this; }
    public RequestPattern withHeader(String name, String value) { headers.put(name, value); return this; }
    public RequestPattern withBody(String body) { this.body = body; return this; }
    /** A further predicate for the stub (verify does not evaluate it). */
    public RequestPattern and(Predicate p) { extra.add(p); return this; }

    public String method() { return method; }
    public String path() { return path; }
    public Map<String, String> query() { return Collections.unmodifiableMap(query); }
    public Map<String, String> headers() { return Collections.unmodifiableMap(headers); }
    public String body() { return body; }

    public Stub willReturn(Response... responses) {
        return new Stub(predicates(), List.of(responses));
    }

    /** The predicates: one equals over the fields given, then the extra ones. */
    public List<Predicate> predicates() {
        Predicate eq = Predicate.equalTo();
        if (method != null) eq.method(method);
        if (path != null) eq.path(path);
        query.forEach(eq::query);
        headers.forEach(eq::header);
        if (body != null) eq.body(body);
        List<Predicate> out = new ArrayList<>();
        out.add(eq);
        out.addAll(extra);
        return out;
    }

    /** Whether a journal entry (GET /imposters/:port's requests[i]) is this request. */
    public boolean matches(JsonNode recorded) {
        if (method != null && !method.equalsIgnoreCase(recorded.path("method").asText())) return false;
        if (path != null && !path.equals(recorded.path("path").asText())) return false;
        JsonNode q = recorded.path("query");
        for (var e : query.entrySet()) {
            JsonNode v = q.get(e.getKey());
            if (v == null) return false;
            if (v.isArray()) {
                boolean any = false;
                for (JsonNode x : v) any |= e.getValue().equals(x.asText());
                if (!any) return false;
            } else if (!e.getValue().equals(v.asText())) return false;
        }
        JsonNode h = recorded.path("headers");
        for (var e : headers.entrySet()) {
            String got = null;
            for (var f : h.properties()) {
                if (f.getKey().equalsIgnoreCase(e.getKey())) got = f.getValue().isArray() ? f.getValue().path(0).asText() : f.getValue().asText();
            }
            if (!e.getValue().equals(got)) return false;
        }
        if (body != null) {
            String got = recorded.path("body").isTextual() ? recorded.path("body").asText() : recorded.path("body").toString();
            if (!body.equals(got)) {
                JsonNode a = Json.tryParse(body), b = Json.tryParse(got);
                if (a == null || !a.equals(b)) return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        ObjectNode n = Json.object();
        if (method != null) n.put("method", method);
        if (path != null) n.put("path", path);
        if (!query.isEmpty()) n.set("query", Json.MAPPER.valueToTree(query));
        if (!headers.isEmpty()) n.set("headers", Json.MAPPER.valueToTree(headers));
        if (body != null) n.put("body", body);
        return n.toString();
    }
}
