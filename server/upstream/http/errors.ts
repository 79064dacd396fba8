import { type ErrorDetail, HttpError } from '../../shared/http-error.ts';

export { type ErrorDetail, HttpError };

/*
 * The request errors the routes throw (Express 5 forwards thrown and rejected errors to the one error handler,
 * error-handler.ts, which writes the docs/contract.md#errors body).
 */

export const badRequest = (message = 'Bad request', details?: ErrorDetail[], code = 'BAD_REQUEST') => new HttpError(400, code, message, { details });
export const validationFailed = (details: ErrorDetail[], status: 400 | 422 = 422) =>
  new HttpError(status, 'VALIDATION_FAILED', `The request is invalid: ${details.map((d) => `${d.path || '(body)'}: ${d.message}`).join('; ')}`, {
    name: 'ValidationError',
    details,
  });
export const unauthorized = (message = 'Authorization required', code = 'AUTHORIZATION_REQUIRED') => new HttpError(401, code, message);
export const forbidden = (message = 'Access denied', code = 'ACCESS_DENIED') => new HttpError(403, code, message);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new HttpError(404, code, message);
export const conflict = (message = 'Conflict', code = 'CONFLICT', details?: ErrorDetail[]) => new HttpError(409, code, message, { details });
export const tooLarge = (message = 'The request body is larger than 1 MB') => new HttpError(413, 'PAYLOAD_TOO_LARGE', message);
export const tooMany = (retryAfterSeconds: number) =>
  new HttpError(429, 'RATE_LIMITED', 'Too many requests, try again later', { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
/**
 * 412: the write named a version (If-Match) that is no longer the stored one. The body carries the record as
 * it is now (`error.current`) and the ETag header its version, so the client can show the other change and
 * send the person's edit again against it.
 */
export const preconditionFailed = (current: unknown, etag: string | undefined) =>
  new HttpError(412, 'VERSION_MISMATCH', 'The record was changed by someone else since you loaded it', {
    headers: etag ? { ETag: etag } : {},
    extra: { current },
  });
