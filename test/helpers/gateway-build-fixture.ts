import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import { build } from '../../scripts/build.ts';
import { REPO_ROOT } from './gateway-fixtures.ts';

/**
 * A throwaway project for build tests: client/main.tsx (React-style code, a signal, a shared module, CSS),
 * an area table with two lazy areas (each with its own CSS, both sharing a module) and the app module,
 * locales and static/, with node_modules linked to the repository's.
 */
export function makeBuildProject(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'gateway-build-'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'client/area'), { recursive: true });
  mkdirSync(join(root, 'client/second'), { recursive: true });
  mkdirSync(join(root, 'locales'));
  mkdirSync(join(root, 'static'));
  const files: Record<string, string> = {
    'client/main.tsx': [
      "import './main.css';",
      "import { render } from 'react-dom';",
      "import { useState } from 'react';",
      "import { signal } from '@preact/signals-react';",
      "import { shared } from './shared.ts';",
      "import { AREAS } from './areas.ts';",
      'const count = signal(0);',
      'function App() {',
      '  const [n] = useState(1);',
      '  return <p className="entry">{count.value + n}{shared()}</p>;',
      '}',
      "if (process.env.NODE_ENV !== 'production') console.log('DEVELOPMENT-ONLY-MARKER');",
      "render(<App />, document.getElementById('app')!);",
      // The area table the build writes into the page (as client/lib/areas.ts reads it): the app stylesheet first, then the area.
      'const table = document.querySelector<HTMLMetaElement>(\'meta[name="area-files"]\')?.content;',
      'const built = table ? (JSON.parse(table) as { css: string; files: Record<string, string[]> }) : undefined;',
      'async function show() {',
      '  if (built) {',
      "    const link = document.createElement('link');",
      "    link.rel = 'stylesheet';",
      '    link.href = built.css;',
      '    await new Promise((resolve) => { link.onload = resolve; document.head.append(link); });',
      '  }',
      '  const { default: Area } = await AREAS.area();',
      "  const host = document.createElement('div');",
      '  document.body.append(host);',
      '  render(<Area />, host);',
      '}',
      'void show();',
    ].join('\n'),
    'client/main.css': 'body { color: rebeccapurple; }\n.entry { margin: 0; }\n',
    'client/shared.ts': "export function shared(): string { return 'SHARED-MODULE-TEXT'.toLowerCase(); }\n",
    // The area table: its dynamic imports are the areas; the app module is loaded from here too.
    'client/areas.ts': [
      'export const AREAS = {',
      "  app: () => import('./app.ts'),",
      "  area: () => import('./area/index.tsx'),",
      "  second: () => import('./second/index.tsx'),",
      '};',
    ].join('\n'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is source code for the fixture build, template literal included
    'client/app.ts': "import { shared } from './shared.ts';\nexport const appText = () => `APP-MODULE-TEXT ${shared()}`;\n",
    'client/lazy-shared.ts': "export function lazyShared(): string { return 'LAZY-SHARED-TEXT'.toLowerCase(); }\n",
    'client/area/index.tsx': [
      "import './area.css';",
      "import { shared } from '../shared.ts';",
      "import { lazyShared } from '../lazy-shared.ts';",
      'export default function Area() { return <div className="area">{shared()}{lazyShared()}{\'AREA-ONLY-TEXT\'}</div>; }',
    ].join('\n'),
    'client/area/area.css': '.area { padding: 1rem; }\n',
    'client/second/index.tsx': [
      "import './second.css';",
      "import { lazyShared } from '../lazy-shared.ts';",
      'export default function Second() { return <div className="second">{lazyShared()}{\'SECOND-ONLY-TEXT\'}</div>; }',
    ].join('\n'),
    'client/second/second.css': '.second { margin: 2rem; }\n',
    'locales/de.json': JSON.stringify({ login: { title: 'Anmelden' } }, null, 2),
    'locales/en.json': JSON.stringify({ login: { title: 'Sign in' } }, null, 2),
    'static/internet-explorer-msg.html': '<!DOCTYPE html><html lang="de"><body>alt</body></html>\n',
  };
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
  copyFileSync(join(REPO_ROOT, 'static/favicon.svg'), join(root, 'static/favicon.svg'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * `project` (makeBuildProject) and `manifest`, its build: one for every test of a file, removed after its last test.
 * Building takes seconds: a file starts it in `test.beforeAll` with a hook's time.
 */
export const builtProjectTest = test
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('project', { scope: 'file' }, ({}, { onCleanup }) => {
    const project = makeBuildProject();
    onCleanup(() => project.cleanup());
    return project;
  })
  .extend('manifest', { scope: 'file' }, ({ project }) => build({ root: project.root }));
