/**
 * Sentry's browser SDK, fetched only when the first error happens (error-reporting.ts). A module of the client's own
 * rather than the package itself, so the build treats it like every other lazy module of the client: it depends on
 * what the first screen has already run (scripts/build.ts) and shares no chunk of its own with it.
 */
export * from '@sentry/browser';
