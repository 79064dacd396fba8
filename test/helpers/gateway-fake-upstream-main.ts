// A stand-in for server/upstream/main.ts speaking the same process interface (docs/contract.md#built-in-upstream): listens on
// UPSTREAM_HOST:UPSTREAM_PORT, reports { type: 'listening', port } over IPC, exits 0 on SIGTERM/SIGINT.
// It answers every request with JSON naming the environment it was given (minus secrets) and the request path.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  const reply = () => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        path: url.pathname,
        pid: process.pid,
        env: {
          DATA_DIR: process.env.DATA_DIR,
          DEMO_DATA: process.env.DEMO_DATA,
          ADMIN_EMAIL: process.env.ADMIN_EMAIL,
          HAS_XSRF_SECRET: 'XSRF_SECRET' in process.env,
        },
      }),
    );
  };
  if (url.pathname.endsWith('/slow')) setTimeout(reply, Number(url.searchParams.get('ms') ?? 1000));
  else reply();
});

server.listen(Number(process.env.UPSTREAM_PORT ?? 0), process.env.UPSTREAM_HOST ?? '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
