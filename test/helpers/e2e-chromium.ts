/** Debian's Chromium (apt), driven by playwright-core; no browser download. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Quiet, sandbox-free headless flags: no background traffic that would count as requests to other origins. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
