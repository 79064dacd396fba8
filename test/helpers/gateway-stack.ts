import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnGateway } from './gateway-process.ts';
import type { GatewayProcess } from './gateway-process.ts';

/*
 * Helpers for the hardening tests: the real gateway process (optionally with the forked built-in upstream on a
 * temporary data folder), raw HTTP over node:net (hostile requests that node:http would refuse to send), and a
 * small cookie/XSRF session for /v2 writes.
 */

export { XSRF_SECRET } from './gateway-spawn.ts';
import { XSRF_SECRET } from './gateway-spawn.ts';

export interface Stack extends GatewayProcess {
  dataDir: string;
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node server/index.ts` with the built-in upstream (demo data) unless env has UPSTREAM_URL. */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hardening-data-'));
  const gateway = await spawnGateway({ DATA_DIR: dataDir, DEMO_DATA: 'true', XSRF_SECRET, LOG_LEVEL: 'info', ...env });
  return {
    ...gateway,
    dataDir,
    async stop() {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGTERM');
      const kill = setTimeout(() => gateway.child.kill('SIGKILL'), 15_000);
      const result = await gateway.exited;
      clearTimeout(kill);
      rmSync(dataDir, { recursive: true, force: true });
      return result;
    },
  };
}

export interface RawAnswer {
  /** 0 when the connection closed without a status line. */
  status: number;
  statusLine: string;
  headers: Record<string, string[]>;
  body: Buffer;
  /** Everything received, head included. */
  raw: Buffer;
  /** 'answered' once a full response arrived, 'closed' when the server closed first, 'timeout' otherwise. */
  outcome: 'answered' | 'closed' | 'timeout';
}

function parseHead(head: string) {
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  return { statusLine, status: match ? Number(match[1]) : 0, headers };
}

/** Decodes a complete chunked body, or null while it is incomplete. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return data.indexOf('\r\n\r\n', lineEnd) >= 0 || data.length >= lineEnd + 4 ? Buffer.concat(parts) : null;
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Writes `bytes` to a fresh TCP connection and reads the first response: done when Content-Length bytes or
 * the last chunk arrived, when the server closes, or after timeoutMs.
 */
export function rawRequest(port: number, bytes: string | Buffer | (string | Buffer)[], timeoutMs = 5000, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (outcome: RawAnswer['outcome']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const headEnd = raw.indexOf('\r\n\r\n');
      const head = parseHead(raw.subarray(0, headEnd < 0 ? raw.length : headEnd).toString('latin1'));
      let body: Buffer = headEnd < 0 ? Buffer.alloc(0) : raw.subarray(headEnd + 4);
      if (head.headers['transfer-encoding']?.includes('chunked')) body = dechunk(body) ?? body;
      resolve({ ...head, body, raw, outcome: head.status === 0 && outcome === 'answered' ? 'closed' : outcome });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    // closed: the server ended the connection, which also delimits a body that has no length (HTTP/1.1 3.3.3).
    const complete = (closed: boolean) => {
      const raw = Buffer.concat(chunks);
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) return false;
      const head = parseHead(raw.subarray(0, headEnd).toString('latin1'));
      const body = raw.subarray(headEnd + 4);
      if (method === 'HEAD' || head.status === 204 || head.status === 304) return true;
      const length = head.headers['content-length']?.[0];
      if (length !== undefined) return body.length >= Number(length);
      if (head.headers['transfer-encoding']?.includes('chunked')) return dechunk(body) !== null;
      return closed;
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(false)) finish('answered');
    });
    socket.on('end', () => finish(complete(true) ? 'answered' : 'closed'));
    socket.on('close', () => finish(complete(true) ? 'answered' : 'closed'));
    // A server that refuses a request early (431) may reset the connection while we still write; what it answered counts.
    socket.on('error', () => finish(complete(true) ? 'answered' : 'closed'));
    socket.on('connect', () => {
      for (const part of Array.isArray(bytes) ? bytes : [bytes]) socket.write(part);
    });
  });
}

/** A browser-like session: keeps the gateway's cookies and sends X-XSRF-TOKEN on writes, as the client does. */
export class Session {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  token: string | undefined;
  constructor(base: string) {
    this.base = base;
  }
  #remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  get xsrf(): string {
    return decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? '');
  }
  async fetch(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    if (method !== 'GET' && !this.cookies.has('XSRF-TOKEN')) await this.fetch('/login');
    const headers: Record<string, string> = {
      Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      ...(method !== 'GET' ? { 'X-XSRF-TOKEN': this.xsrf } : {}),
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...init.headers,
    };
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      redirect: 'manual',
    });
    this.#remember(response);
    return response;
  }
  async login(email: string, password: string): Promise<Record<string, unknown>> {
    const response = await this.fetch('/v2/auth/login', { method: 'POST', body: { email, password } });
    if (response.status !== 200) throw new Error(`login ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { id: string; user: Record<string, unknown> };
    this.token = body.id;
    return body.user;
  }
}

export const DEMO_PASSWORD = 'Demo-Passwort-1';
