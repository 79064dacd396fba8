/** docs/product.md sections 1 and 9: default "CL"; quotation marks are stripped for display. */
export const DEFAULT_TITLE = 'CL';

// Double quotes of any style go wherever they are. A single quote goes too, unless it sits between two
// letters or digits: there it is an apostrophe ("St. Mary's Klinik"), not a quotation mark.
const QUOTES = /["„“”«»]|(?<![\p{L}\p{N}])['‚‘’‹›]|['‚‘’‹›](?![\p{L}\p{N}])/gu;

export function cleanTitle(raw: string | null | undefined): string {
  const text = (raw ?? '').replace(QUOTES, '').trim();
  return text || DEFAULT_TITLE;
}

/** The gateway writes the configured title into <meta name="app-title">. */
export function instanceTitle(doc: Document = document): string {
  return cleanTitle(doc.querySelector('meta[name="app-title"]')?.getAttribute('content'));
}
