import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../../helpers/gateway-fixtures.ts';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);

describe('the project', () => {
  test('the server and the contract never import client code (what both need lives in contract/)', () => {
    const offenders: string[] = [];
    for (const root of ['server', 'contract']) {
      for (const file of sourceFiles(join(REPO_ROOT, root))) {
        const text = readFileSync(file, 'utf8');
        for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
          if (specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(join(REPO_ROOT, 'client'))) offenders.push(relative(REPO_ROOT, file));
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test('pins Node 24 as a devDependency', () => {
    expect(pkg.devDependencies.node).toMatch(/^\^?24\./);
  });

  test('everything the server imports at run time is a production dependency (the image has no dev dependencies)', () => {
    const roots = [join(REPO_ROOT, 'server'), join(REPO_ROOT, 'contract')];
    const problems: string[] = [];
    for (const root of roots) {
      for (const file of sourceFiles(root)) {
        const text = readFileSync(file, 'utf8');
        for (const [, kind, specifier] of text.matchAll(/^\s*(import|export)(?!\s+type\b)[^'"]*?from\s+'([^'.][^']*)'/gm)) {
          void kind;
          if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
          const name = packageName(specifier);
          if (!pkg.dependencies[name]) problems.push(`${relative(REPO_ROOT, file)} imports ${name}`);
        }
        for (const [, specifier] of text.matchAll(/import\(\s*'([^'.][^']*)'\s*\)/g)) {
          const name = packageName(specifier);
          if (!specifier.startsWith('node:') && !pkg.dependencies[name]) problems.push(`${relative(REPO_ROOT, file)} imports ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('.ci/run', () => {
  const script = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');

  test('is an executable bash script that stops on the first error', () => {
    expect(statSync(join(REPO_ROOT, '.ci/run')).mode & 0o111).not.toBe(0);
    expect(script.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    expect(script).toMatch(/^set -euo pipefail$/m);
    expect(spawnSync('bash', ['-n', join(REPO_ROOT, '.ci/run')]).status).toBe(0);
  });

  test('installs Chromium when missing, then runs npm ci and the README test command, in that order', () => {
    const chromium = script.indexOf('apt-get install -y --no-install-recommends chromium');
    const ci = script.indexOf('\nnpm ci');
    const npmTest = script.indexOf('\nnpm test');
    expect(script).toContain('if [ ! -x /usr/bin/chromium ]');
    expect(chromium).toBeGreaterThan(0);
    expect(ci).toBeGreaterThan(chromium);
    expect(npmTest).toBeGreaterThan(ci);
    expect(script).not.toMatch(/read\s|--interactive/);
  });
});
