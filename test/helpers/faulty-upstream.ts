import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A /v2 upstream that fails on demand, for the fault tests (server and client side):
 *   ok       answers like the real upstream would (a created comment, a list, /auth/me)
 *   down     is not listening: connections are refused
 *   reset    cuts the connection as soon as a request arrived (nothing answered)
 *   midbody  sends a 200 head announcing 4 KB, 100 bytes of it, then cuts the connection
 *   slow     never answers (the gateway's PROXY_TIMEOUT_MS must end it)
 *   garbage  answers bytes that are not HTTP at all
 * Every request that reached it is recorded, so a test can prove a POST arrived exactly once.
 */

export type FaultMode = 'ok' | 'down' | 'reset' | 'midbody' | 'slow' | 'garbage';

export interface Recorded {
  method: string;
  url: string;
  body: string;
  mode: FaultMode;
}

export interface FaultyUpstream {
  url: string;
  requests: Recorded[];
  setMode: (mode: FaultMode) => Promise<void>;
  posts: () => Recorded[];
  close: () => Promise<void>;
}

const now = '2026-11-22T10:00:00.000Z';

function answerOk(req: IncomingMessage, res: ServerResponse, body: string): void {
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const path = (req.url ?? '').split('?')[0];
  if (req.method === 'POST' && path === '/v2/comments') {
    const input = JSON.parse(body || '{}') as { patientId?: string; text?: string };
    return json(201, {
      id: `c-${Date.now()}`,
      patientId: input.patientId,
      authorId: 'me',
      authorName: 'Clara Coach',
      text: input.text,
      createdAt: now,
      updatedAt: now,
    });
  }
  // The gateway asks who a token belongs to before it hands out the draft key.
  if (req.method === 'GET' && path === '/v2/auth/me') return json(200, { id: 'me', email: 'coach@example.org' });
  if (req.method === 'GET' && path === '/v2/comments') {
    res.setHeader('X-Total-Count', '0');
    return json(200, []);
  }
  json(200, { ok: true, method: req.method, url: req.url });
}

export async function startFaultyUpstream(): Promise<FaultyUpstream> {
  let mode: FaultMode = 'ok';
  const requests: Recorded[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, mode });
      switch (mode) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'midbody':
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4096' });
          res.write(`{"id":"c-1","text":"${'x'.repeat(80)}`);
          setTimeout(() => req.socket.destroy(), 20);
          return;
        case 'slow':
          held.push(res);
          return;
        case 'garbage':
          req.socket.end('SSH-2.0-OpenSSH_9.6\r\n\u0000\u00ff not http at all\r\n\r\n');
          return;
        default:
          answerOk(req, res, body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const res of held.splice(0)) res.socket?.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    posts: () => requests.filter((r) => r.method === 'POST'),
    async setMode(next) {
      if (next === mode) return;
      if (next === 'down') await stop();
      else if (mode === 'down') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      for (const res of held.splice(0)) res.socket?.destroy();
      mode = next;
    },
    close: async () => {
      if (mode !== 'down') await stop();
    },
  };
}
