import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError, notFound } from '../errors.ts';
import { isHashedAsset, pickEncoding, scanPublicDir } from '../static-files.ts';
import type { PublicFile } from '../static-files.ts';
import { LANG_COOKIE, PAGE_LANGUAGES, pageLanguage, renderPage } from '../page.ts';
import type { PageSettings, RenderedPage } from '../page.ts';
import { isPagePath, UNSUPPORTED_BROWSER_PATH } from '../../contract/pages.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// private: the page carries this browser's XSRF cookies, a shared cache must never hand them to someone else.
const PAGE_CACHE = 'private, no-cache';
const REVALIDATE = 'no-cache';

function sendFile(req: Request, res: Response, next: NextFunction, file: PublicFile, cacheControl: string, sourceMap?: string): void {
  const encoding = pickEncoding(req, { br: !!file.br, gz: !!file.gz });
  const variant = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gz! : file;
  const etag = encoding ? file.etag.replace(/"$/, `-${encoding}"`) : file.etag;
  res.setHeader('Cache-Control', cacheControl);
  // Scripts carry no sourceMappingURL comment (it would make their name depend on their own name): the header says it.
  if (sourceMap) res.setHeader('SourceMap', sourceMap);
  res.setHeader('Content-Type', file.type);
  res.setHeader('ETag', etag);
  if (file.br || file.gz) res.setHeader('Vary', 'Accept-Encoding');
  // req.fresh compares If-None-Match (and If-Modified-Since) with the ETag just set, as Express's own send does.
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', variant.size);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (variant.body) {
    res.end(variant.body);
    return;
  }
  const stream = createReadStream(variant.path);
  stream.once('open', () => stream.pipe(res));
  stream.once('error', () => {
    // A large file was listed at start but is gone now (a rebuild or deploy replaced dist/ under a running
    // process): answer 404 instead of dropping the connection, and only cut it once the body has begun.
    if (res.headersSent) return void res.destroy();
    for (const header of ['Content-Encoding', 'Content-Length', 'ETag', 'Vary']) res.removeHeader(header);
    next(new HttpError(404, 'NOT_FOUND', 'Unknown asset', { headers: { 'Cache-Control': 'no-store' } }));
  });
}

function sendPage(req: Request, res: Response, page: RenderedPage, status: number): void {
  const encoding = pickEncoding(req, { br: true, gz: true });
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html;
  res.setHeader('Cache-Control', PAGE_CACHE);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // The answer differs by encoding, by the lang cookie (which dictionary is preloaded) and, for old
  // browsers, by User-Agent (redirect instead of page).
  res.setHeader('Vary', 'Accept-Encoding, User-Agent, Cookie');
  res.setHeader('ETag', page.etag);
  if (status === 200 && req.fresh) {
    res.status(304).end();
    return;
  }
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.status(status);
  res.end(req.method === 'HEAD' ? undefined : body);
}

export interface StaticOptions extends PageSettings {
  publicDir: string;
  /** Puts the XSRF-TOKEN cookie on page answers. */
  issueXsrf: (req: Request, res: Response) => void;
  warn: (message: string) => void;
}

/**
 * The built client as two middlewares: `files` (assets and the static files of static/, copied by the build) and
 * `pages` (the page for every client route, 404 for other paths). app.ts puts the browser check between them, so
 * only page requests are sent to the message for old browsers.
 */
export function clientFiles(options: StaticOptions): { files: RequestHandler; pages: RequestHandler } {
  const files = scanPublicDir(options.publicDir);
  const templatePath = join(options.publicDir, 'index.html');
  const template = existsSync(templatePath) ? readFileSync(templatePath, 'utf8') : null;
  const pages = new Map(PAGE_LANGUAGES.map((lang) => [lang, template === null ? null : renderPage(template, options, lang)]));
  if (template === null) options.warn(`${templatePath} is missing: run "npm run build" (pages answer 503 until then)`);

  const filesHandler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    if (path.startsWith('/assets/')) {
      const file = files.get(path);
      if (!file) return next(notFound('Unknown asset'));
      return sendFile(req, res, next, file, isHashedAsset(path) ? IMMUTABLE : REVALIDATE, files.has(`${path}.map`) ? `${path}.map` : undefined);
    }
    const file = path === UNSUPPORTED_BROWSER_PATH ? files.get(`${UNSUPPORTED_BROWSER_PATH}.html`) : path.endsWith('.html') ? undefined : files.get(path);
    if (file) return sendFile(req, res, next, file, REVALIDATE);
    next();
  };

  const pagesHandler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const page = pages.get(pageLanguage(req.cookies?.[LANG_COOKIE]));
    if (!page) return next(new HttpError(503, 'CLIENT_NOT_BUILT', 'The client is not built yet'));
    options.issueXsrf(req, res);
    sendPage(req, res, page, isPagePath(req.path) ? 200 : 404);
  };
  return { files: filesHandler, pages: pagesHandler };
}
