import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config.ts';
import { normalizeHostEntry } from '../config.ts';
import { badRequest } from '../errors.ts';
import { absoluteFormAuthority } from './request-line.ts';

/**
 * Host allow-list (modelled on Django's ALLOWED_HOSTS and Rails' HostAuthorization). A Host header the
 * gateway does not own is how DNS rebinding reaches a portal on localhost, and how a forged Host ends up in
 * anything built from it (a link, a redirect, a cache key). So the gateway answers only for the host of
 * PUBLIC_URL plus ALLOWED_HOSTS; without either (a developer's `npm start`) for localhost, 127.0.0.1,
 * [::1] and HOST. Ports are not compared.
 *
 * Every request needs exactly one well-formed Host (also HTTP/1.0, where the RFC would allow none): a missing
 * one used to reach the proxy as undefined and end the process. With TRUST_PROXY, the X-Forwarded-Host a
 * trusted proxy sends is what Express reports as req.host (and what the upstream is told), so that one is
 * checked against the same list (as Django does with USE_X_FORWARDED_HOST); the proxy's own Host is not.
 * /healthz and /readyz skip only the list (as Rails 7.1 exempts /up): orchestrators probe them by pod IP,
 * and their answers carry nothing a forged host could misuse.
 */

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '[::]', '[::0]']);
const PROBES = new Set(['/healthz', '/readyz']);

export function hostAllowList(config: Pick<Config, 'publicUrl' | 'allowedHosts' | 'host'>): string[] {
  if (config.publicUrl || config.allowedHosts.length > 0) {
    return [...(config.publicUrl ? [new URL(config.publicUrl).hostname] : []), ...config.allowedHosts];
  }
  const own = config.host ? normalizeHostEntry(config.host) : undefined;
  return ['localhost', '127.0.0.1', '[::1]', ...(own && !WILDCARD_ADDRESSES.has(own) ? [own] : [])];
}

const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_.])?)(?::(\d{1,5}))?$/i;

/** The host name of a Host (or X-Forwarded-Host) value, normalized; null when it is not a valid host[:port]. */
export function parseHost(value: string): string | null {
  const match = HOST_VALUE.exec(value.trim());
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return null;
  const host = normalizeHostEntry(match[1]);
  return host === '' || host.includes('..') ? null : host;
}

export function isAllowedHost(host: string, allowList: readonly string[]): boolean {
  return allowList.some((entry) => (entry.startsWith('.') ? host === entry.slice(1) || host.endsWith(entry) : host === entry));
}

type TrustFn = (address: string | undefined, hop: number) => boolean;

export function checkHost(allowList: readonly string[], trust: TrustFn) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const refuse = (code: string, message: string) => next(badRequest(code, message));
    let hostLines = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'host') hostLines++;
    const header = req.headers.host;
    if (hostLines !== 1 || header === undefined || parseHost(header) === null) {
      refuse('INVALID_HOST', 'The request needs exactly one valid Host header');
      return;
    }
    const authority = absoluteFormAuthority(req);
    if (authority !== undefined) {
      if (parseHost(authority) === null) {
        refuse('INVALID_HOST', 'The host in the request target is not valid');
        return;
      }
      // RFC 9112 3.2.2: the target's authority replaces Host; everything after this sees only one of them.
      req.headers.host = authority;
    }
    // The host the app goes on with (Express's req.host): a trusted proxy's X-Forwarded-Host, else the Host.
    let host = authority ?? header;
    const forwarded = req.get('x-forwarded-host');
    if (forwarded !== undefined && trust(req.socket.remoteAddress, 0)) {
      // Express takes the first entry; that is the one that must be ours.
      host = forwarded.split(',')[0];
      if (parseHost(host) === null) {
        refuse('INVALID_HOST', 'X-Forwarded-Host is not a valid host');
        return;
      }
    }
    if (PROBES.has(req.path)) return next();
    if (!isAllowedHost(parseHost(host)!, allowList)) {
      refuse('HOST_NOT_ALLOWED', 'This host is not served here (see PUBLIC_URL and ALLOWED_HOSTS)');
      return;
    }
    next();
  };
}
