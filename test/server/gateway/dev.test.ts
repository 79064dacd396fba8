import { test as baseTest, describe, expect } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDev } from '../../../scripts/dev.ts';
import { makeBuildProject } from '../../helpers/gateway-build-fixture.ts';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';

type DevEvent = { event: string; detail?: string };

// `project`: a build project with a server folder; `startDev(options)`: the dev loop, stopped when the test ends.
const test = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('project', ({}, { onCleanup }) => {
    const project = makeBuildProject();
    onCleanup(() => project.cleanup());
    mkdirSync(join(project.root, 'srv'));
    writeFileSync(join(project.root, 'srv/app.ts'), 'export const x = 1;\n');
    return project;
  })
  .extend('startDev', ({ project: _ }, { onCleanup }) => {
    const started: ReturnType<typeof startDev>[] = [];
    onCleanup(async () => {
      for (const dev of started) await dev.stop();
    });
    return (...args: Parameters<typeof startDev>) => {
      const dev = startDev(...args);
      started.push(dev);
      return dev;
    };
  });

describe('npm run dev', () => {
  const events: DevEvent[] = [];
  const waiters: { match: (e: DevEvent) => boolean; resolve: () => void }[] = [];
  const next = (event: string) => new Promise<void>((resolve) => waiters.push({ match: (e) => e.event === event, resolve }));

  test('builds, starts the server, rebuilds on a client change and restarts on a server change', { timeout: 60_000 }, async ({ project, startDev }) => {
    const firstStart = next('started');
    startDev({
      root: project.root,
      serverEntry: join(REPO_ROOT, 'test/helpers/gateway-fake-upstream-main.ts'),
      serverDirs: [join(project.root, 'srv')],
      env: { PATH: process.env.PATH, UPSTREAM_PORT: '0' },
      debounceMs: 50,
      onEvent: (event, detail) => {
        events.push({ event, detail });
        for (const waiter of waiters.splice(0)) {
          if (waiter.match({ event, detail })) waiter.resolve();
          else waiters.push(waiter);
        }
      },
    });
    await firstStart;
    expect(events.map((e) => e.event)).toEqual(['built', 'started']);
    const firstPid = events[1].detail;

    const rebuilt = next('started');
    writeFileSync(join(project.root, 'client/shared.ts'), "export function shared(): string { return 'CHANGED-TEXT'; }\n");
    await rebuilt;
    // The shared module is in the entry or a chunk the page preloads: the rebuilt first screen carries the change.
    const manifest = JSON.parse(readFileSync(join(project.root, 'dist/build-manifest.json'), 'utf8')) as { entry: string; preload: string[] };
    const firstScreen = [manifest.entry, ...manifest.preload].map((url) => readFileSync(join(project.root, 'dist/public', url), 'utf8'));
    expect(firstScreen.join('\n')).toContain('CHANGED-TEXT');
    const second = events.filter((e) => e.event === 'started').at(-1)!.detail;
    expect(second).not.toBe(firstPid);

    const builtCount = events.filter((e) => e.event === 'built').length;
    const restarted = next('started');
    writeFileSync(join(project.root, 'srv/app.ts'), 'export const x = 2;\n');
    await restarted;
    expect(events.filter((e) => e.event === 'built').length).toBe(builtCount);
    expect(events.filter((e) => e.event === 'started').at(-1)!.detail).not.toBe(second);
  });
});
