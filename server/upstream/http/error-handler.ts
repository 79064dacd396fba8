import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError, notFound, tooLarge, badRequest } from './errors.ts';

/** Unknown paths under the API answer in the JSON error format, not Express's HTML page. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`Unknown path ${req.method} ${req.path}`, 'UNKNOWN_PATH'));
};

/** The one error handler, registered last: every failure leaves as the docs/contract.md#errors JSON body. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let httpError: HttpError;
    if (error instanceof HttpError) httpError = error;
    else if (error?.type === 'entity.too.large') httpError = tooLarge();
    else if (error?.type === 'entity.parse.failed') httpError = badRequest('The request body is not valid JSON', undefined, 'INVALID_JSON');
    else if (typeof error?.status === 'number' && error.status >= 400 && error.status < 500) {
      httpError = new HttpError(error.status, 'BAD_REQUEST', 'Bad request', { name: 'BadRequestError' });
    } else {
      // Only the error itself: request bodies may hold patient data and are never logged.
      logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
      httpError = new HttpError(500, 'INTERNAL_ERROR', 'Internal server error');
    }
    if (res.headersSent) return;
    res.status(httpError.status).set(httpError.headers).json(httpError.toBody());
  };
}
