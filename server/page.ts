import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

/** Placeholders the build writes into dist/public/index.html; filled once per gateway instance. */
export const TITLE_PLACEHOLDER = '%APP_TITLE%';
/** Where the meta tags of the configuration go (Sentry DSN, idle time). */
export const SENTRY_PLACEHOLDER = '<!--%SENTRY_META%-->';
export const LANG_PLACEHOLDER = '%LANG%';

/** Languages with a dictionary; the first is the default. */
export const PAGE_LANGUAGES = ['de', 'en', 'fr'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
/**
 * The client mirrors the chosen language into this (non-secret) cookie so the page can preload the one
 * dictionary the browser will use, instead of German for everybody.
 */
export const LANG_COOKIE = 'lang';
export function pageLanguage(cookieValue: unknown): PageLanguage {
  return (PAGE_LANGUAGES as readonly unknown[]).includes(cookieValue) ? (cookieValue as PageLanguage) : 'de';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface RenderedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/** What the configuration tells the page. */
export interface PageSettings {
  appTitle: string;
  sentryDsn: string | undefined;
  /** SESSION_IDLE_MINUTES: the client signs out after this long without input. */
  sessionIdleMinutes: number;
}

/**
 * The title, the Sentry DSN and the idle time reach the client as meta tags (no inline script: the CSP forbids
 * it). Text is HTML-escaped, so a title like `<script>` shows as text instead of running.
 */
export function renderPage(template: string, settings: PageSettings, lang: PageLanguage = 'de'): RenderedPage {
  const title = escapeHtml(settings.appTitle);
  const sentryMeta = settings.sentryDsn ? `<meta name="sentry-dsn" content="${escapeHtml(settings.sentryDsn)}">` : '';
  const idleMeta = `<meta name="session-idle-minutes" content="${Math.trunc(settings.sessionIdleMinutes)}">`;
  const html = Buffer.from(
    template
      .replaceAll(TITLE_PLACEHOLDER, title)
      .replace(SENTRY_PLACEHOLDER, sentryMeta + idleMeta)
      .replaceAll(LANG_PLACEHOLDER, lang),
  );
  return {
    html,
    br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(html, { level: 9 }),
    etag: `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
  };
}
