import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { CallTranslation } from '../mapping/calls.ts';
import { queryToApi } from '../mapping/filter.ts';
import { toApi, toContract } from '../mapping/translate.ts';
import { MAX_API_BODY_BYTES, payloadTooLarge } from './body-limit.ts';

/*
 * The proxy's side of the field mapping (server/mapping/): only calls the mapping touches come here. Their filter
 * query values are rewritten in the URL, their JSON bodies are read (within the /v2 limit), translated and sent with
 * a new Content-Length, and their JSON answers are read, translated and written whole. Error answers, other types and
 * encoded answers pass as they came.
 */

/** An answer bigger than this is not held in memory for translating: 502 instead. A page of 1000 records is ~1 MB. */
export const MAX_TRANSLATED_ANSWER_BYTES = 32 * 1024 * 1024;

/** Fields that describe the upstream's exact bytes and would be wrong for the translated ones. */
const BYTE_FIELDS = ['content-length', 'content-md5', 'digest', 'content-digest', 'repr-digest'];

/** The request ended before its body did: the caller drops the request without an answer or an error report. */
export const CLIENT_GONE = Symbol('client gone');

const isJson = (type: string | undefined) => /^application\/([\w.+-]*\+)?json\b/i.test(type?.trim() ?? '');

const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_API_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      reject(payloadTooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    // A client that went away mid-body (aborted, reset): nothing to send on, nothing to answer, nothing to report.
    // After 'end' this changes nothing.
    req.once('error', () => reject(CLIENT_GONE));
    req.once('close', () => reject(CLIENT_GONE));
  });
}

/**
 * Rewrites the URL's query values (filter, where, a query shape's parameters) and reads and translates a JSON body. Returns the body to send instead of the
 * request's own (which has then been read), or undefined when the request's own is sent as it is.
 */
export async function translateRequest(req: Request, call: CallTranslation): Promise<Buffer | undefined> {
  const at = req.url.indexOf('?');
  if (call.query && at >= 0) req.url = `${req.url.slice(0, at)}?${queryToApi(call.query, req.url.slice(at + 1))}`;
  // An encoded body (Content-Encoding) or another type is none of the mapping's business.
  if (!call.body || !hasBody(req) || !isJson(req.headers['content-type']) || req.headers['content-encoding'] !== undefined) return undefined;
  const raw = await readBody(req);
  try {
    return Buffer.from(JSON.stringify(toApi(call.body, JSON.parse(raw.toString('utf8')))), 'utf8');
  } catch {
    // Not JSON after all: the upstream judges it as it came.
    return raw;
  }
}

/** Sends the translated body on the upstream request (the request's own stream has ended and adds nothing). */
export function sendTranslatedBody(proxyReq: ClientRequest, body: Buffer): void {
  proxyReq.removeHeader('transfer-encoding');
  proxyReq.setHeader('content-length', body.length);
  proxyReq.write(body);
}

/** The upstream's answer as it came (status, headers as the proxy left them, body streamed). */
function passThrough(proxyRes: IncomingMessage, res: ServerResponse): void {
  res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, proxyRes.headers);
  proxyRes.pipe(res);
}

/**
 * Answers a translated call: a complete 2xx JSON answer is translated to the contract's names and written with its
 * new length (compression, if any, happens after this, on res). The ETag stays: it names the upstream's version of
 * the record, which the client sends back in If-Match, and the same upstream bytes always translate to the same bytes.
 */
export function answerTranslated(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse, call: CallTranslation, tooLarge: () => void): void {
  const status = proxyRes.statusCode ?? 502;
  const encoded = (proxyRes.headers['content-encoding'] ?? 'identity').toLowerCase() !== 'identity';
  if (!call.answer || status < 200 || status > 299 || status === 204 || req.method === 'HEAD' || encoded || !isJson(proxyRes.headers['content-type'])) {
    return passThrough(proxyRes, res);
  }
  const node = call.answer;
  const chunks: Buffer[] = [];
  let size = 0;
  proxyRes.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_TRANSLATED_ANSWER_BYTES) chunks.push(chunk);
    else if (size - chunk.length <= MAX_TRANSLATED_ANSWER_BYTES) tooLarge();
  });
  proxyRes.once('end', () => {
    // A cut answer is no answer: the connection is cut too (as when streaming).
    if (!proxyRes.complete || size > MAX_TRANSLATED_ANSWER_BYTES) return;
    let body = Buffer.concat(chunks);
    try {
      body = Buffer.from(JSON.stringify(toContract(node, JSON.parse(body.toString('utf8')))), 'utf8');
    } catch {
      // Announced as JSON but not JSON: passed on as it came, for the client to judge.
    }
    const headers = { ...proxyRes.headers };
    for (const name of BYTE_FIELDS) delete headers[name];
    res.writeHead(status, proxyRes.statusMessage, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
}
