package dev.rift;

import dev.rift.internal.SpawnTransport;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A rift started with a plain subprocess, for the connect transport's tests. */
final class TestServer implements AutoCloseable {
    private final Process process;
    private final String url;

    private TestServer(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    static TestServer start() throws Exception {
        int port = SpawnTransport.freePort();
        Path dir = Files.createTempDirectory("rift-connect-");
        Process p = new ProcessBuilder(SpawnTransport.locateBinary().toString(), "start", "--port", String.valueOf(port),
                                       "--host", "127.0.0.1", "--allowInjection", "--nologfile",
                                       "--pidfile", dir.resolve("rift.pid").toString())
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        String url = "http://127.0.0.1:" + port;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            if (!p.isAlive()) throw new IllegalStateException("rift exited: " + Files.readString(dir.resolve("out.log")));
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create(url + "/").toURL().openConnection();
                c.setConnectTimeout(500);
                if (c.getResponseCode() == 200) break;
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("rift did not answer at " + url);
            }
            p.waitFor(20, TimeUnit.MILLISECONDS);
        }
        return new TestServer(p, url);
    }

    String url() {
        return url;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
