// A client that cannot be repointed: its URL is compiled in. It reaches Rift only because the JVM
// is told to use a proxy (https.proxyHost/https.proxyPort) and to trust Rift's exported
// truststore (javax.net.ssl.trustStore*), the way a team would run a vendor SDK under test.
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class HardCodedClient {
  private static final URI FLAGS = URI.create("https://flags.vendor.example/v1/flags");

  public static void main(String[] args) throws Exception {
    HttpClient client = HttpClient.newBuilder().proxy(ProxySelector.getDefault()).build();
    HttpResponse<String> response =
        client.send(HttpRequest.newBuilder(FLAGS).build(), HttpResponse.BodyHandlers.ofString());
    System.out.println(response.statusCode());
    System.out.println(response.version());
    System.out.println(response.body());
  }
}
