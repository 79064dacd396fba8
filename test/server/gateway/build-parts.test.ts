import { afterEach, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstScreenSheet } from '../../../scripts/build-css.ts';
import { contentHash, nameByContent } from '../../../scripts/build-names.ts';

describe('naming files after their final bytes', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const publicDir = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'names-'));
    mkdirSync(join(dir, 'assets'));
    for (const [url, text] of Object.entries(files)) writeFileSync(join(dir, url), text);
    return dir;
  };

  test('the hash is 8 characters of base32 and changes with any byte', () => {
    expect(contentHash('a')).toMatch(/^[A-Z2-7]{8}$/);
    expect(contentHash('a')).not.toBe(contentHash('b'));
    expect(contentHash('same')).toBe(contentHash(Buffer.from('same')));
  });

  test('renames a file after those it refers to, so its hash covers their final names', () => {
    const root = publicDir({
      '/assets/leaf-OLD00001.js': 'export const x = 1;\n//# sourceMappingURL=leaf-OLD00001.js.map\n',
      '/assets/leaf-OLD00001.js.map': '{"version":3,"file":"leaf-OLD00001.js"}',
      '/assets/user-OLD00002.js': 'import "/assets/leaf-OLD00001.js";\n',
    });
    const renamed = nameByContent(root, [
      { url: '/assets/user-OLD00002.js', stem: 'user' },
      { url: '/assets/leaf-OLD00001.js', stem: 'leaf' },
    ]);
    const leaf = renamed.get('/assets/leaf-OLD00001.js')!;
    const user = renamed.get('/assets/user-OLD00002.js')!;
    const userText = readFileSync(join(root, user), 'utf8');
    expect(userText).toBe(`import "${leaf}";\n`);
    expect(user).toBe(`/assets/user-${contentHash(userText)}.js`);
    const leafText = readFileSync(join(root, leaf), 'utf8');
    expect(leafText).not.toContain('sourceMappingURL');
    expect(leaf).toBe(`/assets/leaf-${contentHash(leafText)}.js`);
    expect(JSON.parse(readFileSync(join(root, `${leaf}.map`), 'utf8')).file).toBe(leaf.split('/').pop());
    expect(readdirSync(join(root, 'assets')).sort()).toEqual([leaf, `${leaf}.map`, user].map((u) => u.split('/').pop()).sort());
  });

  test('runs the finishing step last, with every other final name known', () => {
    const root = publicDir({ '/assets/a-OLD00001.js': 'a', '/assets/main-OLD00002.js': 'TABLE' });
    const renamed = nameByContent(root, [
      { url: '/assets/main-OLD00002.js', stem: 'main', finish: (text, final) => text.replace('TABLE', final('/assets/a-OLD00001.js')) },
      { url: '/assets/a-OLD00001.js', stem: 'a' },
    ]);
    expect(readFileSync(join(root, renamed.get('/assets/main-OLD00002.js')!), 'utf8')).toBe(renamed.get('/assets/a-OLD00001.js'));
  });

  test('refuses files that refer to each other: no order could name both after their final bytes', () => {
    const root = publicDir({ '/assets/a-OLD00001.js': 'import "/assets/b-OLD00002.js";', '/assets/b-OLD00002.js': 'import "/assets/a-OLD00001.js";' });
    expect(() =>
      nameByContent(root, [
        { url: '/assets/a-OLD00001.js', stem: 'a' },
        { url: '/assets/b-OLD00002.js', stem: 'b' },
      ]),
    ).toThrow(/refer to each other/);
  });
});

describe('the first-screen stylesheet', () => {
  const APP = [
    ':root{--used:1px;--chain:var(--used);--unused:2px;--via:var(--chain)}',
    'input{padding:var(--via)}',
    '.topbar{color:red}',
    'table td{color:red}',
    'input[type=checkbox]{margin:0}',
    ':where(input,select):not([type=checkbox]){border:0}',
    'h1,dialog>header{margin:0}',
    '@media(min-width:768px){.sidebar{width:250px}.auth-card{width:420px}}',
    '@media(min-width:1024px){.sidebar{width:300px}}',
    '@keyframes spin{to{transform:rotate(1turn)}}@keyframes unused{to{opacity:0}}',
    '[aria-busy=true]:before{animation:spin 1s}',
    'label:has([type=radio]){cursor:pointer}',
    '::-webkit-inner-spin-button{height:auto}::-ms-expand{display:none}::placeholder{opacity:1}',
  ].join('');
  const sheet = firstScreenSheet(APP);

  test('keeps rules that can style the first screen and drops those for elements it never renders', () => {
    expect(sheet).toContain('input{padding:var(--via)}');
    expect(sheet).toContain(':where(input,select):not([type=checkbox]){border:0}');
    expect(sheet).toContain('.auth-card{width:420px}');
    for (const gone of ['.topbar', 'table td', '[type=checkbox]{margin', '.sidebar', ':has', 'spin-button', 'ms-expand']) expect(sheet).not.toContain(gone);
    expect(sheet).toContain('::placeholder{opacity:1}');
  });

  test('keeps only the selectors of a list that can match', () => {
    expect(sheet).toContain('h1{margin:0}');
    expect(sheet).not.toContain('dialog');
  });

  test('drops custom properties nothing reads, keeping those read through other properties', () => {
    expect(sheet).toContain('--used:1px');
    expect(sheet).toContain('--chain:var(--used)');
    expect(sheet).toContain('--via:var(--chain)');
    expect(sheet).not.toContain('--unused');
  });

  test('drops animations nothing runs and at-rules left empty', () => {
    expect(sheet).toContain('@keyframes spin');
    expect(sheet).not.toContain('@keyframes unused');
    expect(sheet).not.toContain('1024px');
  });
});
