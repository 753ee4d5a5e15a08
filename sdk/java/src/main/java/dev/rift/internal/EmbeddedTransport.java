package dev.rift.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rift.HttpResult;
import dev.rift.RiftException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** The engine in process: every call is rift_request; imposter traffic goes through the gateway. */
public final class EmbeddedTransport implements Transport {
    private final NativeLib lib;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private MemorySegment engine; // NULL once closed
    private String adminUrl;

    public EmbeddedTransport(String optionsJson) {
        this.lib = NativeLib.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment outEngine = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment outError = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment opts = optionsJson == null ? MemorySegment.NULL : arena.allocateFrom(optionsJson);
            int status = (int) lib.handle("rift_engine_open").invokeExact(opts, outEngine, outError);
            String err = lib.takeString(outError);
            if (status != 0) throw lib.error(status, err);
            engine = outEngine.get(ValueLayout.ADDRESS, 0);
        } catch (Throwable t) {
            throw NativeLib.rethrow(t);
        }
    }

    @Override
    public String name() {
        return "embedded";
    }

    private MemorySegment live() {
        if (engine == null) throw new RiftException(-3, "RIFT_ERR_STATE", "the engine is closed");
        return engine;
    }

    @Override
    public HttpResult admin(String method, String target, Map<String, String> headers, byte[] body) {
        lock.readLock().lock();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment eng = live();
            MemorySegment m = arena.allocateFrom(method);
            MemorySegment t = arena.allocateFrom(target);
            MemorySegment h = headers == null || headers.isEmpty() ? MemorySegment.NULL
                                                                    : arena.allocateFrom(Json.write(headers));
            long len = body == null ? 0 : body.length;
            MemorySegment b = MemorySegment.NULL;
            if (len > 0) {
                b = arena.allocate(len + 1);
                MemorySegment.copy(body, 0, b, ValueLayout.JAVA_BYTE, 0, body.length);
            }
            MemorySegment outStatus = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment outBody = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment outLen = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment outHeaders = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment outError = arena.allocate(ValueLayout.ADDRESS);
            int status = (int) lib.handle("rift_request").invokeExact(eng, m, t, h, b, len, outStatus, outBody,
                                                                       outLen, outHeaders, outError);
            byte[] bytes = lib.takeBytes(outBody, outLen.get(ValueLayout.JAVA_LONG, 0));
            String headersJson = lib.takeString(outHeaders);
            String err = lib.takeString(outError);
            if (status != 0) throw lib.error(status, err);
            List<Map.Entry<String, String>> hs = new ArrayList<>();
            if (headersJson != null)
                for (JsonNode pair : Json.parse(headersJson)) hs.add(Map.entry(pair.path(0).asText(), pair.path(1).asText()));
            return new HttpResult(outStatus.get(ValueLayout.JAVA_INT, 0), hs, bytes);
        } catch (Throwable e) {
            throw NativeLib.rethrow(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public HttpResult imposter(int port, String method, String path, Map<String, String> headers, byte[] body) {
        return admin(method, "/__rift/" + port + (path.startsWith("/") ? path : "/" + path), headers, body);
    }

    /** Binds the real admin API over HTTP (once per engine); answers its URL. */
    public String serveAdmin(String optionsJson) {
        lock.readLock().lock();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment eng = live();
            MemorySegment opts = optionsJson == null ? MemorySegment.NULL : arena.allocateFrom(optionsJson);
            MemorySegment outJson = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment outError = arena.allocate(ValueLayout.ADDRESS);
            int status = (int) lib.handle("rift_serve_admin").invokeExact(eng, opts, outJson, outError);
            String json = lib.takeString(outJson);
            String err = lib.takeString(outError);
            if (status != 0) throw lib.error(status, err);
            adminUrl = Json.parse(json).path("adminUrl").asText();
            return adminUrl;
        } catch (Throwable e) {
            throw NativeLib.rethrow(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public String adminUrl() {
        return adminUrl;
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (engine == null) return;
            MemorySegment eng = engine;
            engine = null;
            int status = (int) lib.handle("rift_engine_close").invokeExact(eng);
            if (status != 0) throw lib.error(status, null);
        } catch (Throwable e) {
            throw NativeLib.rethrow(e);
        } finally {
            lock.writeLock().unlock();
        }
    }
}
