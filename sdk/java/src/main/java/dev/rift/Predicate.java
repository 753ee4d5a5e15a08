package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;

/**
 * One Mountebank predicate: an operator (equals, deepEquals, contains, startsWith, endsWith,
 * matches, exists) over request fields, or not/or/and over other predicates, with the
 * caseSensitive, except, jsonpath and xpath options.
 * <pre>Predicate.contains().path("/users").header("Accept", "json").caseSensitive(true)</pre>
 */
public final class Predicate {
    private final ObjectNode node = Json.object();
    private final ObjectNode fields;

    private Predicate(String operator) {
        this.fields = node.putObject(operator);
    }

    private Predicate(String operator, Predicate... inner) {
        this.fields = null;
        if (operator.equals("not")) {
            node.set("not", inner[0].toJson());
        } else {
            ArrayNode a = node.putArray(operator);
            for (Predicate p : inner) a.add(p.toJson());
        }
    }

    public static Predicate equalTo() { return new Predicate("equals"); }
    public static Predicate deepEquals() { return new Predicate("deepEquals"); }
    public static Predicate contains() { return new Predicate("contains"); }
    public static Predicate startsWith() { return new Predicate("startsWith"); }
    public static Predicate endsWith() { return new Predicate("endsWith"); }
    public static Predicate matches() { return new Predicate("matches"); }
    /** exists: give fields with true/false, e.g. exists().header("X-Token", true). */
    public static Predicate exists() { return new Predicate("exists"); }
    public static Predicate not(Predicate p) { return new Predicate("not", p); }
    public static Predicate or(Predicate... ps) { return new Predicate("or", ps); }
    public static Predicate and(Predicate... ps) { return new Predicate("and", ps); }

    private ObjectNode fields() {
        if (fields == null) throw new IllegalStateException("not/or/and take predicates, not fields");
        return fields;
    }

    public Predicate method(String method) { fields().put("method", method); return this; }
    public Predicate path(String path) { fields().put("path", path); return this; }
    public Predicate path(boolean exists) { fields().put("path", exists); return this; }

    public Predicate query(String name, Object value) {
        fields().withObject("query").set(name, Json.MAPPER.valueToTree(value));
        return this;
    }

    public Predicate header(String name, Object value) {
        fields().withObject("headers").set(name, Json.MAPPER.valueToTree(value));
        return this;
    }

    /** A body as a string (or true/false for exists). */
    public Predicate body(Object body) {
        fields().set("body", Json.MAPPER.valueToTree(body));
        return this;
    }

    /** A body given as JSON text, compared as a JSON value (objects match field by field). */
    public Predicate jsonBody(String json) {
        fields().set("body", Json.parse(json));
        return this;
    }

    /** Any other field (requestFrom, ip, form, data...) as a JSON-able value. */
    public Predicate field(String name, Object value) {
        fields().set(name, Json.MAPPER.valueToTree(value));
        return this;
    }

    public Predicate caseSensitive(boolean on) { node.put("caseSensitive", on); return this; }
    public Predicate except(String regex) { node.put("except", regex); return this; }

    public Predicate jsonpath(String selector) {
        node.putObject("jsonpath").put("selector", selector);
        return this;
    }

    public Predicate xpath(String selector) {
        node.putObject("xpath").put("selector", selector);
        return this;
    }

    public ObjectNode toJson() {
        return node.deepCopy();
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
