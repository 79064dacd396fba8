import { defineConfig } from 'vitest/config';
import { clientAliases } from './scripts/aliases.ts';

// Vite's alias matcher treats a string key as a prefix ("react" would also catch "react-dom"),
// so each alias is an exact-match regular expression.
const alias = Object.entries(clientAliases).map(([find, replacement]) => ({ find: new RegExp(`^${find.replace(/[/.-]/g, '\\$&')}$`), replacement }));
// wouter reaches React through the CommonJS shim of use-sync-external-store; outside esbuild that shim
// would load the real React next to Preact (hooks then fail with "reading 'useContext'"). So the shim is
// pointed at preact/compat and wouter is inlined, which makes its `react` imports go through the aliases.
alias.push({ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' });

export default defineConfig({
  resolve: { alias },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          include: ['client/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['test/helpers/client-setup.ts'],
          server: { deps: { inline: ['wouter'] } },
        },
      },
      { extends: true, test: { name: 'server', include: ['test/server/**/*.test.ts', 'server/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/helpers/e2e-global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
