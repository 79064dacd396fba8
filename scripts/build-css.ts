import { join } from 'node:path';
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
  'scripts/build-output.ts', // the page itself
];

export async function firstScreenSheet(appCss: string, content: (string | RawContent)[] = FIRST_SCREEN_SOURCES, root = '.'): Promise<string> {
  const [sheet] = await new PurgeCSS().purge({
    content: content.map((source) => (typeof source === 'string' ? join(root, source) : source)),
    css: [{ raw: appCss }],
    // Custom properties nothing reads, animations nothing runs, fonts nothing uses go too.
    variables: true,
    keyframes: true,
    fontFace: true,
    safelist: [':root'],
  });
  return sheet.css;
}
