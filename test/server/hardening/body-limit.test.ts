import { expect } from 'vitest';
import { connect } from 'node:net';
import { startFakeUpstream } from '../../helpers/gateway-fixtures.ts';
import { gatewayProcessTest } from '../../helpers/gateway-test.ts';
import { Session, XSRF_SECRET, rawRequest } from '../../helpers/gateway-stack.ts';

/*
 * With any upstream (here one that accepts everything), a /v2 body over 1 MB is refused by the gateway itself, and
 * the client can read that 413 while it is still sending: the gateway answers at once, reads the rest of the body
 * and drops it, and only then closes (closing with unread bytes would make the kernel reset the connection, and
 * the client would see ECONNRESET or EPIPE instead of the answer).
 */

const test = gatewayProcessTest(startFakeUpstream, { XSRF_SECRET, LOG_LEVEL: 'warn' })
  /** A browser's session with the gateway, holding its XSRF cookies. */
  .extend('session', { scope: 'file' }, async ({ gateway }) => {
    const session = new Session(gateway.url);
    await session.fetch('/v2/app-settings/version');
    return session;
  })
  .extend(
    'slowUpload',
    { scope: 'file' },
    ({ gateway }) =>
      (head: string, pieces: Buffer[], before: number) =>
        uploadSlowly(gateway.port, head, pieces, before),
  )
  /** The head lines of a JSON request in the session. */
  .extend('headers', { scope: 'file' }, ({ session }) => () => {
    const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return `Host: localhost\r\nContent-Type: application/json\r\nCookie: ${cookie}\r\nX-XSRF-TOKEN: ${session.xsrf}\r\n`;
  });
// The process starts here, with a hook's time rather than the first test's.
test.beforeAll(({ session: _ }) => {}, 60_000);

const MB = 1024 * 1024;

test('a /v2 body announced over 1 MB gets 413 JSON and never reaches the upstream', async ({ upstream, session }) => {
  upstream.requests.length = 0;
  const res = await session.fetch('/v2/comments', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(MB + 1) }) });
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ error: expect.objectContaining({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' }) });
  expect(upstream.requests).toEqual([]);
  // Just under the limit passes through untouched.
  const fits = await session.fetch('/v2/comments', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(1000 * 1000) }) });
  expect(fits.status).toBe(200);
  expect(upstream.requests).toHaveLength(1);
}, 20_000);

test('a 2 MB body gets its readable 413, 20 times out of 20', async ({ session }) => {
  const body = JSON.stringify({ patientId: 'x', text: 'x'.repeat(2 * MB) });
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await session.fetch('/v2/comments', { method: 'POST', body });
    statuses.push(res.status);
    expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  }
  expect(statuses).toEqual(Array(20).fill(413));
}, 60_000);

interface SlowUpload {
  /** The answer's head and body, as received. */
  answer: string;
  /** Whether the whole answer arrived while the client held back the rest of its body. */
  answeredWhileSending: boolean;
  /** What ended the connection after the client wrote everything: 'end' is a clean close. */
  ending: 'end' | 'error' | 'timeout';
  error?: string;
}

/**
 * Writes the head and the first `before` pieces of the body, then waits (up to 5 s) for the complete answer before
 * it writes the rest: as a browser does, which sends its whole body whatever the server said. A gateway that
 * answered only after reading the whole body would leave it waiting.
 */
function uploadSlowly(port: number, head: string, pieces: Buffer[], before: number): Promise<SlowUpload> {
  return new Promise((resolve) => {
    // Half-open allowed: the client goes on writing after the gateway's FIN, as a browser sending its body does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let answered: () => void = () => {};
    const complete = new Promise<boolean>((r) => {
      answered = () => r(true);
      setTimeout(() => r(false), 5000);
    });
    let answeredWhileSending = false;
    let ended = false;
    let failure: string | undefined;
    let settle: () => void = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    const timer = setTimeout(settle, 20_000);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? -1);
      if (length >= 0 && answer.length >= answer.indexOf('\r\n\r\n') + 4 + length) answered();
    });
    socket.on('end', () => {
      ended = true;
      settle();
    });
    socket.on('error', (error: Error & { code?: string }) => {
      failure = error.code ?? error.message;
      settle();
    });
    socket.on('connect', async () => {
      socket.write(head);
      for (const [i, piece] of pieces.entries()) {
        if (i === before) answeredWhileSending = await complete;
        if (socket.destroyed) break;
        if (!socket.write(piece)) await Promise.race([new Promise((r) => socket.once('drain', r)), settled]);
      }
      // Judged once everything is written: a clean end of the gateway's side, or an error (reset, broken pipe).
      if (!socket.destroyed) socket.end();
      if (!ended && !failure) await settled;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, answeredWhileSending, ending: failure ? 'error' : ended ? 'end' : 'timeout', error: failure });
    });
  });
}

test('announced: the 413 arrives while the client is still sending, and the connection ends cleanly after the body', async ({ slowUpload, headers }) => {
  const pieces = Array.from({ length: 32 }, () => Buffer.alloc(64 * 1024, 'a'));
  const upload = await slowUpload(`POST /v2/comments HTTP/1.1\r\n${headers()}Content-Length: ${2 * MB}\r\n\r\n`, pieces, 1);
  expect(upload.answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(upload.answer).toMatch(/\r\nConnection: close\r\n/i);
  expect(JSON.parse(upload.answer.split('\r\n\r\n')[1]).error.code).toBe('PAYLOAD_TOO_LARGE');
  expect(upload.answeredWhileSending).toBe(true);
  expect(upload).toMatchObject({ ending: 'end', error: undefined });
}, 30_000);

test('chunked: found over 1 MB on the way, refused with 413 JSON while the client is still sending', async ({ gateway, upstream, slowUpload, headers }) => {
  upstream.requests.length = 0;
  const chunk = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  const pieces = [...Array.from({ length: 40 }, () => chunk(Buffer.alloc(64 * 1024, 'b'))), Buffer.from('0\r\n\r\n')];
  // 18 chunks of 64 KB are over the limit: the answer must come before the other 22 are sent.
  const upload = await slowUpload(`POST /v2/comments HTTP/1.1\r\n${headers()}Transfer-Encoding: chunked\r\n\r\n`, pieces, 18);
  expect(upload.answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(JSON.parse(upload.answer.split('\r\n\r\n')[1]).error).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  expect(upload.answeredWhileSending).toBe(true);
  expect(upload).toMatchObject({ ending: 'end', error: undefined });
  // The upstream never got a complete body over the limit (the part it saw was cut off, so it recorded nothing).
  expect(upstream.requests.filter((r) => r.body.length > MB)).toEqual([]);
  // A chunked body under the limit goes through whole.
  const small = await rawRequest(
    gateway.port,
    [`POST /v2/comments HTTP/1.1\r\n${headers()}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n`, chunk(Buffer.from('{"a":1}')), '0\r\n\r\n'],
    5000,
    'POST',
  );
  expect(small.status).toBe(200);
  expect(upstream.requests.at(-1)?.body).toBe('{"a":1}');
}, 30_000);

test('a huge announced length is refused at once, without waiting for the body', async ({ gateway }) => {
  const started = Date.now();
  const answer = await rawRequest(
    gateway.port,
    'POST /v2/comments HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000000\r\n\r\n{"text":"',
  );
  expect(answer.outcome).toBe('answered');
  expect(answer.status).toBe(413);
  expect(Date.now() - started).toBeLessThan(2000);
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
}, 20_000);
