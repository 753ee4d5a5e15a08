/** A librift carrier failure: `status` is the negative RIFT_* status, `code` its name. */
export class RiftError extends Error {
  /** The RIFT_* status name, e.g. "RIFT_ERR_ARGUMENT" (Node's convention: `code` is a string). */
  readonly code: string;
  /** The numeric status, e.g. -1. */
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(`${code} (${status}): ${message}`);
    this.name = 'RiftError';
    this.status = status;
    this.code = code;
  }
}

/** The admin API refused a call (e.g. 400 for a bad imposter): the HTTP status and Mountebank's errors. */
export class RiftApiError extends Error {
  readonly statusCode: number;
  readonly body: string;
  readonly errors: Array<{ code?: string; message?: string }>;
  constructor(what: string, statusCode: number, body: string) {
    let errors: Array<{ code?: string; message?: string }> = [];
    try { errors = (JSON.parse(body) as { errors?: typeof errors }).errors ?? []; } catch { /* not JSON */ }
    const detail = errors.length ? errors.map((e) => `${e.code ?? ''}: ${e.message ?? ''}`).join('; ') : body;
    super(`${what}: HTTP ${statusCode}: ${detail}`);
    this.name = 'RiftApiError';
    this.statusCode = statusCode;
    this.body = body;
    this.errors = errors;
  }
}

/** verify() found a different number of matching requests than expected. */
export class VerificationError extends Error {
  readonly expected: string;
  readonly actual: number;
  constructor(message: string, expected: string, actual: number) {
    super(message);
    this.name = 'VerificationError';
    this.expected = expected;
    this.actual = actual;
  }
}
