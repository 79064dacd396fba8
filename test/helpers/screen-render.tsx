import type { ReactNode } from 'react';
import { render } from '@testing-library/preact';
import { Route, Switch } from 'wouter';

/**
 * An area's page as the route table (client/routes.tsx) shows it: matched at its path, with what follows the path
 * handed down to the area (useAreaPath). A path outside any area renders the page as it is.
 */
export function inArea(ui: ReactNode) {
  return (
    <Switch>
      <Route path="/:area/*?">{ui}</Route>
      <Route>{ui}</Route>
    </Switch>
  );
}

/**
 * Render a page at a path such as "/news-dashboard?id=n2" using the browser location (happy-dom's
 * history), the same location hook the app uses.
 */
export function renderAt(path: string, ui: ReactNode) {
  window.history.replaceState(null, '', path);
  return render(inArea(ui));
}

/** The current path plus search, to assert on navigation. */
export const currentUrl = () => window.location.pathname + window.location.search;
