/*
 * Failures to fetch code or texts (offline, server gone). Kept apart from areas.ts and i18n.ts, which both raise
 * them, so neither has to import the other for it.
 */

/** A script or stylesheet of an area could not be fetched (offline, server gone): worth another try later. */
export class AreaLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AreaLoadError';
  }
}

/** True for failures to fetch code (ours, or the browser's own "Failed to fetch dynamically imported module"). */
export function isLoadError(error: unknown): boolean {
  return error instanceof AreaLoadError || (error instanceof TypeError && /dynamically imported module|importing a module script/i.test(error.message));
}
