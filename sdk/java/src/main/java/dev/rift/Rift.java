package dev.rift;

import dev.rift.internal.EmbeddedTransport;
import dev.rift.internal.HttpTransport;
import dev.rift.internal.NativeLib;
import dev.rift.internal.SpawnTransport;
import java.util.List;

/**
 * Entry points: the three transports and the stub DSL ({@code import static dev.rift.Rift.*}).
 * <pre>
 * try (RiftClient rift = Rift.embedded()) {
 *     rift.create(imposter("users").port(4545).record().stub(onGet("/users/1").willReturn(okJson("{}"))));
 * }
 * </pre>
 */
public final class Rift {
    private Rift() {}

    /** The default engine options: injection allowed (tests are trusted code). */
    public static final String DEFAULT_OPTIONS = "{\"allowInjection\": true}";

    /** The engine in process, through librift (RIFT_LIB or the jar's native resource). */
    public static RiftClient embedded() {
        return embedded(DEFAULT_OPTIONS);
    }

    /** The engine in process with librift's options JSON, e.g. {"allowInjection": true, "threads": 2}. */
    public static RiftClient embedded(String optionsJson) {
        return new DefaultRiftClient(new EmbeddedTransport(optionsJson));
    }

    /** A rift binary (RIFT_BIN, then PATH) started on a free loopback port, stopped on close. */
    public static RiftClient spawn() {
        return new DefaultRiftClient(SpawnTransport.start(List.of()));
    }

    public static RiftClient spawn(List<String> extraArgs) {
        return new DefaultRiftClient(SpawnTransport.start(extraArgs));
    }

    /** A running rift (or Mountebank) at its admin base URL, e.g. http://127.0.0.1:2525. */
    public static RiftClient connect(String baseUrl) {
        return new DefaultRiftClient(new HttpTransport("connect", baseUrl));
    }

    /** By name: "embedded", "spawn", or "connect:" + URL. */
    public static RiftClient open(String transport) {
        if (transport.equals("embedded")) return embedded();
        if (transport.equals("spawn")) return spawn();
        if (transport.startsWith("connect:")) return connect(transport.substring("connect:".length()));
        throw new IllegalArgumentException("unknown transport " + transport + " (embedded, spawn, connect:URL)");
    }

    /** librift's rift_build_info JSON. */
    public static String buildInfo() {
        return NativeLib.get().buildInfo();
    }

    // --- DSL ---

    public static Imposter imposter() { return new Imposter(null); }
    public static Imposter imposter(String name) { return new Imposter(name); }

    public static RequestPattern onGet(String path) { return new RequestPattern("GET", path); }
    public static RequestPattern onPost(String path) { return new RequestPattern("POST", path); }
    public static RequestPattern onPut(String path) { return new RequestPattern("PUT", path); }
    public static RequestPattern onDelete(String path) { return new RequestPattern("DELETE", path); }
    public static RequestPattern onPatch(String path) { return new RequestPattern("PATCH", path); }
    public static RequestPattern onRequest(String method, String path) { return new RequestPattern(method, path); }
    /** Any method, any path: narrow it with and(...). */
    public static RequestPattern onAny() { return new RequestPattern(null, null); }

    public static Stub.Builder when(Predicate... predicates) { return Stub.when(predicates); }

    public static Response ok() { return Response.ok(); }
    public static Response okJson(String json) { return Response.okJson(json); }
    public static Response status(int code) { return Response.status(code); }
    public static Response notFound() { return Response.status(404); }
    public static Response proxy(String to) { return Response.proxy(to); }
    public static Response inject(String js) { return Response.inject(js); }

    public static Times times(int n) { return Times.times(n); }
    public static Times never() { return Times.never(); }
    public static Times once() { return Times.once(); }
    public static Times atLeast(int n) { return Times.atLeast(n); }
}
