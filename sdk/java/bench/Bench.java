import static dev.rift.Rift.*;

import dev.rift.HttpResult;
import dev.rift.Rift;
import dev.rift.RiftClient;
import java.util.Map;

/**
 * One stubbed GET returning a small JSON body: through the embedded gateway (rift_request) vs
 * over loopback HTTP (java.net.http, HTTP/1.1 keep-alive) to a spawned rift.
 * Usage: bench/run.sh [iterations] [warmup]
 */
public class Bench {
    static double run(RiftClient rift, int port, int warmup, int n) {
        for (int i = 0; i < warmup; i++) check(rift.call(port, "GET", "/users/1", Map.of(), null));
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) check(rift.call(port, "GET", "/users/1", Map.of(), null));
        return (System.nanoTime() - t0) / 1000.0 / n;
    }

    static void check(HttpResult r) {
        if (r.status() != 200 || r.body().length == 0) throw new AssertionError(r.toString());
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        String json = "{\"id\": 1, \"name\": \"Ada\", \"tier\": \"gold\"}";
        try (RiftClient embedded = Rift.embedded("{}"); RiftClient spawned = Rift.spawn()) {
            embedded.create(imposter().port(24595).stub(onGet("/users/1").willReturn(okJson(json))));
            spawned.create(imposter().port(24596).stub(onGet("/users/1").willReturn(okJson(json))));
            double e = run(embedded, 24595, warmup, n);
            double s = run(spawned, 24596, warmup, n);
            System.out.printf("java bench: %d calls after %d warm-up%n", n, warmup);
            System.out.printf("  embedded gateway (rift_request):   %8.1f us/call%n", e);
            System.out.printf("  spawned rift over loopback HTTP:   %8.1f us/call%n", s);
        }
    }
}
