import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PASSWORD, Session } from '../../helpers/gateway-stack.ts';
import { scratchCopy, shellEnv, stopGroup } from '../../helpers/scratch-copy.ts';

/* The README's first command on a fresh checkout: `npm start` builds the client and runs the product with demo data. */

// Slow (about 10 s: a client build and the gateway with its built-in upstream).
describe('npm start on a fresh checkout (slow)', () => {
  test('builds the client, starts the gateway on the built-in upstream and signs in a demo account', async () => {
    const dir = scratchCopy();
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    // Its own process group, so the gateway and the upstream it forks stop with npm.
    const child = spawn('npm', ['start'], {
      cwd: dir,
      env: shellEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'data') }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // The gateway's JSON log line "gateway listening" carries the port it got.
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the gateway did not listen within 90 s\n${output}`)), 90_000);
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          stdout += chunk.toString();
          const complete = stdout.split('\n').slice(0, -1);
          for (const line of complete.filter((l) => l.startsWith('{'))) {
            const entry = JSON.parse(line) as { msg?: string; port?: number };
            if (entry.msg === 'gateway listening' && typeof entry.port === 'number') {
              clearTimeout(timer);
              resolve(entry.port);
            }
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`npm start exited (${code}) before the gateway listened\n${output}`));
        });
      });
      const base = `http://127.0.0.1:${port}`;

      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const page = await fetch(`${base}/login`);
      expect(page.status).toBe(200);
      const entry = /<script type="module" src="([^"]+)"/.exec(await page.text())?.[1];
      expect(entry, 'the page has a module script').toBeDefined();
      const script = await fetch(`${base}${entry}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);

      // The demo accounts of docs/contract.md#demo-accounts exist: the coach signs in and sees their patients.
      const session = new Session(base);
      const coach = await session.login('coach@example.org', DEMO_PASSWORD);
      expect(coach).toMatchObject({ email: 'coach@example.org' });
      const patients = await session.fetch(`/v2/coaches/${coach.id}/patients`);
      expect(patients.status).toBe(200);
      expect(((await patients.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await stopGroup(child.pid!, exited);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
