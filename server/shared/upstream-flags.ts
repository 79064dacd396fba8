/**
 * The Node flags the built-in upstream runs with, wherever it is started: by the gateway (server/upstream-process.ts),
 * by `npm run upstream` (package.json says the same; test/server/gateway/upstream-process.test.ts holds the two together) and by
 * the benches and tests that start it on its own.
 *
 * --max-semi-space-size=16: V8's young generation grows with the heap up to 64 MB per semi-space (Node 24), and
 * an upstream answering page after page (an export of 100,000 patients on SQLite: 474 pages) grew by about 95 MB of
 * resident memory that way while its live data stayed near 30 MB (--trace-gc). At 16 MB it grew by about 20 MB, and
 * the export took no more CPU (2.3-2.5 s against 2.7-3.0 s with the default, two runs each).
 */
export const UPSTREAM_NODE_FLAGS = ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=16'] as const;
