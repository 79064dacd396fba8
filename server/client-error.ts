import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from './errors.ts';
import { PERMISSIONS_POLICY } from './middleware/security-headers.ts';

/**
 * Requests Node's parser refuses before Express sees them (bad request line, bogus version, the HTTP/2
 * preface, conflicting lengths, an over-long head) still get the JSON error format of every other gateway
 * error, instead of Node's bare "400 Bad Request". Nothing of the request is echoed back.
 */
const ANSWERS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'The request head is too large'],
  HPE_URI_TOO_LONG: [414, 'URI Too Long', 'URI_TOO_LONG', 'The request target is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request took too long to arrive'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'CHUNK_EXTENSIONS_TOO_LARGE', 'Chunk extensions are too large'],
};
const BAD_REQUEST: [number, string, string, string] = [400, 'Bad Request', 'MALFORMED_REQUEST', 'The request is not valid HTTP/1.1'];

/** How long a refused connection may still deliver bytes (read and dropped) before it is cut. */
const LINGER_MS = 1000;

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Nothing to answer on: the client is gone, or an answer is already being written on this connection.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify(errorBody(status, code, message));
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nPermissions-Policy: ${PERMISSIONS_POLICY}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Closing with unread bytes would reset the connection and could overtake the answer: read on briefly.
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** An Expect other than 100-continue (Node would answer a bare 417): the same answer in the JSON error format. */
export function answerUnmetExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(errorBody(417, 'EXPECTATION_FAILED', 'Only Expect: 100-continue is supported'));
  res.writeHead(417, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Permissions-Policy': PERMISSIONS_POLICY,
    Connection: 'close',
  });
  res.end(body);
}
