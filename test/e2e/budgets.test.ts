import { describe, expect } from 'vitest';
import { journey } from '../helpers/e2e-browser.ts';
import { NetworkRecorder, measureLoginScreen, type FirstScreen } from '../helpers/e2e-measure.ts';

const FIRST_SCREEN_BUDGET_BYTES = 40 * 1024;
const REQUESTS_BEFORE_USABLE_BUDGET = 4;

const describeRequests = (screen: FirstScreen) =>
  screen.requests.map((r) => `${r.url}: body ${r.bodyBytes} B ${r.encoding}, with headers ${r.bytes} B`).join('\n');

describe('performance budgets of the login screen', () => {
  // Bodies as sent (brotli), as scripts/size.ts counts the build; here measured in the browser, so whatever
  // the page really fetches before the form is usable counts, including anything the build report misses.
  journey('delivers the login screen in at most 40 KB of compressed responses, all from its own origin', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    await j.screen('login');
    expect(screen.requests.every((r) => new URL(r.url).origin === j.origin), describeRequests(screen)).toBe(true);
    expect(screen.bodyBytes, describeRequests(screen)).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_BYTES);
  });

  // The favicon is not counted (FirstScreen.icon): it never gates the form and its timing varies.
  journey('makes the login form usable after at most 4 requests', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    expect(screen.requests.length, describeRequests(screen)).toBeGreaterThan(0);
    expect(screen.requests.length, describeRequests(screen)).toBeLessThanOrEqual(REQUESTS_BEFORE_USABLE_BUDGET);
  });

  journey('serves the first screen compressed with brotli', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    const large = screen.requests.filter((r) => r.bodyBytes > 1000 && r.status === 200);
    expect(large.length).toBeGreaterThan(0);
    expect(large.map((r) => `${new URL(r.url).pathname}: ${r.encoding}`)).toEqual(
      large.map((r) => `${new URL(r.url).pathname}: br`),
    );
  });

  journey('takes every hashed asset from the browser cache on a repeat visit', async ({ j }) => {
    const first = await measureLoginScreen(j.page, await NetworkRecorder.attach(await j.context.newCDPSession(j.page)), `${j.origin}/login`);
    // A new tab in the same profile: normal cache rules (a reload would revalidate everything).
    const again = await j.context.newPage();
    const repeat = await measureLoginScreen(again, await NetworkRecorder.attach(await j.context.newCDPSession(again)), `${j.origin}/login`);
    const hashed = (r: { url: string }) => /\/assets\/[^/]+-[A-Z0-9]{8}\.(js|css)$/.test(new URL(r.url).pathname);
    expect(first.requests.filter(hashed).length).toBeGreaterThan(0);
    const fetchedAgain = repeat.requests.filter((r) => hashed(r) && !r.fromCache).map((r) => r.url);
    expect(fetchedAgain).toEqual([]);
    await j.screen('login on a repeat visit', again);
  });
});
