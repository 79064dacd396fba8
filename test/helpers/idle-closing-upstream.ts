import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * An upstream that closes a keep-alive connection exactly `idleMs` after its last answer, the way nginx's
 * keepalive_timeout does: no `Keep-Alive: timeout=` hint, no grace period. A client that reuses a connection at
 * that moment sends its request into a closing socket and gets a reset (the keep-alive race). It answers every
 * request with a small JSON body and counts what it received.
 */

export interface IdleClosingUpstream {
  url: string;
  server: Server;
  /** Requests received, connections opened, and connections the client closed (before the idle timer did). */
  counts: { requests: number; connections: number; closedByClient: number };
  close: () => Promise<void>;
}

export async function startIdleClosingUpstream(idleMs: number): Promise<IdleClosingUpstream> {
  const counts = { requests: 0, connections: 0, closedByClient: 0 };
  const timers = new Map<Socket, NodeJS.Timeout>();
  // Node's own keep-alive timer would announce itself and wait a grace second longer: off, this one replaces it.
  const server = createServer({ keepAliveTimeout: 0, requestTimeout: 0 }, (req, res) => {
    counts.requests++;
    clearTimeout(timers.get(req.socket));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
    res.on('finish', () => {
      const socket = req.socket;
      timers.set(
        socket,
        setTimeout(() => socket.destroy(), idleMs),
      );
    });
  });
  server.on('connection', (socket: Socket) => {
    counts.connections++;
    socket.on('end', () => counts.closedByClient++);
    socket.on('close', () => {
      clearTimeout(timers.get(socket));
      timers.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers.values()) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
