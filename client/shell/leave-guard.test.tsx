import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { Link, Route, Router, Switch } from 'wouter';
import { installLeaveGuard } from './leave-guard.ts';
import { aroundNav } from '../lib/navigation-guard.ts';
import { markUnsaved, resetUnsavedForTests } from '../lib/unsaved.ts';
import { useForm } from '../data/useForm.ts';
import { mockFetch } from '../../test/helpers/client-fetch.ts';
import { offeredAfterReload, signedInCoach } from '../../test/helpers/client-drafts.ts';

/* Leaving a screen with unsaved changes asks first: links, back/forward, reload and closing the tab. */

function Note() {
  const form = useForm<string>({ draft: 'draft:me:p1:comment' });
  return <textarea aria-label="Neuer Kommentar" value={form.value ?? ''} onInput={(e) => form.keep((e.target as HTMLTextAreaElement).value)} />;
}
function App() {
  return (
    <Router aroundNav={aroundNav}>
      <Link href="/dashboard">Dashboard</Link>
      <Switch>
        <Route path="/patient/p1">
          <Note />
        </Route>
        <Route path="/dashboard">
          <h1>Dashboard</h1>
        </Route>
      </Switch>
    </Router>
  );
}

beforeAll(() => installLeaveGuard());
beforeEach(() => {
  resetUnsavedForTests();
  history.replaceState(null, '', '/patient/p1');
});
afterEach(() => vi.unstubAllGlobals());
/** The browser's confirm(), answered by the test. */
function stubConfirm(answer: boolean) {
  const confirm = vi.fn(() => answer);
  vi.stubGlobal('confirm', confirm);
  return confirm;
}

const type = (text: string) => fireEvent.input(screen.getByLabelText('Neuer Kommentar'), { target: { value: text } });

test('a link away from a form with unsaved text asks, and staying keeps screen and text', () => {
  const confirm = stubConfirm(false);
  render(<App />);
  type('Rückruf vereinbart');
  fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
  expect(confirm).toHaveBeenCalledWith(expect.stringContaining('noch nicht gespeichert'));
  expect(location.pathname).toBe('/patient/p1');
  expect((screen.getByLabelText('Neuer Kommentar') as HTMLTextAreaElement).value).toBe('Rückruf vereinbart');
});

test('confirming leaves; the draft stays stored for the next visit', async () => {
  mockFetch({});
  signedInCoach('me');
  stubConfirm(true);
  render(<App />);
  type('Rückruf vereinbart');
  fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
  expect(location.pathname).toBe('/dashboard');
  expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  expect(await offeredAfterReload('draft:me:p1:comment')).toBe('Rückruf vereinbart');
});

test('without unsaved changes nothing is asked', () => {
  const confirm = stubConfirm(true);
  render(<App />);
  fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
  expect(confirm).not.toHaveBeenCalled();
  expect(location.pathname).toBe('/dashboard');
});

test('back with unsaved changes asks; staying puts the address back and the router never moves', () => {
  history.pushState(null, '', '/patient/p1');
  render(<App />);
  type('Rückruf vereinbart');
  stubConfirm(false);
  // What the browser does on Back: the address changes (without the router's pushState/replaceState events), then popstate.
  History.prototype.replaceState.call(history, null, '', '/dashboard');
  window.dispatchEvent(new PopStateEvent('popstate'));
  expect(location.pathname).toBe('/patient/p1');
  expect(screen.getByLabelText('Neuer Kommentar')).toBeTruthy();
});

test('reloading or closing the tab with unsaved changes makes the browser ask', () => {
  markUnsaved('form', true);
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  expect(event.defaultPrevented).toBe(true);
  markUnsaved('form', false);
  const calm = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(calm);
  expect(calm.defaultPrevented).toBe(false);
});
