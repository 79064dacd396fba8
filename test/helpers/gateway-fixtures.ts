import { createServer, get as httpGet } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { DestinationStream, Logger } from 'pino';
import { loadConfig } from '../../server/config.ts';
import type { Config } from '../../server/config.ts';
import { createLogger } from '../../server/shared/logger.ts';
import { precompress, renderTemplate } from '../../scripts/build-output.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The project's pinned Node 24 (the machine's bare `node` is older). */
export const NODE_BIN = join(REPO_ROOT, 'node_modules/.bin/node');

export const ENTRY_JS = '/assets/main-AB12CD34.js';
export const ENTRY_CSS = '/assets/main-EF56GH78.css';
export const CHUNK_JS = '/assets/chunk-JK90LM12.js';

/**
 * A small dist/public like the build writes (template, hashed assets with .br/.gz, locales, static/),
 * without running esbuild, so gateway tests stay fast. Returns the folder and a cleanup.
 */
export async function makePublicDir(): Promise<{ dir: string; cleanup: () => void }> {
  const base = mkdtempSync(join(tmpdir(), 'gateway-public-'));
  const dir = join(base, 'public');
  mkdirSync(join(dir, 'assets/i18n'), { recursive: true });
  const js = `import"./chunk-JK90LM12.js";console.log(${JSON.stringify('x'.repeat(400))});\n`;
  writeFileSync(join(dir, ENTRY_JS), js);
  writeFileSync(join(dir, `${ENTRY_JS}.map`), JSON.stringify({ version: 3, file: ENTRY_JS.split('/').pop(), sources: [], mappings: '' }));
  writeFileSync(join(dir, CHUNK_JS), `export const chunk=1;${'/*pad*/'.repeat(50)}\n`);
  writeFileSync(join(dir, ENTRY_CSS), `body{color:#123}${'.a{margin:0}'.repeat(50)}\n`);
  writeFileSync(join(dir, 'assets/i18n/de.json'), JSON.stringify({ login: { title: 'Anmelden' } }));
  writeFileSync(join(dir, 'assets/logo-QR34ST56.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  cpSync(join(REPO_ROOT, 'static'), dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), renderTemplate({ entry: ENTRY_JS, css: [ENTRY_CSS], appCss: ENTRY_CSS, preload: [CHUNK_JS], areas: {} }));
  await precompress(dir);
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** A Config as the environment would give it, with a fixed XSRF secret. */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig(
    { XSRF_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent', ...env },
    () => 'random-secret-random-secret-random-secret',
  );
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  server: Server;
  close: () => Promise<void>;
}

/**
 * A stand-in /v2 upstream on an ephemeral port. By default it answers every request with JSON describing what
 * it received; `/v2/slow?ms=N` answers after N ms; a custom handler replaces that behaviour.
 */
export async function startFakeUpstream(handler?: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (handler) return handler(req, res, body);
      const url = new URL(req.url ?? '/', 'http://upstream');
      const reply = () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
      };
      if (url.pathname.endsWith('/slow')) setTimeout(reply, Number(url.searchParams.get('ms') ?? 1000));
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (test/helpers/ports.ts), e.g. for "the upstream is down". */
export { unusedPort } from './ports.ts';

/** A pino logger writing into memory; `lines` are the parsed JSON objects, `text` the raw output. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[]; text: () => string } {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  // Same options as the real logger, only the destination differs.
  const logger = createLogger({ service: 'gateway', level: 'info', destination: stream as unknown as DestinationStream });
  return {
    logger,
    get lines() {
      return raw
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    text: () => raw.join(''),
  };
}

/** Listens a request handler on an ephemeral loopback port (for clients that must see raw bytes or real sockets). */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET with node:http, body left exactly as sent (no decompression). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}
