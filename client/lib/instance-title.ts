/** SPEC sections 1 and 9: default "CL"; quotation marks are stripped for display. */
export const DEFAULT_TITLE = 'CL';

export function cleanTitle(raw: string | null | undefined): string {
  const text = (raw ?? '').replace(/["'„“”‚‘’«»]/g, '').trim();
  return text || DEFAULT_TITLE;
}

/** The gateway writes the configured title into <meta name="app-title">. */
export function instanceTitle(doc: Document = document): string {
  return cleanTitle(doc.querySelector('meta[name="app-title"]')?.getAttribute('content'));
}
