import { describe, expect, test } from 'vitest';
import { openJourney } from '../helpers/e2e-browser.ts';

// The budgets "no request to another origin, no failed request, no console error, no serious axe
// violation" are only as good as the collectors behind every journey; these prove the collectors bite.
describe('the journey harness', () => {
  test('reports a request to another origin, a failed request, a console error and an uncaught error', async () => {
    const j = await openJourney('harness self-check problems');
    try {
      // A page of our own making (no CSP), served at the gateway's origin by the browser itself.
      await j.page.route('**/harness-check', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="de"><title>x</title><body><main><h1>x</h1>
            <img alt="" src="http://127.0.0.2:9/foreign.png"><img alt="" src="/gibt-es-nicht.png">
            <button onclick="console.error('kaputt'); throw new Error('unhandled')">x</button></main></body></html>`,
        }),
      );
      await j.page.goto('/harness-check');
      await j.page.getByRole('button').click();
      await expect.poll(() => j.problems().join('\n')).toMatch(/request to another origin: GET http:\/\/127\.0\.0\.2:9\/foreign\.png/);
      await expect.poll(() => j.problems().join('\n')).toMatch(/failed request: GET .*\/gibt-es-nicht\.png -> 404/);
      await expect.poll(() => j.problems().join('\n')).toMatch(/console error: kaputt/);
      await expect.poll(() => j.problems().join('\n')).toMatch(/uncaught error in the page: unhandled/);
      await expect(j.screen('harness page')).rejects.toThrow(/had problems/);
    } finally {
      await j.context.close();
    }
  });

  test('accepts a failure the journey declared and insists that it happens', async () => {
    const j = await openJourney('harness self-check provoked');
    try {
      j.provoke({ url: /\/gibt-es-nicht$/, status: 404 });
      j.provoke({ url: /\/kommt-nie$/ });
      await j.page.goto('/gibt-es-nicht');
      expect(j.problems()).toEqual([]);
      await expect(j.close()).rejects.toThrow(/declared failures that never happened: \/\\\/kommt-nie\$\//);
    } finally {
      await j.context.close().catch(() => {});
    }
  });

  test('fails a screen with a serious accessibility violation', async () => {
    const j = await openJourney('harness self-check axe');
    try {
      await j.page.route('**/harness-axe', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="de"><title>x</title><main><input type="text"></main></html>' }),
      );
      await j.page.goto('/harness-axe');
      await expect(j.screen('unlabelled input')).rejects.toThrow(/critical: label/);
    } finally {
      await j.context.close();
    }
  });

  test('still runs the serious rules when it leaves out those that cannot fail a screen: pale text fails', async () => {
    const j = await openJourney('harness self-check contrast');
    try {
      await j.page.route('**/harness-contrast', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="de"><title>x</title><main><h1>x</h1><p style="color:#ccc;background:#fff">blass</p></main></html>',
        }),
      );
      await j.page.goto('/harness-contrast');
      await expect(j.screen('pale text')).rejects.toThrow(/serious: color-contrast/);
    } finally {
      await j.context.close();
    }
  });
});
