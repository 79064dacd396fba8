/** A path under the /v2 API, which the gateway proxies. */
export const isApiPath = (path: string): boolean => path === '/v2' || path.startsWith('/v2/');

/** An origin-form request target (path and query, as browsers send them) under /v2. */
export const isApiOriginTarget = (url: string | undefined): boolean => url !== undefined && (isApiPath(url) || url.startsWith('/v2?'));

/** The scheme and authority of an absolute-form target ("GET http://host/v2/x HTTP/1.1"), which checkRequestLine removes. */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/[^/?#]*/i;

/** Any request target under /v2, also in absolute form, before checkRequestLine has rewritten it. */
export const isApiTarget = (url: string | undefined): boolean => url !== undefined && isApiOriginTarget(url.replace(ABSOLUTE_FORM_PREFIX, ''));
