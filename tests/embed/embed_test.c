/* librift from C (C11): an engine opened, an imposter posted through rift_request, called
 * through the gateway and over a real socket, GET /imposters, an error for a bad body, the
 * admin API served and called over HTTP, many threads at once, then closed; a close racing
 * calls on other threads, a double close, calls after close, NULL and malformed arguments. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rift.h"

static int failures = 0;

#define CHECK(condition, ...)                                                 \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #condition); \
      fprintf(stderr, __VA_ARGS__);                                           \
      fprintf(stderr, "\n");                                                  \
      __atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);                     \
    }                                                                         \
  } while (0)

/* One call; returns the status (or the negative carrier status), the body in *body. */
static int32_t call(rift_engine* engine, const char* method, const char* target, const char* body,
                    char** out_body) {
  int32_t status = 0;
  char* response = NULL;
  size_t length = 0;
  char* headers = NULL;
  char* error = NULL;
  int32_t rc = rift_request(engine, method, target, NULL, body, body ? strlen(body) : 0, &status,
                            &response, &length, &headers, &error);
  if (rc != RIFT_OK) {
    fprintf(stderr, "rift_request %s %s: %s %s\n", method, target, rift_status_name(rc),
            error ? error : "");
    rift_free(error);
    return rc;
  }
  CHECK(response != NULL && strlen(response) == length, "body length");
  CHECK(headers != NULL && headers[0] == '[', "headers JSON");
  rift_free(headers);
  if (out_body) {
    *out_body = response;
  } else {
    rift_free(response);
  }
  return status;
}

/* A plain HTTP/1.1 request over a socket to 127.0.0.1:port; returns the whole answer. */
static char* http(int port, const char* method, const char* path, const char* body) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return NULL;
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr*)&address, sizeof address) != 0) {
    close(fd);
    return NULL;
  }
  char request[4096];
  int n = snprintf(request, sizeof request,
                   "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
                   "Content-Length: %zu\r\n\r\n%s",
                   method, path, port, body ? strlen(body) : 0, body ? body : "");
  if (send(fd, request, (size_t)n, MSG_NOSIGNAL) != n) {
    close(fd);
    return NULL;
  }
  size_t size = 0, capacity = 1 << 16;
  char* out = malloc(capacity);
  for (;;) {
    if (size + 4096 + 1 > capacity) out = realloc(out, capacity *= 2);
    ssize_t got = recv(fd, out + size, 4096, 0);
    if (got <= 0) break;
    size += (size_t)got;
  }
  out[size] = '\0';
  close(fd);
  return out;
}

static const char* kImposter =
    "{\"protocol\":\"http\",\"name\":\"embedded\",\"stubs\":[{\"predicates\":[{"
    "\"equals\":{\"path\":\"/hello\"}}],\"responses\":[{\"is\":{\"statusCode\":201,\"body\":"
    "\"hi from rift\"}}]}]}";

static int imposter_port(const char* body) {
  const char* found = strstr(body, "\"port\":");
  return found ? atoi(found + 7) : 0;
}

struct worker {
  rift_engine* engine;
  int port;
  int admin_port;
  int index;
};

static void* work(void* argument) {
  struct worker* w = argument;
  char gateway[64];
  snprintf(gateway, sizeof gateway, "/__rift/%d/hello", w->port);
  for (int i = 0; i < 60; ++i) {
    char* body = NULL;
    switch ((i + w->index) % 4) {
      case 0:
        CHECK(call(w->engine, "GET", gateway, NULL, &body) == 201, "gateway");
        CHECK(body && strcmp(body, "hi from rift") == 0, "gateway body: %s", body);
        break;
      case 1:
        CHECK(call(w->engine, "GET", "/imposters", NULL, &body) == 200, "GET /imposters");
        break;
      case 2: {
        char path[64];
        snprintf(path, sizeof path, "/imposters/%d", w->port);
        CHECK(call(w->engine, "GET", path, NULL, &body) == 200, "GET %s", path);
        break;
      }
      case 3:
        body = http(w->port, "GET", "/hello", NULL);
        CHECK(body && strstr(body, "HTTP/1.1 201") == body, "socket: %s", body);
        break;
    }
    free(body); /* rift_free is free(); either is fine for the test, rift_free is documented */
  }
  return NULL;
}

