package dev.rift;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;
import java.util.ArrayList;
import java.util.List;

/** One stub: predicates and the responses it cycles through. */
public final class Stub {
    private final List<Predicate> predicates;
    private final List<Response> responses;

    Stub(List<Predicate> predicates, List<Response> responses) {
        this.predicates = new ArrayList<>(predicates);
        this.responses = new ArrayList<>(responses);
    }

    /** A stub from predicates (all must hold); responses follow with willReturn. */
    public static Builder when(Predicate... predicates) {
        return new Builder(List.of(predicates));
    }

    public static final class Builder {
        private final List<Predicate> predicates;
        Builder(List<Predicate> predicates) { this.predicates = predicates; }
        public Stub willReturn(Response... responses) { return new Stub(predicates, List.of(responses)); }
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        var ps = n.putArray("predicates");
        predicates.forEach(p -> ps.add(p.toJson()));
        var rs = n.putArray("responses");
        responses.forEach(r -> rs.add(r.toJson()));
        return n;
    }

    @Override
    public String toString() { return toJson().toString(); }
}
