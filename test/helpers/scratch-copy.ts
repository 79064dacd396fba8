import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { REPO_ROOT } from './gateway-fixtures.ts';

/**
 * A scratch copy of the repository as a fresh checkout has it: the tracked files as they are in the work tree
 * (so no dist/, data/ or test-artifacts/, and none of the probe files other tests write into the repository
 * while they run), with every installed package linked in. The links are per package, not one link for the
 * whole folder, so what tools cache in node_modules (vitest's .vite) stays in the copy.
 */
export function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'project-copy-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0');
  for (const path of tracked.filter((p) => p && existsSync(join(REPO_ROOT, p)))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(REPO_ROOT, path), join(dir, path));
  }
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '.vite' && entry !== '.cache') symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

/** The environment of a fresh shell: nothing of this vitest run (VITEST_*, NODE_ENV=test, npm_*) reaches the copy. */
export const shellEnv = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...extra });

/** Runs npm in the copy; resolves with its exit code and everything it printed. */
export function npm(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: shellEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: stripVTControlCharacters(output) }));
  });
}

/** SIGTERM to the process group npm leads, then waits until none of it is left (SIGKILL after 15 s). */
export async function stopGroup(pid: number, exited: Promise<unknown>): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, 'SIGTERM');
  await exited;
  for (let waited = 0; alive() && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) process.kill(-pid, 'SIGKILL');
}
