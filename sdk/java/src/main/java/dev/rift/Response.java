package dev.rift;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;

/**
 * One Mountebank response: is (status, headers, body), proxy or inject, with the behaviors
 * wait, repeat, copy, lookup, decorate and shellTransform.
 * <pre>Response.status(200).header("X-Id", "1").body("hi").waitMs(50).repeat(2)</pre>
 */
public final class Response {
    private final ObjectNode node = Json.object();
    private final ObjectNode is;

    private Response(String kind) {
        this.is = kind.equals("is") ? node.putObject("is") : null;
    }

    public static Response status(int code) {
        Response r = new Response("is");
        r.is.put("statusCode", code);
        return r;
    }

    public static Response ok() { return status(200); }

    /** 200 with Content-Type application/json and the text as the body, as given. */
    public static Response okJson(String json) {
        Json.parse(json); // refuse what is not JSON early
        return ok().header("Content-Type", "application/json").body(json);
    }

    /** A proxy response: mode "proxyOnce" (default), "proxyAlways" or "proxyTransparent". */
    public static Response proxy(String to) { return proxy(to, "proxyOnce"); }

    public static Response proxy(String to, String mode) {
        Response r = new Response("proxy");
        r.node.putObject("proxy").put("to", to).put("mode", mode);
        return r;
    }

    /** An inject response: a JavaScript function (needs allowInjection). */
    public static Response inject(String js) {
        Response r = new Response("inject");
        r.node.put("inject", js);
        return r;
    }

    private ObjectNode is() {
        if (is == null) throw new IllegalStateException("headers and body belong to an `is` response");
        return is;
    }

    public Response header(String name, String value) { is().withObject("headers").put(name, value); return this; }
    public Response body(String body) { is().put("body", body); return this; }
    /** A body given as JSON text and sent as a JSON value (Mountebank indents it). */
    public Response jsonBody(String json) { is().set("body", Json.parse(json)); return this; }
    public Response binaryBody(String base64) { is().put("body", base64); is().put("_mode", "binary"); return this; }

    /** Adds predicateGenerators to a proxy, as JSON text: [{"matches": {"path": true}}]. */
    public Response predicateGenerators(String json) {
        node.withObject("proxy").set("predicateGenerators", Json.parse(json));
        return this;
    }

    private ObjectNode behaviors() { return node.withObject("_behaviors"); }

    public Response waitMs(int ms) { behaviors().put("wait", ms); return this; }
    /** wait as a JavaScript function answering milliseconds. */
    public Response waitJs(String js) { behaviors().put("wait", js); return this; }
    public Response repeat(int times) { behaviors().put("repeat", times); return this; }
    public Response decorate(String js) { behaviors().put("decorate", js); return this; }
    public Response shellTransform(String command) { behaviors().put("shellTransform", command); return this; }

    /** copy: one entry {"from", "into", "using"} as JSON text, or an array of them. */
    public Response copy(String json) { return addBehaviorList("copy", json); }

    /** copy from a request field (e.g. "path", or {"query": "q"} as JSON) by regex into a token. */
    public Response copyRegex(String from, String into, String selector) {
        ObjectNode c = Json.object();
        c.set("from", from.startsWith("{") ? Json.parse(from) : Json.MAPPER.valueToTree(from));
        c.put("into", into);
        c.putObject("using").put("method", "regex").put("selector", selector);
        behaviors().withArray("copy").add(c);
        return this;
    }

    /** lookup: one entry as JSON text, or an array of them. */
    public Response lookup(String json) { return addBehaviorList("lookup", json); }

    private Response addBehaviorList(String name, String json) {
        var v = Json.parse(json);
        var arr = behaviors().withArray(name);
        if (v.isArray()) v.forEach(arr::add);
        else arr.add(v);
        return this;
    }

    public ObjectNode toJson() { return node.deepCopy(); }

    @Override
    public String toString() { return node.toString(); }
}
