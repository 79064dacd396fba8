import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/gateway-fixtures.ts';

// Comments and documents point into docs/ (`docs/product.md#roles`); every pointer must lead to a file and an anchor
// that exist, and nothing may cite the specification documents the repository does not contain.
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|tsx|mjs|css|grit|html|md)$/.test(file) && existsSync(join(REPO_ROOT, file)));
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** The anchors of a Markdown file: explicit `<a id>` ones and GitHub's heading slugs. */
function anchorsOf(file: string): Set<string> {
  const text = read(file);
  const anchors = new Set([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .trim()
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

/** Every `docs/<file>.md#<anchor>` in the repository, and every relative Markdown link inside docs/. */
function references(): { from: string; target: string; anchor: string | undefined }[] {
  const found: { from: string; target: string; anchor: string | undefined }[] = [];
  for (const file of tracked) {
    for (const [, target, anchor] of read(file).matchAll(/\bdocs\/([\w/-]+\.md)(?:#([\w-]+))?/g)) found.push({ from: file, target: `docs/${target}`, anchor });
    if (file.startsWith('docs/')) {
      for (const [, target, anchor] of read(file).matchAll(/\]\((?!https?:)([\w./-]+\.md)(?:#([\w-]+))?\)/g)) {
        found.push({ from: file, target: normalize(join(dirname(file), target)), anchor });
      }
    }
  }
  return found;
}

describe('references into docs/', () => {
  const refs = references();

  test('there are many, from code and from the documents themselves', () => {
    expect(refs.filter((r) => !r.from.startsWith('docs/')).length).toBeGreaterThan(50);
    expect(refs.some((r) => r.from.startsWith('docs/'))).toBe(true);
  });

  test('each leads to a file and an anchor that exist', () => {
    const broken = refs.filter((r) => !existsSync(join(REPO_ROOT, r.target)) || (r.anchor !== undefined && !anchorsOf(r.target).has(r.anchor)));
    expect(broken.map((r) => `${r.from} -> ${r.target}${r.anchor ? `#${r.anchor}` : ''}`)).toEqual([]);
  });

  test('nothing cites a specification document the repository does not contain', () => {
    // Built from parts so that this file does not cite them itself.
    const absent = new RegExp(`\\b(${['SP', 'EC'].join('')}|${['CONT', 'RACT'].join('')})(\\.md)?\\b|${['TE', 'AM'].join('')}\\.md`);
    const citing = tracked.filter((file) => file !== 'test/server/docs-references.test.ts' && absent.test(read(file)));
    expect(citing).toEqual([]);
  });
});
