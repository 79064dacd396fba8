import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage } from '../server/page.ts';
import type { BuildManifest } from './build.ts';
import { FIRST_SCREEN_BYTES } from './budgets.ts';

/**
 * First-screen budget of /login (scripts/budgets.ts), in brotli bytes as the gateway sends them: the page, every
 * stylesheet it links (render-blocking), the entry module and everything it imports statically (modulepreloaded),
 * the login area's chunks if the route table ever makes it lazy, and the German dictionary fetched before the
 * first text shows. The app module, the areas, the app stylesheet and Sentry load later and do not count.
 */
export const LIMIT_BYTES = FIRST_SCREEN_BYTES;
/** Should the route table ever make the login screen an area, its files count too. */
const LOGIN_AREA = 'login';
const DEFAULT_DIST = fileURLToPath(new URL('../dist', import.meta.url));

export interface SizeReport {
  files: { path: string; bytes: number; why: string }[];
  total: number;
  limit: number;
  ok: boolean;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1];

/** What index.html makes the browser load before it renders, read from the HTML itself. */
export function pageResources(html: string): { path: string; why: string }[] {
  const found: { path: string; why: string }[] = [];
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const rel = attr(tag, 'rel');
    const href = attr(tag, 'href');
    if (!href?.startsWith('/assets/')) continue;
    if (rel === 'stylesheet') found.push({ path: href, why: 'stylesheet' });
    else if (rel === 'modulepreload') found.push({ path: href, why: 'static import' });
  }
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = attr(tag, 'src');
    if (src) found.push({ path: src, why: 'entry' });
  }
  return found;
}

function brotliSize(publicDir: string, urlPath: string): number {
  const file = join(publicDir, urlPath);
  if (existsSync(`${file}.br`)) return statSync(`${file}.br`).size;
  if (!existsSync(file)) throw new Error(`${urlPath} is referenced by index.html but missing from ${publicDir}`);
  return statSync(file).size; // binary files are sent as they are
}

export function measureFirstScreen(distDir: string = DEFAULT_DIST): SizeReport {
  const dist = resolve(distDir);
  const publicDir = join(dist, 'public');
  const templatePath = join(publicDir, 'index.html');
  if (!existsSync(templatePath)) throw new Error(`${templatePath} does not exist: run "npm run build" first`);
  const page = renderPage(readFileSync(templatePath, 'utf8'), { appTitle: 'CL', sentryDsn: undefined, sessionIdleMinutes: 30 });
  const files: SizeReport['files'] = [{ path: '/login (index.html)', bytes: page.br.length, why: 'page' }];
  const seen = new Set<string>();
  const add = (path: string, why: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    files.push({ path, bytes: brotliSize(publicDir, path), why });
  };
  for (const resource of pageResources(page.html.toString('utf8'))) add(resource.path, resource.why);
  const manifestPath = join(dist, 'build-manifest.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BuildManifest;
    for (const path of manifest.areas[LOGIN_AREA] ?? []) add(path, 'login area (lazy)');
  }
  add('/assets/i18n/de.json', 'German dictionary');
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  return { files, total, limit: LIMIT_BYTES, ok: total <= LIMIT_BYTES };
}

export function formatReport(report: SizeReport): string {
  const width = Math.max(...report.files.map((f) => f.path.length));
  const rows = report.files.map((f) => `  ${f.path.padEnd(width)}  ${String(f.bytes).padStart(7)} B  ${f.why}`);
  const kb = (n: number) => (n / 1024).toFixed(1);
  return [
    'First screen of /login (brotli bytes):',
    ...rows,
    `  ${'total'.padEnd(width)}  ${String(report.total).padStart(7)} B  = ${kb(report.total)} KB of ${kb(report.limit)} KB`,
    report.ok ? 'size: within budget' : `size: OVER BUDGET by ${report.total - report.limit} bytes`,
  ].join('\n');
}

if (import.meta.main) {
  try {
    const report = measureFirstScreen(process.argv[2]);
    console.log(formatReport(report));
    if (!report.ok) process.exit(1);
  } catch (error) {
    console.error(`size: ${(error as Error).message}`);
    process.exit(1);
  }
}
