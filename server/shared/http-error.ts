import type { Request, Response } from 'express';
import type { ApiErrorBody } from '../../contract/schemas/error.ts';

/** One issue of a rejected request: the field path (`address.city`, `where.foo`) and what is wrong. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The docs/contract.md#errors body, with whatever more a particular error carries (`current` of a 412). */
export type ErrorBody = ApiErrorBody & { error: Record<string, unknown> };

const NAMES: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  408: 'RequestTimeoutError',
  409: 'ConflictError',
  412: 'PreconditionFailedError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  417: 'ExpectationFailedError',
  429: 'TooManyRequestsError',
  431: 'RequestHeaderFieldsTooLargeError',
  500: 'InternalServerError',
  502: 'BadGatewayError',
  503: 'ServiceUnavailableError',
  504: 'GatewayTimeoutError',
};
/** The error's `name` in the body: one per status, as the contract's examples show it. */
export const nameFor = (status: number) => NAMES[status] ?? 'Error';

export interface HttpErrorOptions {
  /** The body's `name` when the status's own does not fit (ValidationError). */
  name?: string;
  details?: ErrorDetail[];
  /** Headers that go out with the answer (Allow, Retry-After, ETag, Cache-Control). */
  headers?: Record<string, string>;
  /** More members of the error object, e.g. `current` (the stored record) of a 412. */
  extra?: Record<string, unknown>;
  /** Writes the answer instead of the plain JSON write (the gateway's 413 that drains the body it refused). */
  respond?: (req: Request, res: Response, body: ErrorBody) => void;
}

/**
 * An answer a process decided on (a refused request, an unknown record): thrown or passed to next(), written by the
 * process's one error handler as the docs/contract.md#errors body. The gateway and the built-in upstream both use it.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
  readonly respond?: HttpErrorOptions['respond'];
  constructor(status: number, code: string, message: string, options: HttpErrorOptions = {}) {
    super(message);
    this.name = options.name ?? nameFor(status);
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.respond = options.respond;
  }

  toBody(): ErrorBody {
    return {
      error: {
        statusCode: this.status,
        name: this.name,
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...this.extra,
      },
    };
  }
}
