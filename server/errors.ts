import type { ErrorRequestHandler, Response } from 'express';
import { type ErrorBody, HttpError } from './shared/http-error.ts';

export { type ErrorBody, HttpError };

/** The docs/contract.md#errors error body, built in one place so every gateway-made error looks the same. */
export function errorBody(status: number, code: string, message: string): ErrorBody {
  return new HttpError(status, code, message).toBody();
}

function sendError(res: Response, status: number, code: string, message: string): void {
  res
    .status(status)
    .type('application/json')
    .send(JSON.stringify(errorBody(status, code, message)));
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new HttpError(404, code, message);

/**
 * The one error handler, registered last: every error answer of the gateway's own is written here. HttpErrors are
 * answers middleware decided on and go out as they are. Anything else is unexpected: logged (by the request log via
 * res.err), reported once, and answered with a generic 500 that leaks no internals (errors that carry a 4xx
 * status, such as a body parser's, keep it). Two answers cannot come here, and say why where they are written:
 * the proxy's 502 when the upstream fails (http-proxy-middleware's error event has no next) and the answer to a
 * request Node's parser rejected (server/client-error.ts: there is no Express request at all).
 */
export function errorHandler(report: (error: unknown) => void): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof HttpError) {
      res.set(error.headers);
      if (error.respond) error.respond(req, res, errorBody(error.status, error.code, error.message));
      else sendError(res, error.status, error.code, error.message);
      return;
    }
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) {
      res.err = error;
      report(error);
    }
    const message = status < 500 && error?.expose ? String(error.message) : 'Internal server error';
    sendError(res, status, status === 500 ? 'INTERNAL_ERROR' : 'REQUEST_ERROR', message);
  };
}
