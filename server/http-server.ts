import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { answerClientError, answerUnmetExpectation } from './client-error.ts';
import { METHODS } from './middleware/request-line.ts';
import { PERMISSIONS_POLICY } from './middleware/security-headers.ts';

/** When each connection last finished an answer, and how many it is working on: what a graceful shutdown needs. */
type Connections = Map<Socket, { busy: number; idleSince: number }>;

export interface GatewayServer {
  server: Server;
  connections: Connections;
}

/** The node:http server with the gateway's limits and its answers for what never reaches Express. */
export function createGatewayServer(headersTimeoutMs: number): GatewayServer {
  // Node checks the timeouts below only every connectionsCheckingInterval (default 30 s); 2 s keeps a slow-loris
  // connection from being held up to 30 s longer than the limit says.
  const server = createServer({ connectionsCheckingInterval: 2_000 });
  // Slow-loris limits: the full header block within HEADERS_TIMEOUT_MS (20 s unless set), the full request within 2 min.
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 5_000;
  // Requests Node's parser refuses (bogus version, HTTP/2 preface, conflicting lengths, an over-long head) get the
  // JSON error format too, instead of Node's bare 400.
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerUnmetExpectation);
  const connections: Connections = new Map();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { busy: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res) => {
    const state = connections.get(req.socket);
    if (!state) return;
    state.busy++;
    res.once('close', () => {
      state.busy--;
      state.idleSince = Date.now();
    });
  });
  // CONNECT asks for a tunnel, which this server never offers; without a listener Node drops the socket with no
  // answer at all. A plain 405 tells clients and scanners the same thing in HTTP.
  server.on('connect', (_req, socket) => {
    const body = JSON.stringify({ error: { statusCode: 405, name: 'MethodNotAllowedError', code: 'METHOD_NOT_ALLOWED', message: 'CONNECT is not supported' } });
    socket.on('error', () => {});
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${METHODS.join(', ')}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nPermissions-Policy: ${PERMISSIONS_POLICY}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return { server, connections };
}

/**
 * Binds the port before the app exists (without PUBLIC_URL, mailed links point at http://localhost:<the port>, and
 * with PORT=0 that port is known only now). Requests that arrive meanwhile wait; `serve` hands them to the app.
 */
export async function listenEarly(
  server: Server,
  port: number,
  host: string | undefined,
  logger: Logger,
): Promise<{ port: number; serve: (app: (req: IncomingMessage, res: ServerResponse) => void) => void }> {
  const early: [IncomingMessage, ServerResponse][] = [];
  const hold = (req: IncomingMessage, res: ServerResponse) => early.push([req, res]);
  server.on('request', hold);
  const cannotListen = (error: Error) => {
    logger.fatal({ err: error }, 'gateway could not listen');
    logger.flush(() => process.exit(1));
  };
  server.once('error', cannotListen);
  const bound = await new Promise<number>((resolve) => {
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
  server.off('error', cannotListen);
  return {
    port: bound,
    serve: (app) => {
      server.off('request', hold);
      server.on('request', app);
      for (const [req, res] of early.splice(0)) app(req, res);
    },
  };
}

/**
 * Stops taking connections and lets the open ones finish. Open keep-alive connections are not cut at once
 * (http.Server.close() would do that): a client may be sending its next request on one right now, and that request
 * would die with ECONNRESET. Instead every answer now carries Connection: close (app.ts asks isClosing), a
 * connection idle for 1 s is closed, and after the grace period whatever is left. `whenClosed` runs after that.
 */
export function closeGracefully({ server, connections }: GatewayServer, graceMs: number, logger: Logger, whenClosed: () => Promise<void>): void {
  NetServer.prototype.close.call(server);
  const idleSweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, state] of connections) if (state.busy === 0 && now - state.idleSince >= 1000) socket.destroy();
  }, 100);
  const force = setTimeout(() => {
    logger.warn('grace period over: closing remaining connections');
    server.closeAllConnections();
  }, graceMs);
  server.once('close', async () => {
    clearInterval(idleSweep);
    clearTimeout(force);
    await whenClosed();
  });
}