/* A chunked reply comes back whole: no Transfer-Encoding left in its headers, a Content-Length. */
static void chunked_reply(rift_engine* engine) {
  static const char* chunked =
      "{\"protocol\":\"http\",\"stubs\":[{\"responses\":[{\"is\":{\"statusCode\":200,"
      "\"headers\":{\"Transfer-Encoding\":\"chunked\"},\"body\":\"in pieces\"}}]}]}";
  char* body = NULL;
  CHECK(call(engine, "POST", "/imposters", chunked, &body) == 201, "POST chunked imposter");
  const int port = body ? imposter_port(body) : 0;
  rift_free(body);
  char target[64];
  snprintf(target, sizeof target, "/__rift/%d/", port);
  int32_t status = 0;
  size_t length = 0;
  char* headers = NULL;
  body = NULL;
  CHECK(rift_request(engine, "GET", target, NULL, NULL, 0, &status, &body, &length, &headers,
                     NULL) == RIFT_OK &&
            status == 200,
        "chunked gateway call");
  CHECK(body && length == 9 && strcmp(body, "in pieces") == 0, "chunked body %s", body);
  CHECK(headers && !strstr(headers, "Transfer-Encoding") && !strstr(headers, "chunked") &&
            strstr(headers, "[\"Content-Length\",\"9\"]"),
        "chunked headers %s", headers ? headers : "(null)");
  rift_free(body);
  rift_free(headers);
  char path[32];
  snprintf(path, sizeof path, "/imposters/%d", port);
  CHECK(call(engine, "DELETE", path, NULL, NULL) == 200, "DELETE chunked imposter");
}

/* Calls until the engine is closed under it: every answer is a 200 or RIFT_ERR_STATE. */
struct racer {
  rift_engine* engine;
  int answered;
  int refused;
  int other;
};

static void* race(void* argument) {
  struct racer* r = argument;
  for (;;) {
    int32_t status = 0;
    char* body = NULL;
    char* error = NULL;
    int32_t rc = rift_request(r->engine, "GET", "/imposters", NULL, NULL, 0, &status, &body, NULL,
                              NULL, &error);
    rift_free(body);
    if (rc == RIFT_OK && status == 200) {
      __atomic_add_fetch(&r->answered, 1, __ATOMIC_SEQ_CST);
    } else if (rc == RIFT_ERR_STATE) {
      CHECK(error && strstr(error, "closed"), "closed error: %s", error ? error : "");
      rift_free(error);
      __atomic_add_fetch(&r->refused, 1, __ATOMIC_SEQ_CST);
      return NULL;
    } else {
      rift_free(error);
      __atomic_add_fetch(&r->other, 1, __ATOMIC_SEQ_CST);
      return NULL;
    }
  }
}

static void close_while_called(void) {
  rift_engine* engine = NULL;
  CHECK(rift_engine_open("{\"threads\": 1}", &engine, NULL) == RIFT_OK, "open for the race");
  if (engine == NULL) return;
  enum { kRacers = 4 };
  pthread_t threads[kRacers];
  struct racer racer = {engine, 0, 0, 0};
  for (int i = 0; i < kRacers; ++i) pthread_create(&threads[i], NULL, race, &racer);
  /* Close once the racers are inside: at least 50 answers, so the close meets calls in flight. */
  while (__atomic_load_n(&racer.answered, __ATOMIC_SEQ_CST) < 50)
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  CHECK(rift_engine_close(engine) == RIFT_OK, "close under calls");
  for (int i = 0; i < kRacers; ++i) pthread_join(threads[i], NULL);
  CHECK(racer.refused == kRacers && racer.other == 0, "racers: %d refused, %d other answers",
        racer.refused, racer.other);

  /* A closed engine answers RIFT_ERR_STATE to everything, a second close included. */
  char* error = NULL;
  CHECK(rift_engine_close(engine) == RIFT_ERR_STATE, "double close");
  CHECK(rift_request(engine, "GET", "/", NULL, NULL, 0, NULL, NULL, NULL, NULL, &error) ==
            RIFT_ERR_STATE,
        "request after close");
  rift_free(error);
  error = NULL;
  CHECK(rift_serve_admin(engine, NULL, NULL, &error) == RIFT_ERR_STATE, "serve after close");
  rift_free(error);
}

