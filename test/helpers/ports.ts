import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on, for a server a test starts next. Taken at random below the kernel's range for
 * port 0 and outgoing connections (32768 and up): a port-0 port is handed out again as soon as it is released, and
 * another server or a browser's connection took one between the check and the listen (seen: the browser server of
 * the e2e setup answered a gateway's port with "Running", and a neighbour's server a gateway test's).
 */
export async function unusedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
}
