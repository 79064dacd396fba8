// esbuild bundles CSS imported from the client entry; TypeScript only needs to know such imports exist.
declare module '*.css';
