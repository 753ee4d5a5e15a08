import static dev.rift.Rift.*;

import dev.rift.Rift;
import dev.rift.RiftClient;

/** Run by ci.sh against the packaged jar with RIFT_LIB unset: librift comes from the jar's resource. */
public class JarSmoke {
    public static void main(String[] args) {
        if (System.getenv("RIFT_LIB") != null) throw new IllegalStateException("unset RIFT_LIB for this check");
        try (RiftClient rift = Rift.embedded()) {
            int port = rift.create(imposter("smoke").port(24590).record()
                .stub(onGet("/ping").willReturn(okJson("{\"pong\": true}"))));
            String body = rift.get(port, "/ping").bodyText();
            if (!body.equals("{\"pong\": true}")) throw new AssertionError("got " + body);
            rift.verify(port, onGet("/ping"), once());
            String lib = dev.rift.internal.NativeLib.get().path().toString();
            if (!lib.contains("rift-java-")) throw new AssertionError("librift was not taken from the jar: " + lib);
            System.out.println("jar smoke: librift from the jar resource (" + lib + "), " + body);
        }
    }
}
