"""Rift's Python SDK: run Rift in process (librift), as a child process, or connect to one.

    with Rift.embedded() as rift:
        users = rift.create(imposter("users").port(4545).record()
                            .stub(on_get("/users/1").will_return(ok_json({"id": 1}))))
        assert users.get("/users/1").json() == {"id": 1}
        users.verify(on_get("/users/1"), times(1))
"""

from .client import Imposter, Rift, verify
from .dsl import (ImposterBuilder, StubResponse, binary, Predicate, RequestMatcher, Stub, and_, at_least, at_most,
                  contains, deep_equals, ends_with, equals, exists, fault, imposter, inject,
                  inject_predicate, is_, json_response, matches, never, not_, ok, ok_json, on_delete,
                  on_get, on_patch, on_post, on_put, on_request, or_, proxy, starts_with, status,
                  stub, times)
from .errors import (RiftError, RiftException, RiftHttpError, RiftLoadError, RiftStartError,
                     VerificationError)
from .transport import Response, RiftProcess

__version__ = "0.1.0"

__all__ = [
    "Rift", "Imposter", "verify", "Response", "RiftProcess",
    "ImposterBuilder", "StubResponse", "binary", "Predicate", "RequestMatcher", "Stub", "imposter", "stub",
    "on_request", "on_get", "on_post", "on_put", "on_delete", "on_patch",
    "equals", "deep_equals", "contains", "starts_with", "ends_with", "matches", "exists",
    "not_", "or_", "and_", "inject_predicate",
    "is_", "ok", "ok_json", "json_response", "status", "proxy", "inject", "fault",
    "times", "never", "at_least", "at_most",
    "RiftException", "RiftError", "RiftHttpError", "RiftLoadError", "RiftStartError",
    "VerificationError",
]
