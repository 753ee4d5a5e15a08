package dev.rift.internal;

import dev.rift.HttpResult;
import java.util.Map;

/** A carrier of admin calls and imposter traffic: embedded (librift), spawned or connected. */
public interface Transport extends AutoCloseable {
    /** "embedded", "spawn" or "connect". */
    String name();

    /** One admin API call; target is path and query. */
    HttpResult admin(String method, String target, Map<String, String> headers, byte[] body);

    /** One request to the imposter on port (the gateway in process, a socket otherwise). */
    HttpResult imposter(int port, String method, String path, Map<String, String> headers, byte[] body);

    /** The admin API's base URL, or null when it has none yet. */
    String adminUrl();

    @Override
    void close();
}
