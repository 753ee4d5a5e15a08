package dev.rift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rift.internal.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** tests/conformance/README.md, replayed on one lane; writes the lane's .jsonl. */
final class ConformanceReplayer {
    static final Set<String> LANE_TAGS = Set.of("injection", "proxy", "https", "shell");
    static final String[] CORPORA = {"rift", "reference-rift"};

    record Outcome(int passed, int failed, int skipped, List<String> failures, Path file) {}

    private final RiftClient client;
    private final String clientName, transport, tier = "interpreter";
    private final int offset;
    private final Path conformance;
    private final List<ObjectNode> lines = new ArrayList<>();

    ConformanceReplayer(RiftClient client, String clientName, int defaultOffset) {
        this.client = client;
        this.clientName = clientName;
        this.transport = client.transport();
        String off = System.getenv("RIFT_CONFORMANCE_PORT_OFFSET");
        this.offset = off != null && !off.isEmpty() ? Integer.parseInt(off) : defaultOffset;
        this.conformance = repoRoot().resolve("tests/conformance");
    }

    static Path repoRoot() {
        return Path.of("").toAbsolutePath().resolve("../..").normalize();
    }

    static Path resultsDir() {
        String env = System.getenv("RIFT_RESULTS");
        return env != null && !env.isEmpty() ? Path.of(env) : repoRoot().resolve("build/conformance-results");
    }

    private record Fixture(String corpus, String name, JsonNode entry, Path corpusDir) {}

    private void line(String corpus, String fixture, Integer stub, Integer step, String outcome, String reason) {
        ObjectNode n = Json.object();
        n.put("client", clientName).put("transport", transport).put("tier", tier).put("corpus", corpus)
         .put("fixture", fixture);
        if (stub == null) n.putNull("stub"); else n.put("stub", stub);
        if (step == null) n.putNull("step"); else n.put("step", step);
        n.put("outcome", outcome).put("reason", reason);
        lines.add(n);
    }

    Outcome run() throws IOException {
        JsonNode skips = Json.MAPPER.readTree(conformance.resolve("skips.json").toFile()).path("skips");
        List<Fixture> fixtures = new ArrayList<>();
        Set<Integer> manifestPorts = new LinkedHashSet<>();
        for (String corpus : CORPORA) {
            Path dir = conformance.resolve(corpus);
            JsonNode manifest = Json.MAPPER.readTree(dir.resolve("manifest.json").toFile());
            for (JsonNode f : manifest.path("fixtures")) {
                manifestPorts.add(f.path("port").asInt());
                String file = f.path("file").asText();
                String name = Path.of(file).getFileName().toString().replaceFirst("\\.json$", "");
                fixtures.add(new Fixture(corpus, name, f, dir));
            }
        }
        Pattern portRef = Pattern.compile("(localhost|127\\.0\\.0\\.1):(\\d+)(?!\\d)");

        // 1-4: choose, rewrite and create every fixture first.
        Map<Fixture, JsonNode> created = new LinkedHashMap<>();
        Map<Fixture, String> refused = new LinkedHashMap<>();
        for (Fixture fx : fixtures) {
            String lacking = null;
            for (JsonNode tag : fx.entry().path("requires"))
                if (!LANE_TAGS.contains(tag.asText())) { lacking = tag.asText(); break; }
            if (lacking != null) {
                line(fx.corpus(), fx.name(), null, null, "skip", "requires " + lacking);
                continue;
            }
            String text = Files.readString(fx.corpusDir().resolve(fx.entry().path("file").asText()), StandardCharsets.UTF_8);
            Matcher m = portRef.matcher(text);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                int p = Integer.parseInt(m.group(2));
                String rep = manifestPorts.contains(p) ? m.group(1) + ":" + (p + offset) : m.group();
                m.appendReplacement(sb, Matcher.quoteReplacement(rep));
            }
            m.appendTail(sb);
            String dataDir = fx.corpusDir().resolve("corpus").toAbsolutePath().normalize() + "/data/";
            text = sb.toString().replace("\"data/", "\"" + dataDir);
            ObjectNode imposter = (ObjectNode) Json.parse(text);
            int port = fx.entry().path("port").asInt() + offset;
            imposter.put("port", port);
            String whole = wholeSkip(skips, fx);
            if (whole != null) {
                line(fx.corpus(), fx.name(), null, null, "skip", whole);
                continue;
            }
            try {
                HttpResult r = client.request("POST", "/imposters", Map.of("Content-Type", "application/json"),
                                              imposter.toString().getBytes(StandardCharsets.UTF_8));
                if (r.status() != 201 && r.status() != 200) refused.put(fx, "POST /imposters answered " + r.status() + ": " + r.bodyText());
            } catch (RuntimeException e) {
                refused.put(fx, "POST /imposters failed: " + e.getMessage());
            }
            created.put(fx, imposter);
        }

