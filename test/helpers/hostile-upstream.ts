import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/*
 * An upstream that answers with raw bytes chosen by the request path: odd but possible answers of somebody
 * else's /v2 API (hop-by-hop fields, trailers, protocol switches, broken framing, garbage). It reads the request
 * head only, so it also answers before a body arrived.
 */

const json = '{"ok":true}';

export const HOSTILE_ANSWERS: Record<string, string> = {
  'switching-protocols': 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  'early-hints': `HTTP/1.1 103 Early Hints\r\nLink: </x.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
  trailers: `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\nX-Checksum: 1\r\n\r\n`,
  'hop-by-hop': `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive, Content-Length, X-Hop\r\nX-Hop: 1\r\nKeep-Alive: timeout=1\r\nUpgrade: h2c\r\nProxy-Authenticate: Basic\r\nTE: trailers\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
  'close-delimited': `HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n${json}`,
  'conflicting-lengths': `HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n${json}`,
  'length-and-chunked': `HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n`,
  'invalid-header': `HTTP/1.1 200 OK\r\nX-Bad: a\u0000b\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
  'status-999': `HTTP/1.1 999 Whatever\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
  'short-body': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ok":',
  'head-only': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n',
  garbage: 'HELLO THERE\r\n\r\n',
  nothing: '',
  'gzip-chunked': `HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
};

export interface HostileUpstream {
  url: string;
  close: () => Promise<void>;
}

export async function startHostileUpstream(): Promise<HostileUpstream> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = /^\S+ \/v2\/([\w-]+)/.exec(head)?.[1] ?? '';
      const answer = HOSTILE_ANSWERS[path];
      if (answer === undefined || answer === '') socket.destroy();
      else socket.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
