import { expect, test } from 'vitest';
import { withJourney } from '../helpers/e2e-browser.ts';
import { forEachUpstream, targetOf } from '../helpers/e2e-upstreams.ts';

const USER_AGENTS = {
  'Internet Explorer 11': 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'old Edge (EdgeHTML 18)': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
};

// The gateway answers this without the upstream; it runs against both all the same (one journey file, two upstreams).
forEachUpstream((upstream) => {
  for (const [name, userAgent] of Object.entries(USER_AGENTS)) {
    test(`sends ${name} to the static page that suggests Firefox, Chrome or Safari`, async () => {
      await withJourney(
        `${upstream.name} unsupported browser ${name}`,
        { userAgent },
        async (j) => {
          await j.page.goto('/login');
          await expect.poll(() => new URL(j.page.url()).pathname).toMatch(/internet-explorer/);
          const text = await j.page.locator('body').innerText();
          expect(text).toMatch(/Firefox/);
          expect(text).toMatch(/Chrome/);
          expect(text).toMatch(/Safari/);
          // The static page must not load the application bundle.
          expect(await j.page.locator('script[src*="/assets/"]').count()).toBe(0);
          await j.screen('unsupported browser page');
        },
        targetOf(upstream),
      );
    });
  }
});
