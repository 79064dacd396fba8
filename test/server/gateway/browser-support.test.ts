import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { isUnsupportedBrowser } from '../../../server/middleware/browser-support.ts';
import { ENTRY_JS, testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

// Real user-agent strings as the browsers send them.
const UNSUPPORTED = {
  'IE 11 on Windows 10': 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'IE 11 on Windows 7': 'Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko',
  'IE 10': 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)',
  'IE 9': 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)',
  'IE 11 in compatibility view': 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E)',
  'EdgeHTML Edge 18': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
  'EdgeHTML Edge 12': 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.10136',
};
const SUPPORTED = {
  'Chromium Edge': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  'Chrome on Windows': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Firefox on Linux': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Safari on macOS': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Safari on iPhone': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Chrome on Android': 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Samsung Internet':
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Headless Chromium': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
};

const test = fakeUpstreamTest().extend('app', { scope: 'file' }, ({ publicDir, upstream }) =>
  createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir }),
);

describe('browser detection', () => {
  test.each(Object.entries(UNSUPPORTED))('%s is unsupported', (_name, ua) => {
    expect(isUnsupportedBrowser(ua)).toBe(true);
  });
  test.each(Object.entries(SUPPORTED))('%s is supported', (_name, ua) => {
    expect(isUnsupportedBrowser(ua)).toBe(false);
  });
  test('a request without User-Agent is served', () => {
    expect(isUnsupportedBrowser(undefined)).toBe(false);
  });
});

describe('page requests', () => {
  test.for(Object.entries(UNSUPPORTED))('%s asking for a page is redirected to /internet-explorer-msg', async ([_name, ua], { app }) => {
    for (const path of ['/', '/login', '/patient/1']) {
      const res = await request(app).get(path).set('User-Agent', ua);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/internet-explorer-msg');
    }
  });

  test.for(Object.entries(SUPPORTED))('%s gets the page', async ([_name, ua], { app }) => {
    const res = await request(app).get('/login').set('User-Agent', ua);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="app"></div>');
  });

  test('old browsers still get assets and the API (no redirect loops, no broken message page)', async ({ app }) => {
    const ie = UNSUPPORTED['IE 11 on Windows 10'];
    expect((await request(app).get(ENTRY_JS).set('User-Agent', ie)).status).toBe(200);
    expect((await request(app).get('/internet-explorer-msg.css').set('User-Agent', ie)).status).toBe(200);
    expect((await request(app).get('/v2/news').set('User-Agent', ie)).status).toBe(200);
  });
});

describe('the unsupported-browser page', () => {
  test('is static German HTML without script that names Firefox, Chrome and Safari', async ({ app }) => {
    const res = await request(app).get('/internet-explorer-msg').set('User-Agent', UNSUPPORTED['IE 11 on Windows 10']);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain('Ihr Browser wird nicht unterstützt');
    for (const browser of ['Firefox', 'Chrome', 'Safari']) expect(res.text).toContain(browser);
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toMatch(/\sstyle=/i);
    // IE 11 must not fall into a compatibility mode.
    expect(res.text).toContain('<meta http-equiv="X-UA-Compatible" content="IE=edge">');
  });

  test('uses only CSS that IE 11 understands (no custom properties, no grid, no flex gap)', async ({ app }) => {
    const res = await request(app).get('/internet-explorer-msg.css');
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.text).not.toMatch(/var\(|--[a-z]|display:\s*grid|gap:/);
  });
});
