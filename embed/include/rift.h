/* librift: Rift's engine in process, behind a C ABI (docs/embedding.md).
 *
 * One opaque engine per rift_engine_open. JSON in, JSON out; the control plane is the admin API
 * itself: rift_request enters the same route table as HTTP on the admin port, so every admin
 * route (and the gateway, /__rift/{port}/...) is reachable without a symbol of its own.
 *
 * Conventions:
 *  - Every function returns at once with a status (RIFT_OK = 0, negative = the carrier failed;
 *    see rift_status_name) unless noted. An HTTP answer of any status is RIFT_OK: Mountebank's
 *    errors come back as the same status and body as over HTTP.
 *  - Errors are written to an out-parameter `out_error` as {"code": N, "name": "...",
 *    "message": "..."}; there is no thread-local error state. Every out-parameter may be NULL.
 *  - Strings in are borrowed, NUL-terminated UTF-8. Strings out (char **) are owned by the
 *    caller and freed with rift_free; they are NUL-terminated even when a length is given.
 *  - Callable from any thread, concurrently, rift_engine_close included: it waits for the
 *    calls already inside, and any call on a closed engine (a second close too) returns
 *    RIFT_ERR_STATE. Nothing is written to stdout or stderr unless asked; no signal handlers
 *    are installed. Do not call from inside Rift's own threads.
 */
#ifndef RIFT_H
#define RIFT_H

#include <stddef.h>
#include <stdint.h>

#if defined(RIFT_BUILDING_LIBRARY)
#define RIFT_API __attribute__((visibility("default")))
#else
#define RIFT_API
#endif

/* Nothing unwinds out of librift: to C++ callers every function is noexcept. */
#ifdef __cplusplus
#define RIFT_NOEXCEPT noexcept
#else
#define RIFT_NOEXCEPT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI's major version: changes only when a symbol is removed or changes meaning. */
#define RIFT_ABI_VERSION 1

/* Statuses. */
#define RIFT_OK 0
#define RIFT_ERR_ARGUMENT (-1)    /* a NULL, malformed or refused argument */
#define RIFT_ERR_START (-2)       /* the engine (or the admin listener) could not start */
#define RIFT_ERR_STATE (-3)       /* not now: the engine is closed, the admin API served already */
#define RIFT_ERR_UNSUPPORTED (-4) /* not in this build (e.g. tier "jit") */
#define RIFT_ERR_NO_ANSWER (-5)   /* no HTTP answer (the imposter reset the connection) */
#define RIFT_ERR_NO_MEMORY (-6)
#define RIFT_ERR_INTERNAL (-7) /* an exception was caught inside; the message says which */

typedef struct rift_engine rift_engine;

/* RIFT_ABI_VERSION of the loaded library. */
RIFT_API uint32_t rift_abi_version(void) RIFT_NOEXCEPT;

/* Static JSON: {"name", "version", "abi", "tiers": [...], "features": [...]}. Not freed. */
RIFT_API const char* rift_build_info(void) RIFT_NOEXCEPT;

/* Opens an engine. options_json may be NULL or {} for the defaults:
 *   {"threads": 0 (one per core; at most 1024),
 *    "tier": "interpreter"|"jit"|"auto" ("auto"; "jit" needs librift-jit, the same ABI with
 *    the JIT tier: librift answers RIFT_ERR_UNSUPPORTED),
 *    "allowInjection": false, "host": "127.0.0.1" (imposters' default host),
 *    "workdir": null (anchors relative datadir and log file paths),
 *    "datadir": null, "log": {"level": "info", "file": null, "console": false}}
 * Unknown keys are refused. On success *out_engine is the engine. */
RIFT_API int32_t rift_engine_open(const char* options_json, rift_engine** out_engine,
                                  char** out_error) RIFT_NOEXCEPT;

/* Waits for the calls in progress on this engine, stops every listener, drains the workers and
 * frees the engine; NULL is RIFT_OK. The handle stays a small closed record for good (so a late
 * call answers RIFT_ERR_STATE rather than touching freed memory): a second close, or any call
 * after, returns RIFT_ERR_STATE. */
RIFT_API int32_t rift_engine_close(rift_engine* engine) RIFT_NOEXCEPT;

/* One admin API call in process. method: "GET", "POST", ...; target: path and query, e.g.
 * "/imposters?replayable=true" or "/__rift/4545/users"; headers_json: NULL, a JSON object
 * {"Name": "value"} or an array of [name, value] pairs; body: body_len bytes (NULL when 0).
 * On RIFT_OK: *out_status is the HTTP status, *out_body the body (*out_body_len bytes, plus a
 * NUL), *out_headers_json the response headers as an array of [name, value] pairs. */
RIFT_API int32_t rift_request(rift_engine* engine, const char* method, const char* target,
                              const char* headers_json, const char* body, size_t body_len,
                              int32_t* out_status, char** out_body, size_t* out_body_len,
                              char** out_headers_json, char** out_error) RIFT_NOEXCEPT;

/* Binds the real admin API over HTTP, once per engine. options_json: NULL or
 * {"host": "127.0.0.1", "port": 0 (chosen)}. *out_json: {"adminPort": N, "adminUrl": "..."}. */
RIFT_API int32_t rift_serve_admin(rift_engine* engine, const char* options_json, char** out_json,
                                  char** out_error) RIFT_NOEXCEPT;

/* Frees what an out-parameter returned; NULL is a no-op. */
RIFT_API void rift_free(void* pointer) RIFT_NOEXCEPT;

/* "RIFT_OK", "RIFT_ERR_ARGUMENT", ...; "RIFT_ERR_UNKNOWN" for another value. Static. */
RIFT_API const char* rift_status_name(int32_t status) RIFT_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* RIFT_H */
