/** A path under the /v2 API, which the gateway proxies. */
export const isApiPath = (path: string): boolean => path === '/v2' || path.startsWith('/v2/');

/** A request target (path and query, as on the request line) under /v2; absolute-form targets are not. */
export const isApiTarget = (url: string | undefined): boolean => url !== undefined && (isApiPath(url) || url.startsWith('/v2?'));
