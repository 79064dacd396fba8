import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';

/** What the proxy knows about the attempt in flight for one request. */
export interface Attempt {
  proxyReq: ClientRequest;
  proxyRes?: IncomingMessage;
  /** The connection's byte count when this attempt got it: more later means the upstream began to answer. */
  bytesReadBefore: number;
  answered: boolean;
  retried: boolean;
  faulted: boolean;
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The keep-alive race: the upstream closes an idle pooled connection at the moment the gateway sends a request on
 * it, and the request fails with a reset before any byte of an answer came back. Only then, and only for a GET or
 * HEAD without a body, is it sent once more on a fresh connection: nothing else is safe to repeat (a POST that
 * reached the upstream must not run twice).
 */
export function isRetryable(req: IncomingMessage, res: ServerResponse, error: Error & { code?: string }, attempt: Attempt | undefined): boolean {
  return (
    !!attempt &&
    !attempt.retried &&
    !attempt.answered &&
    (attempt.proxyReq.socket?.bytesRead ?? 0) === attempt.bytesReadBefore &&
    attempt.proxyReq.reusedSocket &&
    (error.code === 'ECONNRESET' || error.code === 'EPIPE') &&
    (req.method === 'GET' || req.method === 'HEAD') &&
    !hasBody(req) &&
    !res.headersSent &&
    !res.destroyed
  );
}
