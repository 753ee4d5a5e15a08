// java.net.http.HttpClient (which pools HTTP/1.1 connections) against one imposter that the
// admin API deletes and recreates between requests: every request must succeed
// (tests/e2e/test_pooled_clients.py). Usage: java PooledClient.java ADMIN_PORT IMPOSTER_PORT ROUNDS
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public final class PooledClient {
  public static void main(String[] args) throws Exception {
    int adminPort = Integer.parseInt(args[0]);
    int port = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    HttpClient pooled = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI imposter = URI.create("http://127.0.0.1:" + port + "/");
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> answer =
            pooled.send(HttpRequest.newBuilder(imposter).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200 || !answer.body().equals("round " + round)) {
          throw new IllegalStateException("round " + round + ": " + answer.statusCode() + " "
              + answer.body());
        }
      }
      String base = "http://127.0.0.1:" + adminPort + "/imposters";
      admin.send(HttpRequest.newBuilder(URI.create(base + "/" + port)).DELETE().build(),
          HttpResponse.BodyHandlers.discarding());
      String body = "{\"port\":" + port + ",\"protocol\":\"http\",\"stubs\":[{\"responses\":"
          + "[{\"is\":{\"body\":\"round " + (round + 1) + "\"}}]}]}";
      HttpResponse<String> created =
          admin.send(HttpRequest.newBuilder(URI.create(base))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (created.statusCode() != 201) {
        throw new IllegalStateException("create: " + created.statusCode() + " " + created.body());
      }
    }
    System.out.println("ok " + rounds + " rounds");
  }
}
