import { describe, expect, test } from 'vitest';
import { isUnsupportedBrowser } from './browser-support.ts';

describe('browser detection at start-up', () => {
  test.each([
    ['Internet Explorer 11', 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko'],
    ['Internet Explorer 10', 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)'],
    ['old Edge', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582'],
  ])('sends %s to the unsupported-browser page', (_name, ua) => {
    expect(isUnsupportedBrowser(ua)).toBe(true);
  });

  test.each([
    ['Chromium Edge', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0'],
    ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'],
    ['Safari', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'],
  ])('lets %s in', (_name, ua) => {
    expect(isUnsupportedBrowser(ua)).toBe(false);
  });
});
