import type { NextFunction, Request, Response } from 'express';
import UAParser from 'ua-parser-js';

import { UNSUPPORTED_BROWSER_PATH } from '../../contract/pages.ts';

/**
 * Internet Explorer (Trident) and the old EdgeHTML Edge cannot run the client (ES modules, modern CSS); they
 * would show a blank page. Chromium-based Edge ("Edg/") reports the Blink engine and passes.
 */
export function isUnsupportedBrowser(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  const { browser, engine } = new UAParser(userAgent).getResult();
  return engine.name === 'Trident' || engine.name === 'EdgeHTML' || browser.name === 'IE' || browser.name === 'IEMobile';
}

/**
 * For page requests only: app.ts places it after the API proxy and the client's files, so assets, the API and the
 * message page itself never reach it.
 */
export function redirectUnsupportedBrowsers(req: Request, res: Response, next: NextFunction): void {
  if ((req.method === 'GET' || req.method === 'HEAD') && isUnsupportedBrowser(req.headers['user-agent'])) {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, UNSUPPORTED_BROWSER_PATH);
    return;
  }
  next();
}
