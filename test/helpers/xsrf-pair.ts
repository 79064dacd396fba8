import type { Gateway } from '../../server/api-lane.ts';
import request from 'supertest';

/** The XSRF pair a page load hands out: the Cookie header to send back, and the X-XSRF-TOKEN value (the cookie's). */
export interface XsrfPair {
  cookie: string;
  token: string;
}

/** The pair from a page answer's Set-Cookie lines, as the client would copy it. */
export function xsrfPairOf(setCookie: readonly string[]): XsrfPair {
  const cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
  return { cookie, token: decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '') };
}

/** Loads /login from an app under supertest and returns its pair, so mutating calls pass the XSRF check. */
export async function xsrfFrom(app: Gateway): Promise<XsrfPair> {
  const res = await request(app).get('/login');
  return xsrfPairOf(res.headers['set-cookie'] as unknown as string[]);
}
