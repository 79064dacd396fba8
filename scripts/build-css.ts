import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { PurgeCSS, type RawContent } from 'purgecss';

/**
 * The first-screen sheet: the app sheet without the rules for what the first screen never renders, cut by PurgeCSS
 * from the sources of that screen. The whole app sheet would add 12 KB of brotli to the first screen's 30 KB. The
 * cut keeps the app sheet's order, so it changes nothing when the app sheet arrives (test/e2e/budgets.test.ts
 * compares the computed styles of every element with either sheet).
 */
export const FIRST_SCREEN_SOURCES = [
  'client/features/login/index.tsx',
  'client/features/internet-explorer/index.tsx',
  'client/components/Loading.tsx',
  'client/components/ErrorBoundary.tsx',
  'client/components/ConnectionBanner.tsx',
];

/** The sources of the first screen under root, and the page (raw HTML); a source that is gone stops the build. */
export function firstScreenContent(root: string, page: string): RawContent[] {
  const missing = FIRST_SCREEN_SOURCES.filter((source) => !existsSync(join(root, source)));
  if (missing.length) throw new Error(`the first screen's sources moved (${missing.join(', ')}): update FIRST_SCREEN_SOURCES in scripts/build-css.ts`);
  const sources = FIRST_SCREEN_SOURCES.map((source) => ({ raw: readFileSync(join(root, source), 'utf8'), extension: extname(source).slice(1) }));
  return [...sources, { raw: page, extension: 'html' }];
}

export async function firstScreenSheet(appCss: string, content: RawContent[]): Promise<string> {
  const [sheet] = await new PurgeCSS().purge({
    content,
    css: [{ raw: appCss }],
    // Custom properties nothing reads, animations nothing runs, fonts nothing uses go too.
    variables: true,
    keyframes: true,
    fontFace: true,
    safelist: [':root'],
  });
  return sheet.css;
}
