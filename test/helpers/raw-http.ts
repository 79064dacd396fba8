import { connect } from 'node:net';

/** Raw HTTP/1.x over one socket: write any bytes, read any number of pipelined answers, as no HTTP client allows. */

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Exchange {
  responses: RawResponse[];
  /** complete: an answer for every request; closed: the server closed before; timeout: it stopped answering. */
  outcome: 'complete' | 'closed' | 'timeout';
}

/** Parses as many whole responses as `data` holds; interim 1xx answers are skipped. */
function parseResponses(data: Buffer, methods: string[], closed: boolean): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (responses.length < methods.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const [statusLine, ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1] ?? 0);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyStart = headEnd + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      at = bodyStart;
      continue;
    }
    const method = methods[responses.length].toUpperCase();
    let bodyEnd: number;
    if (method === 'HEAD' || status === 204 || status === 304 || status === 0) bodyEnd = bodyStart;
    else if (headers['content-length'] !== undefined) bodyEnd = bodyStart + Number(headers['content-length']);
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      let cursor = bodyStart;
      bodyEnd = -1;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) break;
        if (size === 0) {
          const end = data.indexOf('\r\n\r\n', lineEnd);
          if (end >= 0) bodyEnd = end + 4;
          break;
        }
        cursor = lineEnd + 2 + size + 2;
      }
      if (bodyEnd < 0) break;
    } else if (closed) bodyEnd = data.length;
    else break;
    if (bodyEnd > data.length) break;
    responses.push({ status, headers, body: data.subarray(bodyStart, bodyEnd) });
    at = bodyEnd;
    bodyStart = at;
  }
  return responses;
}

/** Writes `bytes` on one fresh connection and reads the answers to `methods.length` requests. */
export function exchange(port: number, bytes: string, methods: string[], timeoutMs = 5000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (outcome: Exchange['outcome']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const responses = parseResponses(Buffer.concat(chunks), methods, outcome !== 'timeout');
      resolve({ responses, outcome: responses.length === methods.length ? 'complete' : outcome });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponses(Buffer.concat(chunks), methods, false).length === methods.length) finish('complete');
    });
    socket.on('close', () => finish('closed'));
    socket.on('error', () => finish('closed'));
    socket.on('connect', () => socket.write(bytes, 'latin1'));
  });
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
