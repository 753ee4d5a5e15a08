package dev.rift;

import static dev.rift.Rift.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

/** An https imposter of the engine in process, called with the JDK's own TLS (JSSE). */
class TlsTest {
    @Test
    void hostTlsAndRiftOpenSslCoexist() throws Exception {
        try (RiftClient rift = Rift.embedded()) {
            int port = rift.create(imposter("tls").port(24560).https().record()
                .stub(onGet("/secure").willReturn(okJson("{\"tls\": true}"))));
            // Through the gateway first (no TLS), then over the socket with JSSE.
            assertEquals(200, rift.get(port, "/secure").status());

            TrustManager[] trustAll = {new X509TrustManager() {
                public void checkClientTrusted(X509Certificate[] c, String a) {}
                public void checkServerTrusted(X509Certificate[] c, String a) {}
                public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
            }};
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, trustAll, new SecureRandom());
            HttpsURLConnection c = (HttpsURLConnection) URI.create("https://127.0.0.1:" + port + "/secure").toURL().openConnection();
            c.setSSLSocketFactory(ctx.getSocketFactory());
            c.setHostnameVerifier((h, s) -> true);
            c.setConnectTimeout(5000);
            c.setReadTimeout(10000);
            assertEquals(200, c.getResponseCode());
            String suite = c.getCipherSuite();
            String body;
            try (InputStream in = c.getInputStream()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertEquals("{\"tls\": true}", body);
            c.disconnect();
            System.out.println("JSSE negotiated " + suite);
            rift.verify(port, onGet("/secure"), times(2));
        }
    }
}
