import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { gunzipSync, inflateSync } from 'node:zlib';
import { NODE_BIN, REPO_ROOT } from './gateway-fixtures.ts';
import { UPSTREAM_NODE_FLAGS } from '../../server/shared/upstream-flags.ts';

/* Pieces of the privacy journey: a fake Sentry, the built-in upstream on its own with its full log, and a TCP
 * switch between gateway and upstream that can be turned off to provoke a gateway error. */

export interface SentryEnvelope {
  path: string;
  /** The SDK that sent it, from the envelope header ("sentry.javascript.browser" / "...node"). */
  sdk: string;
  /** Item types in the envelope ("event", "session", "client_report", ...). */
  types: string[];
  text: string;
}

/** A Sentry ingest stand-in on loopback: stores every envelope it gets, answers 200 (with CORS for the browser). */
export async function startFakeSentry(): Promise<{ dsn: string; envelopes: SentryEnvelope[]; close: () => Promise<void> }> {
  const envelopes: SentryEnvelope[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const encoding = req.headers['content-encoding'];
      if (encoding === 'gzip') body = gunzipSync(body);
      if (encoding === 'deflate') body = inflateSync(body);
      const text = body.toString('utf8');
      if (text) {
        const lines = text.split('\n');
        let sdk = '';
        try {
          sdk = String((JSON.parse(lines[0]) as { sdk?: { name?: string } }).sdk?.name ?? '');
        } catch {
          // not an envelope header: kept as text all the same
        }
        const types = lines.flatMap((line) => {
          try {
            const value = JSON.parse(line) as { type?: unknown };
            return typeof value?.type === 'string' ? [value.type] : [];
          } catch {
            return [];
          }
        });
        envelopes.push({ path: req.url ?? '', sdk, types, text });
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface LoggedUpstream {
  url: string;
  port: number;
  log: () => string;
  stop: () => Promise<void>;
}

/** server/upstream/main.ts on its own, every log line kept. */
export async function startLoggedUpstream(dataDir: string): Promise<LoggedUpstream> {
  const child: ChildProcess = fork(join(REPO_ROOT, 'server/upstream/main.ts'), [], {
    execPath: NODE_BIN,
    execArgv: [...UPSTREAM_NODE_FLAGS],
    env: { PATH: process.env.PATH, UPSTREAM_PORT: '0', DATA_DIR: dataDir, DEMO_DATA: 'true', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { type?: string; port?: number }) => m?.type === 'listening' && resolve(m.port!));
    void exited.then(() => reject(new Error(`upstream exited during start-up\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** TCP pass-through to the upstream; `off` cuts every new connection (the gateway then answers 502). */
export async function startSwitch(targetPort: number): Promise<{ url: string; on: boolean; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { on: true };
  const server = createTcpServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (!state.on) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get on() {
      return state.on;
    },
    set on(value: boolean) {
      state.on = value;
      // Keep-alive connections made while it was on would otherwise still get through.
      if (!value) for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The ways a value can show up in a log or a report: as is, URL-encoded, JSON-escaped, form-encoded. */
export function spellings(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1), encodeURIComponent(value).replace(/%20/g, '+')]);
  forms.add(encodeURIComponent(encodeURIComponent(value)));
  return [...forms];
}
