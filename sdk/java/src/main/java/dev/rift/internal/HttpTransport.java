package dev.rift.internal;

import dev.rift.HttpResult;
import dev.rift.RiftException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Plain HTTP/1.1 to a running rift: the admin API at a base URL, imposters on 127.0.0.1:port. */
public class HttpTransport implements Transport {
    private final String name;
    private final URI base;
    private final String impostersHost;
    private final HttpClient http;

    public HttpTransport(String name, String baseUrl) {
        this.name = name;
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
        this.impostersHost = base.getHost() == null ? "127.0.0.1" : base.getHost();
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                              .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String adminUrl() {
        return base.toString();
    }

    @Override
    public HttpResult admin(String method, String target, Map<String, String> headers, byte[] body) {
        return send(URI.create(base + target), method, headers, body);
    }

    @Override
    public HttpResult imposter(int port, String method, String path, Map<String, String> headers, byte[] body) {
        String scheme = "http";
        return send(URI.create(scheme + "://" + impostersHost + ":" + port + (path.startsWith("/") ? path : "/" + path)),
                    method, headers, body);
    }

    HttpResult send(URI uri, String method, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
        b.method(method, body == null || body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                                                          : HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers != null) headers.forEach(b::header);
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            List<Map.Entry<String, String>> hs = new ArrayList<>();
            r.headers().map().forEach((k, vs) -> vs.forEach(v -> hs.add(Map.entry(k, v))));
            return new HttpResult(r.statusCode(), hs, r.body());
        } catch (IOException e) {
            throw new RiftException(method + " " + uri + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RiftException(method + " " + uri + " interrupted", e);
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
