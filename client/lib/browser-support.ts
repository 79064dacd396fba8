/**
 * Internet Explorer and old (EdgeHTML) Edge cannot run this app; they get a static page that says so
 * (docs/product.md#purpose). New Chromium Edge says "Edg/", old Edge says "Edge/".
 */
export function isUnsupportedBrowser(userAgent: string): boolean {
  return /MSIE |Trident\//.test(userAgent) || /\bEdge\/\d/.test(userAgent);
}

export const UNSUPPORTED_PAGE = '/internet-explorer-msg';
