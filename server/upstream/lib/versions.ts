/*
 * Optimistic concurrency. A record's version is its `updatedAt`, made strictly increasing per record: a
 * write stores max(now, previous + 1 ms), so two writes never leave the same version behind even within
 * one millisecond or under a stopped test clock. The answer's ETag is that version in quotes; a write
 * with If-Match of another version is refused with 412 instead of overwriting a change it never saw.
 */

/** The version a write stores: now, or 1 ms after the previous version when the clock has not moved past it. */
export function nextVersion(previous: string | null | undefined, now: Date): string {
  const before = previous ? Date.parse(previous) : NaN;
  const at = Number.isFinite(before) && before >= now.getTime() ? before + 1 : now.getTime();
  return new Date(at).toISOString();
}

/** ETag header value of a version. */
export const etagOf = (version: string) => `"${version}"`;

/**
 * The versions an If-Match header accepts: undefined without the header, '*' for any. Entity tags may be
 * weak (W/"..."): a proxy that compresses weakens them, and here a tag names a record version, not bytes.
 * A bare, unquoted timestamp is accepted too, for clients that send the record's updatedAt as it is.
 */
export function parseIfMatch(header: string | string[] | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  return text
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter(Boolean);
}

/** True when the stored version satisfies If-Match (always true without the header). */
export function versionMatches(ifMatch: '*' | string[] | undefined, version: string | null | undefined): boolean {
  if (ifMatch === undefined) return true;
  if (ifMatch === '*') return version != null;
  return version != null && ifMatch.includes(version);
}
