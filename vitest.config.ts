import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { clientAliases } from './scripts/aliases.ts';

// Vite's alias matcher treats a string key as a prefix ("react" would also catch "react-dom"),
// so each alias is an exact-match regular expression.
const alias = Object.entries(clientAliases).map(([find, replacement]) => ({ find: new RegExp(`^${find.replace(/[/.-]/g, '\\$&')}$`), replacement }));
// wouter reaches React through the CommonJS shim of use-sync-external-store; outside esbuild that shim
// would load the real React next to Preact (hooks then fail with "reading 'useContext'"). So the shim is
// pointed at preact/compat and wouter is inlined, which makes its `react` imports go through the aliases.
alias.push({ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' });

// Three tiers, each a set of projects (package.json: test:unit, test:e2e, test:slow; test/README.md). A file's tier
// follows from where it lives and its name: `*.slow.test.ts` is the slow tier (load tests, timing budgets, the Docker
// reproduction, the npm-test gate), which runs after the others and its measuring files one at a time, so nothing it
// measures shares the two cores with another test file. test/server/tiers.test.ts proves each test file is in exactly one tier.
const SLOW = '**/*.slow.test.ts';
const ISOLATED = '**/*.isolated.test.ts';
const SLOW_BUILDS = 'test/server/gateway/*.slow.test.ts';
// expect.poll waits up to 10 s in a journey (vitest's default is 1 s): a browser on two busy cores may need longer
// for a screen to settle; a state that never comes still fails.
const e2eSetup = {
  globalSetup: ['test/helpers/e2e-global-setup.ts'],
  environment: 'node' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  resolve: { alias },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  test: {
    // Vitest's default (one worker fewer than cores) is one worker on two cores, which then sits idle while its test
    // waits on a child process, a socket or a timer: test:unit used 108 % of 200 % CPU. One more worker than cores
    // keeps them busy (test:unit 239 s -> 160 s on 2 cores). The slow tier's measurements still run one file at a time.
    // On PostgreSQL (npm run test:postgres sets DATABASE_URL) one worker, as before: files side by side there fail
    // their migrations with "schema tmp_... does not exist"; the cause is not found yet.
    maxWorkers: process.env.DATABASE_URL ? 1 : availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          include: ['client/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, SLOW],
          environment: 'happy-dom',
          setupFiles: ['test/helpers/client-setup.ts'],
          // Worker threads start faster than the default child processes: test:unit 116 -> 95 s with the server's.
          pool: 'threads',
          server: { deps: { inline: ['wouter'] } },
          sequence: { groupOrder: 0 },
        },
      },
      // Server files share their worker's module cache (isolate: false): re-importing the server for each of ~100 files
      // cost 51 s of the project's 104. A file that replaces a module (vi.mock) needs its own and is named
      // *.isolated.test.ts (test/server/tiers.test.ts checks).
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts', 'server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SLOW, ISOLATED],
          environment: 'node',
          // Real scrypt, real processes: on two busy cores a test can need more than vitest's default 5 s.
          testTimeout: 15_000,
          // On PostgreSQL each file still gets its own modules, as before (see maxWorkers above).
          isolate: Boolean(process.env.DATABASE_URL),
          // Threads, as the client's: the tests spawn real processes where they need one (signals, exit codes, stdout).
          pool: 'threads',
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'server-isolated',
          include: [ISOLATED],
          exclude: [...configDefaults.exclude, SLOW],
          environment: 'node',
          testTimeout: 15_000,
          sequence: { groupOrder: 0 },
        },
      },
      // One browser for the whole project, two gateways for each worker (e2e-global-setup.ts): files run side by side,
      // each against its worker's own data. Measured on two cores: one 258 s, three 189 s, four 197 s (the CPU full).
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SLOW],
          ...e2eSetup,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      // The slow tier's files that build, install and start the product (Docker reproduction, npm start, the npm-test
      // gate) measure no time: side by side with each other, still apart from every other tier.
      { extends: true, test: { name: 'slow-builds', include: [SLOW_BUILDS], environment: 'node', sequence: { groupOrder: 2 } } },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/server/**/*.slow.test.ts'],
          exclude: [...configDefaults.exclude, SLOW_BUILDS],
          environment: 'node',
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      { extends: true, test: { name: 'slow-e2e', include: ['test/e2e/**/*.slow.test.ts'], ...e2eSetup, fileParallelism: false, sequence: { groupOrder: 4 } } },
    ],
  },
});