/* NULL and malformed arguments: a status and a message, never a crash. */
static void bad_arguments(rift_engine* engine) {
  char* error = NULL;
  CHECK(rift_request(NULL, "GET", "/", NULL, NULL, 0, NULL, NULL, NULL, NULL, &error) ==
            RIFT_ERR_ARGUMENT,
        "NULL engine");
  rift_free(error);
  error = NULL;
  CHECK(rift_request(engine, NULL, "/", NULL, NULL, 0, NULL, NULL, NULL, NULL, &error) ==
            RIFT_ERR_ARGUMENT,
        "NULL method");
  rift_free(error);
  error = NULL;
  CHECK(rift_request(engine, "GET", NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL) ==
            RIFT_ERR_ARGUMENT,
        "NULL target, no out_error");
  CHECK(rift_request(engine, "POST", "/imposters", NULL, NULL, 5, NULL, NULL, NULL, NULL, NULL) ==
            RIFT_ERR_ARGUMENT,
        "NULL body with a length");
  CHECK(rift_request(engine, "GET", "/", "{\"a\": 1", NULL, 0, NULL, NULL, NULL, NULL, &error) ==
            RIFT_ERR_ARGUMENT,
        "malformed headers_json");
  CHECK(error && strstr(error, "headers_json"), "headers error: %s", error ? error : "");
  rift_free(error);
  error = NULL;
  int32_t status = 0;
  char* body = NULL;
  const char* broken = "{\"port\": 4599, \"protocol\": ";
  CHECK(rift_request(engine, "POST", "/imposters", NULL, broken, strlen(broken), &status, &body,
                     NULL, NULL, &error) == RIFT_OK &&
            status == 400,
        "malformed imposter JSON: %d %s", status, body ? body : "");
  rift_free(body);
  CHECK(rift_engine_open("[1, 2", NULL, NULL) == RIFT_ERR_ARGUMENT, "NULL out_engine");
  CHECK(rift_serve_admin(NULL, NULL, NULL, NULL) == RIFT_ERR_ARGUMENT, "serve NULL engine");
  CHECK(rift_serve_admin(engine, "{\"port\": -1}", NULL, NULL) == RIFT_ERR_ARGUMENT, "bad port");
  rift_free(NULL);
}

