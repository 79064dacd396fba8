/** One issue of a rejected request: the field path (`address.city`, `where.foo`) and what is wrong. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * A request error that the error handler turns into the docs/contract.md#errors JSON body. Routes throw these
 * (Express 5 forwards thrown and rejected errors to the handler) through the small helpers below.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errorName: string;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  /** More members of the error object, e.g. `current` (the stored record) of a 412. */
  readonly extra: Record<string, unknown>;
  constructor(
    status: number,
    errorName: string,
    code: string,
    message: string,
    details?: ErrorDetail[],
    headers: Record<string, string> = {},
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.extra = extra;
    this.status = status;
    this.errorName = errorName;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
  toBody() {
    return {
      error: {
        statusCode: this.status,
        name: this.errorName,
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...this.extra,
      },
    };
  }
}

export const badRequest = (message = 'Bad request', details?: ErrorDetail[], code = 'BAD_REQUEST') =>
  new HttpError(400, 'BadRequestError', code, message, details);
export const validationFailed = (details: ErrorDetail[], status: 400 | 422 = 422) =>
  new HttpError(
    status,
    'ValidationError',
    'VALIDATION_FAILED',
    `The request is invalid: ${details.map((d) => `${d.path || '(body)'}: ${d.message}`).join('; ')}`,
    details,
  );
export const unauthorized = (message = 'Authorization required', code = 'AUTHORIZATION_REQUIRED') => new HttpError(401, 'UnauthorizedError', code, message);
export const forbidden = (message = 'Access denied', code = 'ACCESS_DENIED') => new HttpError(403, 'ForbiddenError', code, message);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new HttpError(404, 'NotFoundError', code, message);
export const conflict = (message = 'Conflict', code = 'CONFLICT', details?: ErrorDetail[]) => new HttpError(409, 'ConflictError', code, message, details);
export const tooLarge = (message = 'The request body is larger than 1 MB') => new HttpError(413, 'PayloadTooLargeError', 'PAYLOAD_TOO_LARGE', message);
export const tooMany = (retryAfterSeconds: number) =>
  new HttpError(429, 'TooManyRequestsError', 'RATE_LIMITED', 'Too many requests, try again later', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
/**
 * 412: the write named a version (If-Match) that is no longer the stored one. The body carries the record as
 * it is now (`error.current`) and the ETag header its version, so the client can show the other change and
 * send the person's edit again against it.
 */
export const preconditionFailed = (current: unknown, etag: string | undefined) =>
  new HttpError(
    412,
    'PreconditionFailedError',
    'VERSION_MISMATCH',
    'The record was changed by someone else since you loaded it',
    undefined,
    etag ? { ETag: etag } : {},
    { current },
  );
