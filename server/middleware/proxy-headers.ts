import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import { XSRF_SID_COOKIE } from './xsrf.ts';

/**
 * What the upstream is told, and what the browser is told back.
 *
 * Hop-by-hop fields (RFC 9110 7.6.1) describe one connection, not the request: a proxy that passes them on
 * lets a client steer the gateway's own upstream connection (Upgrade, TE, Keep-Alive), and Node refuses some
 * combinations by throwing (a Trailer field on a request it does not send chunked), which inside the proxy
 * ended the whole process. So they are removed, with every field the Connection header names, in both
 * directions. Proxy-Authorization/-Authenticate are credentials for a proxy, never for the upstream.
 */
export const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'proxy-authorization',
  'proxy-authenticate',
] as const;

type Headers = Record<string, string | string[] | number | undefined>;

const FIXED_HOP_BY_HOP: ReadonlySet<string> = new Set(HOP_BY_HOP);

/** Every hop-by-hop field, including the ones Connection (or the non-standard Proxy-Connection) names. */
export function hopByHopNames(headers: Headers): ReadonlySet<string> {
  // Most requests and answers name nothing: the fixed list then does, without a new set for each of them.
  if (headers.connection === undefined && headers['proxy-connection'] === undefined) return FIXED_HOP_BY_HOP;
  const names = new Set<string>(HOP_BY_HOP);
  for (const field of ['connection', 'proxy-connection']) {
    const value = headers[field];
    for (const line of Array.isArray(value) ? value : [value ?? '']) {
      for (const token of String(line).split(',')) if (token.trim()) names.add(token.trim().toLowerCase());
    }
  }
  return names;
}

export function removeHopByHop(headers: Headers): void {
  for (const name of hopByHopNames(headers)) delete headers[name];
}

/** Removes the gateway's own cookie from the Cookie header: the upstream has no business seeing it. */
export function stripCookie(header: string, name: string): string {
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.split('=')[0].trim() !== name)
    .join('; ');
}

/** Client-supplied forwarding fields: the gateway states these itself, so nothing a client wrote gets through. */
const FORWARDING = /^(forwarded|x-forwarded-[a-z0-9-]+|x-real-ip)$/;

export type UpstreamHeadersProblem = 'transfer-encoding' | null;

/**
 * Turns req.headers into the header set the upstream receives (http-proxy-middleware copies req.headers as
 * they are at that moment). Returns a problem instead when the request cannot be forwarded faithfully.
 *
 * - Body framing is the gateway's own: Node has already decoded a chunked body, so it is sent on chunked
 *   again; any other transfer coding would reach the upstream undecodable and is refused (400).
 * - X-Forwarded-For/-Proto/-Host are set from what Express resolved (TRUST_PROXY decides whether a proxy's
 *   values count; the Host check has already accepted the host), and never from a missing value.
 */
export function prepareUpstreamHeaders(req: Request): UpstreamHeadersProblem {
  const headers = req.headers as IncomingHttpHeaders & Headers;
  const transferEncoding = headers['transfer-encoding'];
  if (transferEncoding !== undefined && transferEncoding.trim().toLowerCase() !== 'chunked') return 'transfer-encoding';
  const contentLength = headers['content-length'];

  // Resolved before the fields they are read from go away.
  const forwardedFor = req.ip ?? req.socket.remoteAddress;
  const forwardedProto = req.protocol === 'https' ? 'https' : 'http';
  const forwardedHost = req.host;

  removeHopByHop(headers);
  // The gateway already answered "100 Continue" itself (Node does), so the upstream must not be asked again.
  delete headers.expect;
  for (const name of Object.keys(headers)) if (FORWARDING.test(name)) delete headers[name];

  const cookie = headers.cookie;
  if (cookie !== undefined) {
    const rest = stripCookie(cookie, XSRF_SID_COOKIE);
    if (rest) headers.cookie = rest;
    else delete headers.cookie;
  }
  // Framing survives whatever Connection named: without it a body would reach the upstream unframed (a GET's
  // body read there as the next request on the connection).
  if (transferEncoding !== undefined) headers['transfer-encoding'] = 'chunked';
  else if (contentLength !== undefined) headers['content-length'] = contentLength;
  // One address: the client as TRUST_PROXY resolves it (req.ip walks only the trusted hops, so entries a client
  // forged are dropped). Passing the raw chain on would make the upstream (which trusts only loopback) see a
  // non-loopback proxy as "the client" and put every user behind it into one rate-limit bucket.
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  headers['x-forwarded-proto'] = forwardedProto;
  if (forwardedHost) headers['x-forwarded-host'] = forwardedHost;
  return null;
}
