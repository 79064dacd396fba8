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

installErrorHandlers();

// No browser check here: the gateway sends every page request of Internet Explorer and EdgeHTML Edge to the static
// message page (server/middleware/browser-support.ts), and neither could parse this script (ES2022, type=module).

async function start(): Promise<void> {
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
