import './styles/pico.css';
import './styles/app.css';
import './styles/auth.css';
import './styles/states.css';
import { render } from 'react-dom';
import { Router } from 'wouter';
import { AppRoutes } from './routes.tsx';
import { aroundNav } from './lib/navigation-guard.ts';
import { checkSession } from './state/session.ts';
import { setLanguage, storedLanguage, activate, DEFAULT_LOCALE } from './lib/i18n.ts';
import { installErrorHandlers, reportError, startErrorReporting } from './lib/error-reporting.ts';
import { isUnsupportedBrowser, UNSUPPORTED_PAGE } from './lib/browser-support.ts';

installErrorHandlers();

async function start(): Promise<void> {
  if (isUnsupportedBrowser(navigator.userAgent) && location.pathname !== UNSUPPORTED_PAGE) {
    location.replace(UNSUPPORTED_PAGE);
    return;
  }
  // Only the active language's file is fetched; German when nothing was chosen.
  try {
    await setLanguage(storedLanguage());
  } catch (error) {
    reportError(error);
    if (storedLanguage() !== DEFAULT_LOCALE) await setLanguage(DEFAULT_LOCALE).catch(reportError);
    else activate(DEFAULT_LOCALE);
  }
  void checkSession();
  const root = document.getElementById('app');
  if (!root) throw new Error('index.html needs an element with id="app"');
  render(
    <Router aroundNav={aroundNav}>
      <AppRoutes />
    </Router>,
    root,
  );
  // Sentry is fetched only after the first screen is on the page, so it never delays it.
  requestAnimationFrame(() => setTimeout(() => void startErrorReporting(), 0));
}

start().catch(reportError);
