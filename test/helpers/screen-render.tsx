import type { ReactNode } from 'react';
import { render } from '@testing-library/preact';

/**
 * Render a page at a path such as "/news-dashboard?id=n2" using the browser location (happy-dom's
 * history), the same location hook the app uses.
 */
export function renderAt(path: string, ui: ReactNode) {
  window.history.replaceState(null, '', path);
  return render(ui);
}

/** The current path plus search, to assert on navigation. */
export const currentUrl = () => window.location.pathname + window.location.search;
