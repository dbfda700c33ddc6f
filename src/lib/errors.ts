// The domain errors; one middleware maps them to HTTP. Services throw these, never HTTP codes.

export class AppError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) { super(400, message); }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'invalid username, password or token') { super(401, message); }
}
export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') { super(403, message); }
}
/** A user one side has blocked (the API's 403); a form shows it beside the name typed. */
export class BlockedError extends ForbiddenError {}
export class NotFoundError extends AppError {
  constructor(message = 'The target couldn\'t be found.') { super(404, message); }
}
/** The action exists but may not be taken on this object now (Gitea's 405: a merge refused, a user's repository given to a team). */
export class NotAllowedError extends AppError {
  constructor(message: string) { super(405, message); }
}
/** A state the change needs does not hold (Gitea's 412: a merged pull request, open dependencies). */
export class PreconditionFailedError extends AppError {
  constructor(message: string) { super(412, message); }
}
/** A failure of the server's own that the client cannot fix (a row that vanished mid-write). */
export class InternalError extends AppError {
  constructor(message: string) { super(500, message); }
}
export class ConflictError extends AppError {
  constructor(message: string) { super(409, message); }
}
/** A body that parsed but does not validate; names the field. */
export class InvalidError extends AppError {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(422, message);
    this.field = field;
  }
}
/**
 * Text holding a NUL byte (U+0000), which PostgreSQL neither stores nor compares: bad input, as
 * any field that fails validation (SQLite takes it, so only the PostgreSQL layer raises this).
 */
export class NulByteError extends InvalidError {
  constructor() { super('invalid input: text may not contain a NUL byte (\\u0000)'); }
}
export class ArchivedError extends AppError {
  constructor(message = 'repo is archived') { super(423, message); }
}
/** An upload larger than a configured limit (a package's size limit). */
export class PayloadTooLargeError extends AppError {
  constructor(message = 'request entity too large') { super(413, message); }
}
/** Work the server cannot take on right now (a full queue); the client may try again. */
export class UnavailableError extends AppError {
  constructor(message = 'service unavailable') { super(503, message); }
}
/** A body of a media type the endpoint does not read (git's and LFS's own types). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Unsupported Media Type') { super(415, message); }
}
/** A byte range or upload offset that does not fit (a chunked upload at the wrong offset). */
export class RangeNotSatisfiableError extends AppError {
  constructor(message = 'requested range not satisfiable') { super(416, message); }
}
/** Too many attempts (failed sign-ins from one address); `retryAfter` seconds until the next may pass. */
export class TooManyRequestsError extends AppError {
  readonly retryAfter: number;
  constructor(retryAfter: number, message = 'too many failed sign-in attempts, try again later') {
    super(429, message);
    this.retryAfter = retryAfter;
  }
}

/**
 * An OAuth2 protocol error (RFC 6749 4.1.2.1 and 5.2): `code` is the `error` field, the message
 * its `error_description`. The provider's routes answer it as RFC 6749 JSON, or as a redirect.
 */
export class OAuth2Error extends AppError {
  constructor(readonly code: string, description: string, status = 400) { super(status, description); }
}

// The executable's bundle is minified without function names (they cost memory at every start):
// these keep the names their logs and `err.name` show.
for (const [name, type] of Object.entries({
  AppError, BadRequestError, UnauthorizedError, ForbiddenError, NotFoundError, NotAllowedError, PreconditionFailedError, InternalError,
  ConflictError, InvalidError, NulByteError, ArchivedError, PayloadTooLargeError, UnavailableError, UnsupportedMediaTypeError, RangeNotSatisfiableError,
  TooManyRequestsError, OAuth2Error,
})) Object.defineProperty(type, 'name', { value: name });
