import type { ErrorRequestHandler, Response } from 'express';

/** The CONTRACT.md error body, built in one place so every gateway-made error looks the same. */
export interface ErrorBody {
  error: { statusCode: number; name: string; code: string; message: string; details?: { path: string; message: string }[] };
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = nameFor(status);
    this.status = status;
    this.code = code;
  }
}

const NAMES: Record<number, string> = {
  400: 'BadRequestError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  408: 'RequestTimeoutError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  417: 'ExpectationFailedError',
  431: 'RequestHeaderFieldsTooLargeError',
  500: 'InternalServerError',
  502: 'BadGatewayError',
  503: 'ServiceUnavailableError',
  504: 'GatewayTimeoutError',
};
const nameFor = (status: number) => NAMES[status] ?? 'Error';

export function errorBody(status: number, code: string, message: string): ErrorBody {
  return { error: { statusCode: status, name: nameFor(status), code, message } };
}

export function sendError(res: Response, status: number, code: string, message: string): void {
  res.status(status).type('application/json').send(JSON.stringify(errorBody(status, code, message)));
}

export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);

/**
 * The one error handler, registered last. Unexpected errors are logged (by pino-http via res.err) and answered
 * with a generic 500 that leaks no internals; errors that carry a status keep it.
 */
export function errorHandler(report: (error: unknown) => void): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) {
      res.err = error;
      report(error);
    }
    const code = error instanceof HttpError ? error.code : status === 500 ? 'INTERNAL_ERROR' : 'REQUEST_ERROR';
    const message = error instanceof HttpError || (status < 500 && error?.expose) ? String(error.message) : 'Internal server error';
    sendError(res, status, code, message);
  };
}
