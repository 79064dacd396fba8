import type { NextFunction, Request, Response } from 'express';
import UAParser from 'ua-parser-js';

export const UNSUPPORTED_BROWSER_PATH = '/internet-explorer-msg';

/**
 * Internet Explorer (Trident) and the old EdgeHTML Edge cannot run the client (ES modules, modern CSS); they
 * would show a blank page. Chromium-based Edge ("Edg/") reports the Blink engine and passes.
 */
export function isUnsupportedBrowser(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  const { browser, engine } = new UAParser(userAgent).getResult();
  return engine.name === 'Trident' || engine.name === 'EdgeHTML' || browser.name === 'IE' || browser.name === 'IEMobile';
}

/** For page requests only: assets, the API and the message page itself are left alone. */
export function redirectUnsupportedBrowsers(req: Request, res: Response, next: NextFunction): void {
  if (isUnsupportedBrowser(req.headers['user-agent'])) {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, UNSUPPORTED_BROWSER_PATH);
    return;
  }
  next();
}
