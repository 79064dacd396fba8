import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
import { badRequest } from './errors.ts';

/*
 * Text that no database stores as sent. PostgreSQL refuses a NUL character (the query fails: a 500),
 * SQLite cuts the text after it (a silent change); a lone UTF-16 surrogate ("\ud800" in JSON) or bytes
 * that are not UTF-8 become U+FFFD on the way in. Each is refused here with a 400, once for every route:
 * body strings and keys, query values and the path.
 */

const NUL = '\u0000';
const LONE_SURROGATE = /\p{Cs}/u;

function oddText(text: string): string | null {
  if (text.includes(NUL)) return 'NUL characters are not accepted';
  // With the u flag a string is read as code points: a surrogate pair is one, a lone surrogate is Cs.
  if (LONE_SURROGATE.test(text)) return 'Text must be valid Unicode (no lone surrogates)';
  return null;
}

/** The first odd string in a parsed JSON value (keys included), with its path; iterative, so any depth is fine. */
export function findOddText(value: unknown, root = ''): { path: string; message: string } | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const message = oddText(item);
      if (message) return { path, message };
    } else if (Array.isArray(item)) {
      for (const [i, child] of item.entries()) stack.push([child, path ? `${path}.${i}` : String(i)]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const at = path ? `${path}.${key}` : key;
        const message = oddText(key);
        if (message) return { path: at, message };
        stack.push([child, at]);
      }
    }
  }
  return null;
}

const notUtf8 = new WeakSet<object>();
/**
 * express.json's verify hook: notes a body that is not UTF-8 (the decoder would turn its bad bytes into
 * U+FFFD); refuseOddText then answers 400. Throwing here would become body-parser's 403.
 */
export function verifyUtf8(req: object, _res: unknown, buffer: Buffer): void {
  if (!isUtf8(buffer)) notUtf8.add(req);
}

/** 400 for a NUL or a lone surrogate anywhere in the path, the query values or the JSON body. */
export const refuseOddText: RequestHandler = (req, _res, next) => {
  if (notUtf8.has(req)) throw badRequest('The request body is not valid UTF-8', [{ path: '', message: 'Not UTF-8' }], 'INVALID_TEXT');
  let path: string;
  try {
    path = decodeURIComponent(req.path);
    // The query decoder would turn bytes that are not UTF-8 into U+FFFD; refused here instead.
    decodeURIComponent(req.originalUrl.replace(/\+/g, ' '));
  } catch {
    throw badRequest('The path or query is not valid UTF-8', [{ path: 'path', message: 'Invalid percent-encoding' }], 'INVALID_TEXT');
  }
  const found = (oddText(path) ? { path: 'path', message: oddText(path)! } : null) ?? findOddText(req.query, 'query') ?? findOddText(req.body);
  if (found) throw badRequest(found.message, [found], 'INVALID_TEXT');
  next();
};
