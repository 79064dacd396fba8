import { afterEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import ResetPassword from './index.tsx';
import { resetSessionForTests } from '../../state/session.ts';
import { apiError, mockFetch, noContent } from '../../../test/helpers/client-fetch.ts';

// A password the server refuses on the reset link (too common, names the coach): said at the field; the link
// still works, so the screen stays with what was typed.

function show() {
  history.replaceState(null, '', '/reset-password?access_token=link-token');
  render(
    <Router>
      <ResetPassword />
    </Router>,
  );
  return {
    password: screen.getByPlaceholderText('Ihr neues Passwort') as HTMLInputElement,
    repeat: screen.getByPlaceholderText('Wiederholen Sie Ihr neues Passwort') as HTMLInputElement,
    submit: screen.getByRole('button', { name: 'Passwort ändern' }) as HTMLButtonElement,
  };
}
const type = (input: HTMLInputElement, value: string) => {
  fireEvent.input(input, { target: { value } });
  fireEvent.focusOut(input);
};
const messageAt = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby')!)?.textContent;

afterEach(() => {
  vi.unstubAllGlobals();
  resetSessionForTests();
});

test.each([
  ['PASSWORD_TOO_COMMON', 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.'],
  ['PASSWORD_CONTAINS_PERSONAL_DATA', 'Das Passwort darf weder Ihren Namen noch Ihre E-Mail-Adresse enthalten.'],
])('a password refused with %s is explained at the field, typed values and the link stay, and the next one is sent', async (code, text) => {
  let refuse = true;
  const { calls } = mockFetch({ 'POST /auth/me/set-password': () => (refuse ? apiError(400, code, 'refused') : noContent()) });
  const f = show();
  type(f.password, 'Passwort123');
  type(f.repeat, 'Passwort123');
  fireEvent.click(f.submit);
  await waitFor(() => expect(messageAt(f.password)).toBe(text));
  expect(screen.getByRole('alert').textContent).toContain('Bitte überprüfen Sie alle Felder!');
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(location.pathname).toBe('/reset-password');
  expect(f.password.value).toBe('Passwort123');
  expect(f.repeat.value).toBe('Passwort123');

  refuse = false;
  type(f.password, 'Weidenkätzchen-am-Fluss');
  expect(messageAt(f.password)).toBe('');
  type(f.repeat, 'Weidenkätzchen-am-Fluss');
  fireEvent.click(f.submit);
  await waitFor(() => expect(location.pathname).toBe('/login'));
  expect(calls[1].headers.authorization).toBe('Bearer link-token');
});
