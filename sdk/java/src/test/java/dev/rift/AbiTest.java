package dev.rift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rift.internal.Abi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binding table against embed/abi.json, and a drifted copy that must not compare equal. */
class AbiTest {
    static Path abiJson() {
        String env = System.getenv("RIFT_ABI_JSON");
        Path p = env != null && !env.isEmpty() ? Path.of(env) : Path.of("../../embed/abi.json");
        assertTrue(Files.isRegularFile(p), "abi.json not found at " + p.toAbsolutePath());
        return p;
    }

    @Test
    void tableMatchesAbiJson() throws Exception {
        assertEquals(List.of(), Abi.compare(abiJson()));
    }

    @Test
    void driftedCopyFails(@TempDir Path tmp) throws Exception {
        String text = Files.readString(abiJson());
        String drifted = text.replace("[\"body_len\", \"size_t\"]", "[\"body_len\", \"int32_t\"]");
        assertFalse(drifted.equals(text), "the fixture edit must change abi.json");
        Path copy = tmp.resolve("abi.json");
        Files.writeString(copy, drifted);
        List<String> diffs = Abi.compare(copy);
        assertEquals(1, diffs.size(), diffs.toString());
        assertTrue(diffs.get(0).contains("rift_request arg 5"), diffs.get(0));
    }

    @Test
    void loadedLibraryIsAbiOne() {
        assertEquals(Abi.VERSION, dev.rift.internal.NativeLib.get().abiVersion());
        assertTrue(Rift.buildInfo().contains("\"abi\":1"), Rift.buildInfo());
    }
}
