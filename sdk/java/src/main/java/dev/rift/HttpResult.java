package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rift.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** One HTTP answer: status, headers as [name, value] pairs (repeats kept), body bytes. */
public record HttpResult(int status, List<Map.Entry<String, String>> headers, byte[] body) {
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    public JsonNode json() {
        return Json.parse(bodyText());
    }

    /** The first value of a header, case-insensitively, or null. */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers)
            if (h.getKey().equalsIgnoreCase(name)) return h.getValue();
        return null;
    }

    @Override
    public String toString() {
        return "HttpResult[" + status + ", " + bodyText() + "]";
    }
}
