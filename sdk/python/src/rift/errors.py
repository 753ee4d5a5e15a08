"""Errors raised by the SDK."""

from __future__ import annotations


class RiftException(Exception):
    """Base of every SDK error."""


class RiftLoadError(RiftException):
    """librift could not be found or loaded, or its ABI version is not the SDK's."""


class RiftError(RiftException):
    """librift answered a non-zero status: code (e.g. -1), name (RIFT_ERR_ARGUMENT), message."""

    def __init__(self, code: int, name: str, message: str):
        super().__init__(f"{name} ({code}): {message}")
        self.code = code
        self.name = name
        self.message = message


class RiftHttpError(RiftException):
    """The admin API refused a call (an HTTP status of 400 or more): status and Mountebank body."""

    def __init__(self, method: str, target: str, status: int, body: str):
        super().__init__(f"{method} {target} answered {status}: {body}")
        self.status = status
        self.body = body
        try:
            import json
            errors = json.loads(body).get("errors", [])
            self.code = errors[0].get("code") if errors else None
        except Exception:  # noqa: BLE001 - the body need not be JSON
            self.code = None


class RiftStartError(RiftException):
    """A spawned rift did not start or did not answer in time."""


class VerificationError(AssertionError, RiftException):
    """verify() found a different number of matching requests than expected."""