        // 5: replay.
        for (var e : created.entrySet()) {
            Fixture fx = e.getKey();
            JsonNode imposter = e.getValue();
            int port = imposter.path("port").asInt();
            JsonNode stubs = imposter.path("stubs");
            for (int i = 0; i < stubs.size(); i++) {
                JsonNode seq = stubs.get(i).path("_verify").path("sequence");
                String skipWhy = skipOf(skips, fx, i);
                for (int j = 0; j < seq.size(); j++) {
                    if (skipWhy != null) { line(fx.corpus(), fx.name(), i, j, "skip", skipWhy); continue; }
                    if (refused.containsKey(fx)) { line(fx.corpus(), fx.name(), i, j, "fail", refused.get(fx)); continue; }
                    String why = step(port, seq.get(j));
                    line(fx.corpus(), fx.name(), i, j, why == null ? "pass" : "fail", why == null ? "" : why);
                }
            }
        }

        // 6: delete every imposter.
        client.deleteAll();
        return write();
    }

    private static String wholeSkip(JsonNode skips, Fixture fx) {
        for (JsonNode s : skips)
            if (s.path("corpus").asText().equals(fx.corpus()) && s.path("fixture").asText().equals(fx.name())
                && s.path("stub").isNull())
                return s.path("why").asText();
        return null;
    }

    private static String skipOf(JsonNode skips, Fixture fx, int stub) {
        for (JsonNode s : skips)
            if (s.path("corpus").asText().equals(fx.corpus()) && s.path("fixture").asText().equals(fx.name())
                && (s.path("stub").isNull() || s.path("stub").asInt() == stub))
                return s.path("why").asText();
        return null;
    }

    /** One step: null when it passes, else the reason. */
    private String step(int port, JsonNode st) {
        JsonNode req = st.path("request"), exp = st.path("expect");
        String method = req.path("method").asText("GET");
        String path = req.path("path").asText("/");
        Map<String, String> headers = new LinkedHashMap<>();
        for (var h : req.path("headers").properties()) {
            headers.put(h.getKey(), h.getValue().isTextual() ? h.getValue().asText() : h.getValue().toString());
        }
        byte[] body = null;
        if (req.has("body")) {
            JsonNode b = req.get("body");
            body = (b.isTextual() ? b.asText() : Json.write(b)).getBytes(StandardCharsets.UTF_8);
        }
        HttpResult r;
        try {
            r = client.call(port, method, path, headers, body);
        } catch (RuntimeException ex) {
            return method + " " + path + ": no answer: " + ex.getMessage();
        }
        String got = r.bodyText();
        List<String> why = new ArrayList<>();
        if (exp.has("status") && exp.get("status").asInt() != r.status())
            why.add("status: expected " + exp.get("status").asInt() + ", got " + r.status());
        if (exp.has("bodyContains")) {
            String want = exp.get("bodyContains").asText();
            String compact = Json.compact(got);
            if (!got.contains(want) && (compact == null || !compact.contains(want)))
                why.add("bodyContains: expected " + Json.write(want) + " in " + Json.write(clip(got)));
        }
        if (exp.has("bodyEquals") && !exp.get("bodyEquals").asText().equals(got))
            why.add("bodyEquals: expected " + Json.write(exp.get("bodyEquals").asText()) + ", got " + Json.write(clip(got)));
        return why.isEmpty() ? null : method + " " + path + ": " + String.join("; ", why);
    }

    private static String clip(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    private Outcome write() throws IOException {
        Path dir = resultsDir();
        Files.createDirectories(dir);
        Path file = dir.resolve(clientName + "-" + transport + "-" + tier + ".jsonl");
        StringBuilder sb = new StringBuilder();
        int passed = 0, failed = 0, skipped = 0;
        List<String> failures = new ArrayList<>();
        for (ObjectNode n : lines) {
            sb.append(n).append('\n');
            switch (n.path("outcome").asText()) {
                case "pass" -> passed++;
                case "fail" -> {
                    failed++;
                    failures.add(n.path("corpus").asText() + "/" + n.path("fixture").asText() + " stub " + n.path("stub")
                                 + " step " + n.path("step") + ": " + n.path("reason").asText());
                }
                default -> skipped++;
            }
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return new Outcome(passed, failed, skipped, failures, file);
    }
}