int main(void) {
  CHECK(rift_abi_version() == RIFT_ABI_VERSION, "abi version");
  CHECK(strstr(rift_build_info(), "\"tiers\"") != NULL, "build info: %s", rift_build_info());
  CHECK(strcmp(rift_status_name(RIFT_ERR_ARGUMENT), "RIFT_ERR_ARGUMENT") == 0, "status name");

  /* Bad options: an error JSON, no engine. */
  rift_engine* engine = NULL;
  char* error = NULL;
  CHECK(rift_engine_open("{\"nonsense\":1}", &engine, &error) == RIFT_ERR_ARGUMENT, "bad key");
  CHECK(engine == NULL && error && strstr(error, "\"code\":-1") && strstr(error, "nonsense"),
        "error json: %s", error ? error : "(null)");
  rift_free(error);
  error = NULL;
  CHECK(rift_engine_open("{\"tier\":\"jit\"}", &engine, &error) == RIFT_ERR_UNSUPPORTED, "jit");
  rift_free(error);
  error = NULL;
  CHECK(rift_engine_open("{\"threads\":5000}", &engine, &error) == RIFT_ERR_ARGUMENT && error &&
            strstr(error, "threads must be 0 (one per core) to 1024"),
        "threads over the limit: %s", error ? error : "(null)");
  rift_free(error);
  error = NULL;

  int32_t rc = rift_engine_open(
      "{\"threads\":2,\"tier\":\"interpreter\",\"log\":{\"level\":\"warn\"}}", &engine, &error);
  CHECK(rc == RIFT_OK && engine != NULL, "open: %s", error ? error : "");
  if (rc != RIFT_OK) return 1;

  char* body = NULL;
  CHECK(call(engine, "POST", "/imposters", kImposter, &body) == 201, "POST /imposters");
  const int port = body ? imposter_port(body) : 0;
  CHECK(port > 0, "imposter port in %s", body);
  rift_free(body);

  char gateway[64];
  snprintf(gateway, sizeof gateway, "/__rift/%d/hello?x=1", port);
  CHECK(call(engine, "GET", gateway, NULL, &body) == 201, "gateway");
  CHECK(body && strcmp(body, "hi from rift") == 0, "gateway body %s", body);
  rift_free(body);
  CHECK(call(engine, "GET", "/__rift/1/hello", NULL, &body) == 404, "gateway to nothing");
  rift_free(body);
  chunked_reply(engine);

  char* raw = http(port, "GET", "/hello", NULL);
  CHECK(raw && strstr(raw, "HTTP/1.1 201") == raw && strstr(raw, "hi from rift"), "socket %s",
        raw ? raw : "(null)");
  free(raw);

  CHECK(call(engine, "GET", "/imposters", NULL, &body) == 200, "GET /imposters");
  CHECK(body && strstr(body, "\"embedded\""), "listed: %s", body);
  rift_free(body);

  /* Mountebank's error for a body that is no JSON: 400 and its errors document. */
  CHECK(call(engine, "POST", "/imposters", "{not json", &body) == 400, "bad body");
  CHECK(body && strstr(body, "\"errors\"") && strstr(body, "invalid JSON"), "error %s", body);
  rift_free(body);
  /* A carrier error: an argument refused before any route. */
  CHECK(rift_request(engine, "GET", "no-slash", NULL, NULL, 0, NULL, NULL, NULL, NULL, &error) ==
            RIFT_ERR_ARGUMENT,
        "bad target");
  CHECK(error && strstr(error, "\"message\""), "carrier error %s", error ? error : "(null)");
  rift_free(error);
  error = NULL;

  /* The admin API over HTTP, once. */
  char* served = NULL;
  CHECK(rift_serve_admin(engine, "{\"port\":0}", &served, &error) == RIFT_OK, "serve admin %s",
        error ? error : "");
  int admin_port = 0;
  if (served) {
    const char* found = strstr(served, "\"adminPort\":");
    admin_port = found ? atoi(found + 12) : 0;
    CHECK(strstr(served, "http://127.0.0.1:") != NULL, "url %s", served);
  }
  rift_free(served);
  CHECK(admin_port > 0, "admin port");
  raw = http(admin_port, "GET", "/imposters", NULL);
  CHECK(raw && strstr(raw, "HTTP/1.1 200") == raw && strstr(raw, "embedded"), "admin http %s",
        raw ? raw : "(null)");
  free(raw);
  char admin_gateway[64];
  snprintf(admin_gateway, sizeof admin_gateway, "/__rift/%d/hello", port);
  raw = http(admin_port, "GET", admin_gateway, NULL);
  CHECK(raw && strstr(raw, "hi from rift"), "admin gateway %s", raw ? raw : "(null)");
  free(raw);
  CHECK(rift_serve_admin(engine, NULL, NULL, &error) == RIFT_ERR_STATE, "second serve_admin");
  rift_free(error);
  error = NULL;

  /* Many threads at once: 8 x 60 calls of every kind. */
  enum { kThreads = 8 };
  pthread_t threads[kThreads];
  struct worker workers[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    workers[i] = (struct worker){engine, port, admin_port, i};
    pthread_create(&threads[i], NULL, work, &workers[i]);
  }
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);

  bad_arguments(engine);
  CHECK(call(engine, "DELETE", "/imposters", NULL, NULL) == 200, "DELETE /imposters");
  CHECK(rift_engine_close(engine) == RIFT_OK, "close");
  CHECK(rift_engine_close(NULL) == RIFT_OK, "close NULL");
  close_while_called();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  fprintf(stderr, "embed_c_abi: every check passed\n");
  return 0;
}
