import { afterEach, beforeEach, vi } from 'vitest';
import { render } from '@testing-library/preact';
import { Router } from 'wouter';
import Shell from '../../client/shell/Shell.tsx';
import { sidebarOpen } from '../../client/shell/sidebar-state.ts';
import { token, user } from '../../client/state/session.ts';
import { news } from '../../client/state/news.ts';
import { systemSettings } from '../../client/state/settings.ts';
import { activate } from '../../client/lib/i18n.ts';
import type { Me } from '../../contract/schemas/auth.ts';
import { buildMe } from './client-fetch.ts';

// The app shell (top bar, sidebar, news menu) for the tests in client/shell/: signed in, rendered, a window width.

/** A news item as GET /news answers it. */
export const newsItem = (id: string, title: string, read = false) => ({ id, title, body: '', publishedAt: '2026-01-01T00:00:00.000Z', read });

export function renderShell() {
  return render(
    <Router>
      <Shell>
        <p>Inhalt</p>
      </Shell>
    </Router>,
  );
}

export function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

/**
 * Registers the hooks of a shell test file: each test starts at /dashboard with a coach signed in (token 'tok'),
 * and afterwards the window width, news, settings, sidebar, language and mocks are as they were.
 */
export function signedInShell(): void {
  let originalWidth: number;
  beforeEach(() => {
    originalWidth = window.innerWidth;
    history.replaceState(null, '', '/dashboard');
    user.value = buildMe() as Me;
    token.value = 'tok';
    localStorage.setItem('accessToken', 'tok');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setWidth(originalWidth);
    news.value = [];
    systemSettings.value = null;
    sidebarOpen.value = false;
    user.value = null;
    activate('de');
  });
}
