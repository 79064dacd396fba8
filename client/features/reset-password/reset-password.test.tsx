import { afterEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import ResetPassword from './index.tsx';
import { submitError } from './password-rules.ts';
import { checkSession, resetSessionForTests, sessionChecked } from '../../state/session.ts';
import { apiError, mockFetch, noContent } from '../../../test/helpers/client-fetch.ts';

function show(path = '/reset-password?access_token=link-token') {
  history.replaceState(null, '', path);
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
const errorArea = () => screen.queryByRole('alert');

afterEach(() => {
  vi.unstubAllGlobals();
  resetSessionForTests();
});

describe('the link token', () => {
  test.each([
    ['accessToken', '/reset-password?accessToken=tok-a'],
    ['access_token', '/reset-password?access_token=tok-a'],
  ])('is read from %s, stored as the current token and removed from the address bar', (_name, path) => {
    show(path);
    expect(localStorage.getItem('accessToken')).toBe('tok-a');
    expect(location.search).toBe('');
    expect(location.pathname).toBe('/reset-password');
  });

  test('accessToken wins over access_token and other query parameters stay', () => {
    show('/reset-password?access_token=b&accessToken=a&lang=de');
    expect(localStorage.getItem('accessToken')).toBe('a');
    expect(location.search).toBe('?lang=de');
  });

  test('is sent as the bearer token of the set-password call', async () => {
    const { calls } = mockFetch({ 'POST /auth/me/set-password': noContent() });
    const f = show();
    type(f.password, 'Neues-Passwort-1');
    type(f.repeat, 'Neues-Passwort-1');
    fireEvent.click(f.submit);
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(calls[0].headers.authorization).toBe('Bearer link-token');
    expect(calls[0].body).toEqual({ password: 'Neues-Passwort-1' });
  });
});

test('a stale session token from an earlier visit does not spoil the link, however late its check answers', async () => {
  localStorage.setItem('accessToken', 'stale-session');
  let answerMe: (r: Response) => void = () => undefined;
  const { calls } = mockFetch({ 'GET /auth/me': () => new Promise<Response>((resolve) => (answerMe = resolve)), 'POST /auth/me/set-password': noContent() });
  const check = checkSession(); // what main.tsx starts before the first screen
  const f = show('/reset-password?access_token=link-token');
  // Either the check ends, or it sends a request; if it does, the old session has expired.
  await waitFor(() => expect(sessionChecked.value || calls.some((c) => c.path === '/v2/auth/me')).toBe(true));
  answerMe(apiError(401));
  await check;
  expect(localStorage.getItem('accessToken')).toBe('link-token');
  type(f.password, 'Neues-Passwort-1');
  type(f.repeat, 'Neues-Passwort-1');
  fireEvent.click(f.submit);
  await waitFor(() => expect(location.pathname).toBe('/login'));
  expect(calls.find((c) => c.path === '/v2/auth/me/set-password')?.headers.authorization).toBe('Bearer link-token');
  expect(screen.queryByRole('alertdialog')).toBeNull();
});

describe('the form', () => {
  test('has the title, both placeholders and both fields hidden by default with show/hide toggles', () => {
    const f = show();
    expect(screen.getByRole('heading', { name: 'Neues Passwort' })).toBeTruthy();
    expect(f.password.type).toBe('password');
    expect(f.repeat.type).toBe('password');
    const toggle = screen.getByRole('button', { name: 'Neues Passwort anzeigen' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(f.password.type).toBe('text');
    expect(f.repeat.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Neues Passwort verbergen' }));
    expect(f.password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Neues Passwort wiederholen anzeigen' }));
    expect(f.repeat.type).toBe('text');
  });

  test('shows no error area before a submit', () => {
    show();
    expect(errorArea()).toBeNull();
  });

  test.each([
    ['', 'Ihr neues Passwort darf nicht leer sein'],
    ['kurz', 'Ihr neues Passwort muss mindestens 8 Zeichen lang sein!'],
    ['1234567', 'Ihr neues Passwort muss mindestens 8 Zeichen lang sein!'],
  ])('new password "%s" shows "%s"', (value, message) => {
    const f = show();
    type(f.password, value);
    expect(screen.getByText(message)).toBeTruthy();
  });

  test.each([
    ['', 'Die Bestätigung Ihr neue Passwort darf nicht leer sein'],
    ['kurz', 'Ihr neues Passwort muss mindestens 8 Zeichen lang sein!'],
    ['1234567', 'Ihr neues Passwort muss mindestens 8 Zeichen lang sein!'],
  ])('repeat password "%s" shows "%s"', (value, message) => {
    const f = show();
    type(f.repeat, value);
    expect(screen.getByText(message)).toBeTruthy();
  });

  test('8 characters are enough in both fields', () => {
    const f = show();
    type(f.password, '12345678');
    type(f.repeat, '12345678');
    expect(screen.queryByText('Ihr neues Passwort muss mindestens 8 Zeichen lang sein!')).toBeNull();
  });

  test('different values show "Ihre neuen Passwörter stimmen nicht überein!" under "Fehler aufgetreten!" and send nothing', () => {
    const { calls } = mockFetch({});
    const f = show();
    type(f.password, 'Passwort-Eins');
    type(f.repeat, 'Passwort-Zwei');
    fireEvent.click(f.submit);
    expect(errorArea()?.textContent).toBe('Fehler aufgetreten!Ihre neuen Passwörter stimmen nicht überein!');
    expect(calls).toHaveLength(0);
  });

  test('the match check runs first: short and different values report the mismatch', () => {
    const { calls } = mockFetch({});
    const f = show();
    type(f.password, 'a');
    type(f.repeat, 'b');
    fireEvent.click(f.submit);
    expect(errorArea()?.textContent).toContain('Ihre neuen Passwörter stimmen nicht überein!');
    expect(calls).toHaveLength(0);
  });

  test('equal but invalid values show "Bitte überprüfen Sie alle Felder!" and send nothing', () => {
    const { calls } = mockFetch({});
    const f = show();
    type(f.password, 'kurz');
    type(f.repeat, 'kurz');
    fireEvent.click(f.submit);
    expect(errorArea()?.textContent).toBe('Fehler aufgetreten!Bitte überprüfen Sie alle Felder!');
    expect(calls).toHaveLength(0);
  });

  test('two empty fields are equal, so they report the invalid fields', () => {
    const f = show();
    fireEvent.click(f.submit);
    expect(errorArea()?.textContent).toContain('Bitte überprüfen Sie alle Felder!');
    expect(screen.getByText('Ihr neues Passwort darf nicht leer sein')).toBeTruthy();
    expect(screen.getByText('Die Bestätigung Ihr neue Passwort darf nicht leer sein')).toBeTruthy();
  });

  test('the submit order as a rule: mismatch, then validity, then nothing', () => {
    expect(submitError('a', 'b')).toBe('resetPassword.mismatch');
    expect(submitError('a', 'a')).toBe('resetPassword.checkFields');
    expect(submitError('12345678', '12345678')).toBeNull();
  });

  test('success goes to /login', async () => {
    mockFetch({ 'POST /auth/me/set-password': noContent() });
    const f = show();
    type(f.password, 'Neues-Passwort-1');
    type(f.repeat, 'Neues-Passwort-1');
    fireEvent.click(f.submit);
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test('the button is disabled while the submit is in progress', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockFetch({ 'POST /auth/me/set-password': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const f = show();
    type(f.password, 'Neues-Passwort-1');
    type(f.repeat, 'Neues-Passwort-1');
    fireEvent.click(f.submit);
    await waitFor(() => expect(f.submit.disabled).toBe(true));
    answer(noContent());
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test.each([
    ['an expired link (401)', () => apiError(401, 'TOKEN_EXPIRED')],
    ['a server error (500)', () => apiError(500)],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])(
    'failure by %s shows the error alert "Fehler" / "Dieser Link ist abgelaufen und funktioniert nicht länger", then goes to /coach-reset-password',
    async (_case, answer) => {
      mockFetch({ 'POST /auth/me/set-password': answer });
      const f = show();
      type(f.password, 'Neues-Passwort-1');
      type(f.repeat, 'Neues-Passwort-1');
      fireEvent.click(f.submit);
      const dialog = await screen.findByRole('alertdialog', { name: 'Fehler' });
      expect(dialog.querySelector(`#${dialog.getAttribute('aria-describedby')}`)?.textContent).toBe('Dieser Link ist abgelaufen und funktioniert nicht länger');
      expect(dialog.classList.contains('dialog-error')).toBe(true);
      expect(location.pathname).toBe('/reset-password');
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(location.pathname).toBe('/coach-reset-password'));
    },
  );
});

test('both password inputs are labelled for assistive technology', () => {
  show();
  expect(screen.getByLabelText('Neues Passwort')).toBe(screen.getByPlaceholderText('Ihr neues Passwort'));
  expect(screen.getByLabelText('Neues Passwort wiederholen')).toBe(screen.getByPlaceholderText('Wiederholen Sie Ihr neues Passwort'));
});
