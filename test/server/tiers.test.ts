import { execFileSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/gateway-fixtures.ts';

/*
 * The suite runs in three tiers (package.json test:unit, test:e2e, test:slow; test/README.md), each a set of vitest
 * projects. A test file no tier runs would never run in `npm test`; one two tiers run would run twice, and a load
 * test could then share the cores with other files. What vitest itself resolves (`vitest list --filesOnly`) is
 * compared with every test file in the repository.
 */

const TIERS = ['test:unit', 'test:e2e', 'test:slow'] as const;
const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The projects a tier's script names with --project. */
const projectsOf = (script: string) => [...script.matchAll(/--project[= ](\S+)/g)].map((match) => match[1]);

/** Which project vitest runs each test file in (a file in two projects is listed twice). */
function projectsByFile(): Map<string, string[]> {
  const listed = execFileSync(join(REPO_ROOT, 'node_modules/.bin/vitest'), ['list', '--filesOnly', '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const byFile = new Map<string, string[]>();
  for (const { file, projectName } of JSON.parse(listed) as { file: string; projectName: string }[]) {
    const key = relative(REPO_ROOT, file);
    byFile.set(key, [...(byFile.get(key) ?? []), projectName]);
  }
  return byFile;
}

describe('the test tiers', () => {
  const tierOfProject = new Map<string, string[]>();
  for (const tier of TIERS) for (const project of projectsOf(scripts[tier] ?? '')) tierOfProject.set(project, [...(tierOfProject.get(project) ?? []), tier]);
  const byFile = projectsByFile();

  test('each tier names at least one project, and no project is in two tiers', () => {
    for (const tier of TIERS) expect(projectsOf(scripts[tier] ?? ''), tier).not.toEqual([]);
    for (const [project, tiers] of tierOfProject) expect(tiers, project).toHaveLength(1);
  });

  test('every project of vitest.config.ts belongs to a tier', () => {
    const projects = new Set([...byFile.values()].flat());
    expect([...projects].filter((project) => !tierOfProject.has(project))).toEqual([]);
  });

  test('every test file in the repository runs in exactly one tier', () => {
    const files = globSync('**/*.test.{ts,tsx,js,mjs,cjs,jsx}', { cwd: REPO_ROOT, exclude: (name) => ['node_modules', 'dist', '.git'].includes(name) });
    expect(files.length).toBeGreaterThan(100);
    const wrong = files
      .map((file) => [file, (byFile.get(file) ?? []).flatMap((project) => tierOfProject.get(project) ?? [])] as const)
      .filter(([, tiers]) => tiers.length !== 1);
    expect(wrong).toEqual([]);
  });

  test('load tests, timing budgets, the Docker reproduction and the npm-test gate are in the slow tier', () => {
    const slow = (file: string) => (byFile.get(file) ?? []).flatMap((project) => tierOfProject.get(project) ?? []);
    for (const file of [
      'test/e2e/budgets.slow.test.ts',
      'test/server/hardening/load-and-shutdown.slow.test.ts',
      'test/server/hardening/keep-alive.slow.test.ts',
      'test/server/gateway/docker-runtime.slow.test.ts',
      'test/server/gateway/npm-test-gate.slow.test.ts',
    ])
      expect(slow(file), file).toEqual(['test:slow']);
  });

  test('the files that run side by side in the slow tier are the builds, none of the measurements', () => {
    const builds = [...byFile].filter(([, projects]) => projects.includes('slow-builds')).map(([file]) => file);
    expect(builds.sort()).toEqual([
      'test/server/gateway/docker-runtime.slow.test.ts',
      'test/server/gateway/npm-start.slow.test.ts',
      'test/server/gateway/npm-test-gate.slow.test.ts',
    ]);
  });
});

describe('the server project', () => {
  test('a file that replaces a module (vi.mock) is named *.isolated.test.ts: the others share a module cache', () => {
    const files = globSync('{test/server,server}/**/*.test.ts', { cwd: REPO_ROOT });
    const mocking = files.filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((file) => !file.endsWith('.isolated.test.ts'))).toEqual([]);
  });
});

describe('the slow tier', () => {
  test('runs its measuring files one at a time, after every project of the other tiers', async () => {
    const { default: config } = await import('../../vitest.config.ts');
    const projects = (config.test?.projects ?? []) as { test: { name: string; fileParallelism?: boolean; sequence?: { groupOrder?: number } } }[];
    const slowNames = new Set(projectsOf(scripts['test:slow'] ?? ''));
    const slow = projects.filter((project) => slowNames.has(project.test.name));
    const others = projects.filter((project) => !slowNames.has(project.test.name));
    // Only the project that builds, installs and starts the product (it measures no time) runs files side by side.
    const measuring = slow.filter((project) => project.test.name !== 'slow-builds');
    expect(measuring.map((project) => project.test.fileParallelism)).toEqual(measuring.map(() => false));
    const firstSlow = Math.min(...slow.map((project) => project.test.sequence?.groupOrder ?? 0));
    for (const project of others) expect(project.test.sequence?.groupOrder ?? 0, project.test.name).toBeLessThan(firstSlow);
    // Two slow projects side by side would share the cores too.
    expect(new Set(slow.map((project) => project.test.sequence?.groupOrder)).size).toBe(slow.length);
  });
});
