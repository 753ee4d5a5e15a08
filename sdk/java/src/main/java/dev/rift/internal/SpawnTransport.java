package dev.rift.internal;

import dev.rift.RiftException;
import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A rift binary started by the SDK on a free port; SIGTERM and a wait on close. */
public final class SpawnTransport extends HttpTransport {
    private final Process process;
    private final Path dir;
    private boolean closed;

    private SpawnTransport(String url, Process process, Path dir) {
        super("spawn", url);
        this.process = process;
        this.dir = dir;
    }

    /** RIFT_BIN (or the rift.bin system property), then rift on PATH. */
    public static Path locateBinary() {
        String env = System.getProperty("rift.bin", System.getenv("RIFT_BIN"));
        if (env != null && !env.isEmpty()) return Path.of(env);
        String path = System.getenv("PATH");
        if (path != null)
            for (String d : path.split(File.pathSeparator)) {
                Path p = Path.of(d, "rift");
                if (Files.isExecutable(p)) return p;
            }
        throw new RiftException("rift binary not found: set RIFT_BIN or put rift on PATH", null);
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new RiftException("no free port", e);
        }
    }

    public static SpawnTransport start(List<String> extraArgs) {
        Path bin = locateBinary();
        int port = freePort();
        try {
            Path dir = Files.createTempDirectory("rift-spawn-");
            List<String> cmd = new ArrayList<>(List.of(bin.toString(), "start", "--port", String.valueOf(port),
                                                       "--host", "127.0.0.1", "--allowInjection", "--nologfile",
                                                       "--pidfile", dir.resolve("rift.pid").toString()));
            cmd.addAll(extraArgs);
            Path log = dir.resolve("rift.out");
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                                               .redirectOutput(log.toFile()).start();
            String url = "http://127.0.0.1:" + port;
            waitReady(p, url, log, 20_000);
            return new SpawnTransport(url, p, dir);
        } catch (IOException e) {
            throw new RiftException("could not start " + bin, e);
        }
    }

    /** Polls GET / until it answers, the process exits, or the deadline passes. */
    static void waitReady(Process p, String url, Path log, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            if (!p.isAlive()) throw new RiftException("rift exited with " + p.exitValue() + " before answering: " + tail(log), null);
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create(url + "/").toURL().openConnection();
                c.setConnectTimeout(500);
                c.setReadTimeout(2000);
                int code = c.getResponseCode();
                c.disconnect();
                if (code > 0) return;
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new RiftException("rift did not answer GET / at " + url + " within " + timeoutMs + " ms: " + tail(log), null);
            }
            try {
                p.waitFor(20, TimeUnit.MILLISECONDS); // poll interval; returns early if it exits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                throw new RiftException("interrupted while waiting for rift", e);
            }
        }
    }

    static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no output)";
        }
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        super.close();
        process.destroy(); // SIGTERM
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }
}
