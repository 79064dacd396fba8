import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './gateway-fixtures.ts';

/**
 * A throwaway project for build tests: client/main.tsx (React-style code, a signal, a shared module, CSS,
 * a lazy area with its own CSS), locales and static/, with node_modules linked to the repository's.
 */
export function makeBuildProject(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'gateway-build-'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'client/area'), { recursive: true });
  mkdirSync(join(root, 'locales'));
  mkdirSync(join(root, 'static'));
  const files: Record<string, string> = {
    'client/main.tsx': [
      "import './main.css';",
      "import { render } from 'react-dom';",
      "import { useState } from 'react';",
      "import { signal } from '@preact/signals-react';",
      "import { shared } from './shared.ts';",
      'const count = signal(0);',
      'function App() {',
      '  const [n] = useState(1);',
      '  return <p className="entry">{count.value + n}{shared()}</p>;',
      '}',
      "if (process.env.NODE_ENV !== 'production') console.log('DEVELOPMENT-ONLY-MARKER');",
      "render(<App />, document.getElementById('app')!);",
      // The lazy area renders into its own host once loaded (the browser test checks it arrives styled).
      "void import('./area/index.tsx').then(({ default: Area }) => {",
      "  const host = document.createElement('div');",
      "  document.body.append(host);",
      '  render(<Area />, host);',
      '});',
    ].join('\n'),
    'client/main.css': 'body { color: rebeccapurple; }\n.entry { margin: 0; }\n',
    'client/shared.ts': "export function shared(): string { return 'SHARED-MODULE-TEXT'.toLowerCase(); }\n",
    'client/area/index.tsx': [
      "import './area.css';",
      "import { shared } from '../shared.ts';",
      'export default function Area() { return <div className="area">{shared()}</div>; }',
    ].join('\n'),
    'client/area/area.css': '.area { padding: 1rem; }\n',
    'locales/de.json': JSON.stringify({ login: { title: 'Anmelden' } }, null, 2),
    'locales/en.json': JSON.stringify({ login: { title: 'Sign in' } }, null, 2),
    'static/internet-explorer-msg.html': '<!DOCTYPE html><html lang="de"><body>alt</body></html>\n',
  };
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
  copyFileSync(join(REPO_ROOT, 'static/favicon.svg'), join(root, 'static/favicon.svg'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
