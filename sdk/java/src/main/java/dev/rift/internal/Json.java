package dev.rift.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The SDK's one ObjectMapper and a few helpers. */
public final class Json {
    private Json() {}

    public static final ObjectMapper MAPPER = new ObjectMapper()
        .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Parses, or answers null when the text is not one JSON value. */
    public static JsonNode tryParse(String text) {
        try {
            JsonNode n = MAPPER.readTree(text);
            return n == null || n.isMissingNode() ? null : n;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The text with the whitespace between tokens removed (strings kept byte for byte), or null
     * when it is not one JSON value.
     */
    public static String compact(String text) {
        if (text == null || tryParse(text) == null) return null;
        StringBuilder out = new StringBuilder(text.length());
        boolean inString = false, escaped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                out.append(c);
                if (escaped) escaped = false;
                else if (c == '\\') escaped = true;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
                out.append(c);
            } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                out.append(c);
            }
        }
        return out.toString();
    }
}
