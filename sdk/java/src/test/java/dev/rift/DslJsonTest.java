package dev.rift;

import static dev.rift.Rift.*;
import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rift.internal.Json;
import org.junit.jupiter.api.Test;

/** The Mountebank JSON the DSL writes. */
class DslJsonTest {
    static void assertJson(String expected, Object actual) {
        JsonNode want = Json.parse(expected), got = Json.parse(actual.toString());
        assertEquals(want, got, "got " + got);
    }

    @Test
    void imposterWithARequestPatternStub() {
        assertJson("""
            {"protocol":"http","name":"users","port":4545,"recordRequests":true,"stubs":[
              {"predicates":[{"equals":{"method":"GET","path":"/users/1","query":{"a":"1"},"headers":{"X":"y"}}}],
               "responses":[{"is":{"statusCode":200,"headers":{"Content-Type":"application/json"},"body":"{\\"id\\":1}"}}]}]}
            """, imposter("users").port(4545).record()
            .stub(onGet("/users/1").withQuery("a", "1").withHeader("X", "y").willReturn(okJson("{\"id\":1}"))));
    }

    @Test
    void everyPredicateOperatorAndOption() {
        assertJson("{\"deepEquals\":{\"query\":{\"q\":\"1\"}}}", Predicate.deepEquals().query("q", "1"));
        assertJson("{\"contains\":{\"body\":\"x\"},\"caseSensitive\":true}", Predicate.contains().body("x").caseSensitive(true));
        assertJson("{\"startsWith\":{\"path\":\"/a\"}}", Predicate.startsWith().path("/a"));
        assertJson("{\"endsWith\":{\"path\":\"z\"},\"except\":\"^x\"}", Predicate.endsWith().path("z").except("^x"));
        assertJson("{\"matches\":{\"path\":\"^/\\\\d+$\"}}", Predicate.matches().path("^/\\d+$"));
        assertJson("{\"exists\":{\"headers\":{\"X-Token\":true}}}", Predicate.exists().header("X-Token", true));
        assertJson("{\"equals\":{\"body\":{\"a\":1}},\"jsonpath\":{\"selector\":\"$.a\"}}",
                   Predicate.equalTo().jsonBody("{\"a\":1}").jsonpath("$.a"));
        assertJson("{\"equals\":{\"body\":\"v\"},\"xpath\":{\"selector\":\"//a\"}}", Predicate.equalTo().body("v").xpath("//a"));
        assertJson("{\"not\":{\"equals\":{\"path\":\"/\"}}}", Predicate.not(Predicate.equalTo().path("/")));
        assertJson("{\"or\":[{\"equals\":{\"path\":\"/a\"}},{\"equals\":{\"path\":\"/b\"}}]}",
                   Predicate.or(Predicate.equalTo().path("/a"), Predicate.equalTo().path("/b")));
        assertJson("{\"and\":[{\"equals\":{\"method\":\"GET\"}}]}", Predicate.and(Predicate.equalTo().method("GET")));
        assertThrows(IllegalStateException.class, () -> Predicate.not(Predicate.equalTo()).path("/"));
    }

    @Test
    void responsesAndBehaviors() {
        assertJson("{\"proxy\":{\"to\":\"http://x\",\"mode\":\"proxyAlways\",\"predicateGenerators\":[{\"matches\":{\"path\":true}}]}}",
                   Response.proxy("http://x", "proxyAlways").predicateGenerators("[{\"matches\":{\"path\":true}}]"));
        assertJson("{\"inject\":\"function(){}\"}", inject("function(){}"));
        assertJson("""
            {"is":{"statusCode":201,"body":"b"},"_behaviors":{"wait":5,"repeat":2,"decorate":"f",
             "copy":[{"from":"path","into":"${id}","using":{"method":"regex","selector":"\\\\d+"}}],
             "lookup":[{"key":{"from":"path"},"into":"${row}"}]}}
            """, status(201).body("b").waitMs(5).repeat(2).decorate("f").copyRegex("path", "${id}", "\\d+")
                             .lookup("{\"key\":{\"from\":\"path\"},\"into\":\"${row}\"}"));
        assertThrows(IllegalStateException.class, () -> proxy("http://x").body("no"));
        assertThrows(IllegalArgumentException.class, () -> okJson("{not json"));
    }

    @Test
    void requestPatternMatchesJournalEntries() {
        JsonNode entry = Json.parse("{\"method\":\"POST\",\"path\":\"/o\",\"query\":{\"a\":[\"1\",\"2\"]},"
                                    + "\"headers\":{\"Content-Type\":\"text/plain\"},\"body\":\"hi\"}");
        assertTrue(onPost("/o").matches(entry));
        assertTrue(onPost("/o").withQuery("a", "2").withHeader("content-type", "text/plain").withBody("hi").matches(entry));
        assertFalse(onGet("/o").matches(entry));
        assertFalse(onPost("/p").matches(entry));
        assertFalse(onPost("/o").withQuery("a", "3").matches(entry));
        assertFalse(onPost("/o").withHeader("Content-Type", "json").matches(entry));
        assertFalse(onPost("/o").withBody("ho").matches(entry));
    }
}
