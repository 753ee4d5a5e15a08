package dev.rift.internal;

import dev.rift.RiftException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/**
 * librift, loaded once per JVM (never unloaded), with one downcall handle per entry of
 * {@link Abi#FUNCTIONS}. Found through RIFT_LIB, then the jar's resource
 * native/linux-x86_64/librift.so.1 (written to a temp file).
 */
public final class NativeLib {
    public static final String RESOURCE = "native/linux-x86_64/librift.so.1";

    private static volatile NativeLib instance;

    private final Path path;
    private final Map<String, MethodHandle> handles = new HashMap<>();

    private NativeLib(Path path) {
        this.path = path;
        Linker linker = Linker.nativeLinker();
        SymbolLookup lookup = SymbolLookup.libraryLookup(path, Arena.global());
        for (Abi.Fn f : Abi.FUNCTIONS) {
            MemorySegment symbol = lookup.find(f.name())
                .orElseThrow(() -> new RiftException("librift at " + path + " lacks " + f.name(), null));
            handles.put(f.name(), linker.downcallHandle(symbol, f.descriptor()));
        }
        int abi = abiVersion();
        if (abi != Abi.VERSION)
            throw new RiftException("librift at " + path + " has ABI version " + abi + "; this SDK binds version "
                                    + Abi.VERSION, null);
    }

    public static NativeLib get() {
        NativeLib lib = instance;
        if (lib == null) {
            synchronized (NativeLib.class) {
                lib = instance;
                if (lib == null) instance = lib = new NativeLib(locate());
            }
        }
        return lib;
    }

    /** RIFT_LIB (or the rift.lib system property), then the jar's resource. */
    static Path locate() {
        String env = System.getProperty("rift.lib", System.getenv("RIFT_LIB"));
        if (env != null && !env.isEmpty()) {
            Path p = Path.of(env);
            if (!Files.isRegularFile(p)) throw new RiftException("RIFT_LIB names no file: " + env, null);
            return p.toAbsolutePath();
        }
        try (InputStream in = NativeLib.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null)
                throw new RiftException("librift not found: set RIFT_LIB, or use a rift-java jar that carries "
                                        + RESOURCE, null);
            Path dir = Files.createTempDirectory("rift-java-");
            Path out = dir.resolve("librift.so.1");
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            out.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return out;
        } catch (IOException e) {
            throw new RiftException("could not write librift to a temp file", e);
        }
    }

    public Path path() {
        return path;
    }

    MethodHandle handle(String name) {
        return handles.get(name);
    }

    public int abiVersion() {
        try {
            return (int) handle("rift_abi_version").invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public String buildInfo() {
        try {
            MemorySegment s = (MemorySegment) handle("rift_build_info").invokeExact();
            return cString(s);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public String statusName(int status) {
        try {
            return cString((MemorySegment) handle("rift_status_name").invokeExact(status));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void free(MemorySegment p) {
        if (p == null || p.equals(MemorySegment.NULL)) return;
        try {
            handle("rift_free").invokeExact(p);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String cString(MemorySegment s) {
        if (s == null || s.equals(MemorySegment.NULL)) return null;
        return s.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /** Reads an owned char* out-parameter (NUL-terminated) and frees it. */
    String takeString(MemorySegment slot) {
        MemorySegment p = slot.get(ValueLayout.ADDRESS, 0);
        if (p.equals(MemorySegment.NULL)) return null;
        try {
            return cString(p);
        } finally {
            free(p);
        }
    }

    /** Reads len bytes of an owned char* out-parameter and frees it. */
    byte[] takeBytes(MemorySegment slot, long len) {
        MemorySegment p = slot.get(ValueLayout.ADDRESS, 0);
        if (p.equals(MemorySegment.NULL)) return new byte[0];
        try {
            return p.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            free(p);
        }
    }

    /** Throws the RiftException a non-zero status and its out_error JSON describe. */
    RiftException error(int status, String errorJson) {
        String name = statusName(status), message = "";
        if (errorJson != null) {
            var j = Json.tryParse(errorJson);
            if (j != null) {
                name = j.path("name").asText(name);
                message = j.path("message").asText("");
            } else {
                message = errorJson;
            }
        }
        return new RiftException(status, name, message);
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new RiftException("librift call failed", t);
    }
}
