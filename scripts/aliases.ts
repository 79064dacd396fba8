// The one alias list for the client: the esbuild build and the vitest config both import it,
// so the tests run the same Preact code that ships. Components are written against React's API
// (and @preact/signals-react); at build and test time they get Preact, which is a tenth of the size.
export const clientAliases: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
  '@preact/signals-react': '@preact/signals',
  // wouter reaches useSyncExternalStore through React's shim package; Preact's compat has it built in.
  'use-sync-external-store/shim': 'preact/compat',
  'use-sync-external-store/shim/index.js': 'preact/compat',
};
