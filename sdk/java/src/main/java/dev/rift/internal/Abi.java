package dev.rift.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * librift's binding table, written once: every downcall handle is made from it, and the ABI test
 * compares it with {@code embed/abi.json} (names, return and argument types in order).
 */
public final class Abi {
    private Abi() {}

    /** The ABI major version this SDK binds ({@code RIFT_ABI_VERSION}). */
    public static final int VERSION = 1;

    public record Arg(String name, String type) {}

    public record Fn(String name, String returns, List<Arg> args) {
        /** The FFM descriptor, derived from the C types. */
        public FunctionDescriptor descriptor() {
            MemoryLayout[] argLayouts = args.stream().map(a -> layout(a.type())).toArray(MemoryLayout[]::new);
            return returns.equals("void") ? FunctionDescriptor.ofVoid(argLayouts)
                                          : FunctionDescriptor.of(layout(returns), argLayouts);
        }
    }

    private static Fn fn(String name, String returns, Arg... args) {
        return new Fn(name, returns, List.of(args));
    }

    private static Arg arg(String name, String type) {
        return new Arg(name, type);
    }

    /** The table. */
    public static final List<Fn> FUNCTIONS = List.of(
        fn("rift_abi_version", "uint32_t"),
        fn("rift_build_info", "const char *"),
        fn("rift_engine_open", "int32_t",
           arg("options_json", "const char *"), arg("out_engine", "rift_engine **"),
           arg("out_error", "char **")),
        fn("rift_engine_close", "int32_t", arg("engine", "rift_engine *")),
        fn("rift_request", "int32_t",
           arg("engine", "rift_engine *"), arg("method", "const char *"), arg("target", "const char *"),
           arg("headers_json", "const char *"), arg("body", "const char *"), arg("body_len", "size_t"),
           arg("out_status", "int32_t *"), arg("out_body", "char **"), arg("out_body_len", "size_t *"),
           arg("out_headers_json", "char **"), arg("out_error", "char **")),
        fn("rift_serve_admin", "int32_t",
           arg("engine", "rift_engine *"), arg("options_json", "const char *"),
           arg("out_json", "char **"), arg("out_error", "char **")),
        fn("rift_free", "void", arg("pointer", "void *")),
        fn("rift_status_name", "const char *", arg("status", "int32_t")));

    /** The FFM layout of a C type of the table (LP64: size_t is 64 bits). */
    public static MemoryLayout layout(String cType) {
        return switch (cType) {
            case "uint32_t", "int32_t" -> ValueLayout.JAVA_INT;
            case "size_t" -> ValueLayout.JAVA_LONG;
            default -> {
                if (cType.endsWith("*")) yield ValueLayout.ADDRESS;
                throw new IllegalArgumentException("no layout for C type " + cType);
            }
        };
    }

    /** The table as abi.json's "functions" would list it: [name, returns, [[arg, type]...]]. */
    public static List<List<Object>> describe() {
        List<List<Object>> out = new ArrayList<>();
        for (Fn f : FUNCTIONS) {
            List<Object> args = new ArrayList<>();
            for (Arg a : f.args()) args.add(List.of(a.name(), a.type()));
            out.add(List.of(f.name(), f.returns(), args));
        }
        return out;
    }

    /**
     * Compares the table with an abi.json file; answers the differences (empty when equal).
     */
    public static List<String> compare(java.nio.file.Path abiJson) throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode root = Json.MAPPER.readTree(abiJson.toFile());
        List<String> diffs = new ArrayList<>();
        if (root.path("abi").asInt(-1) != VERSION)
            diffs.add("abi: json has " + root.path("abi") + ", SDK binds " + VERSION);
        com.fasterxml.jackson.databind.JsonNode fns = root.path("functions");
        if (fns.size() != FUNCTIONS.size())
            diffs.add("function count: json has " + fns.size() + ", SDK has " + FUNCTIONS.size());
        for (int i = 0; i < Math.min(fns.size(), FUNCTIONS.size()); i++) {
            com.fasterxml.jackson.databind.JsonNode j = fns.get(i);
            Fn f = FUNCTIONS.get(i);
            String where = "functions[" + i + "] " + f.name();
            if (!f.name().equals(j.path("name").asText())) diffs.add(where + ": json names " + j.path("name"));
            if (!f.returns().equals(j.path("returns").asText()))
                diffs.add(where + ": returns " + j.path("returns") + " in json, " + f.returns() + " in SDK");
            com.fasterxml.jackson.databind.JsonNode ja = j.path("args");
            if (ja.size() != f.args().size()) {
                diffs.add(where + ": " + ja.size() + " args in json, " + f.args().size() + " in SDK");
                continue;
            }
            for (int k = 0; k < ja.size(); k++) {
                Arg a = f.args().get(k);
                String jn = ja.get(k).path(0).asText(), jt = ja.get(k).path(1).asText();
                if (!a.name().equals(jn) || !a.type().equals(jt))
                    diffs.add(where + " arg " + k + ": json [" + jn + ", " + jt + "], SDK [" + a.name() + ", " + a.type() + "]");
            }
        }
        return diffs;
    }
}
