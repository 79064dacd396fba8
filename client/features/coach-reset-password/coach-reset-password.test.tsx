import { afterEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Router } from 'wouter';
import CoachResetPassword from './index.tsx';
import { apiError, mockFetch, noContent } from '../../../test/helpers/client-fetch.ts';

function show() {
  history.replaceState(null, '', '/coach-reset-password');
  render(
    <Router>
      <CoachResetPassword />
    </Router>,
  );
  return screen.getByPlaceholderText('Email') as HTMLInputElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
  // An alert left open by a failed test must not make the next test find two dialogs.
  for (const dialog of document.querySelectorAll('dialog')) dialog.parentElement?.remove();
});

describe('coach reset-password request', () => {
  test('shows the heading, the Email placeholder and a full-width primary button in a 500 px form', () => {
    const input = show();
    expect(screen.getByRole('heading', { name: 'Ihre E-Mail Adresse' })).toBeTruthy();
    expect(input.getAttribute('type')).toBe('email');
    const button = screen.getByRole('button', { name: 'Passwort zurücksetzen' });
    expect(button.className).toContain('full-width');
    expect(button.className).not.toMatch(/secondary|outline|contrast/);
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(input.closest('form')?.className).toContain('reset-request-form');
  });

  test('an empty field shows "E-Mail ist ein Pflicht Feld" with Pflicht emphasised once touched', () => {
    const input = show();
    expect(screen.queryByText(/Pflicht/)).toBeNull();
    fireEvent.focusOut(input);
    const strong = screen.getByText('Pflicht');
    expect(strong.tagName).toBe('STRONG');
    expect(strong.parentElement?.textContent).toBe('E-Mail ist ein Pflicht Feld');
  });

  test('an invalid, non-empty email shows "Bitte eine gültige E-Mail Adresse eingeben"', () => {
    const input = show();
    fireEvent.input(input, { target: { value: 'not-an-email' } });
    fireEvent.focusOut(input);
    expect(screen.getByText('Bitte eine gültige E-Mail Adresse eingeben')).toBeTruthy();
    expect(screen.queryByText(/Pflicht/)).toBeNull();
  });

  test('a valid email shows no message', () => {
    const input = show();
    fireEvent.input(input, { target: { value: 'coach@example.org' } });
    fireEvent.focusOut(input);
    expect(screen.queryByText('Bitte eine gültige E-Mail Adresse eingeben')).toBeNull();
    expect(screen.queryByText(/Pflicht/)).toBeNull();
  });

  test.each([
    ['the request succeeds', () => noContent()],
    ['the request fails', () => apiError(500)],
    ['the request never answers', () => new Promise<Response>(() => undefined)],
  ])('the "Erfolg" dialog follows when %s, and closing it goes to /login', async (_case, answer) => {
    const { calls } = mockFetch({ 'POST /auth/forgot-password': answer as () => Response });
    const input = show();
    fireEvent.input(input, { target: { value: 'coach@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Passwort zurücksetzen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Erfolg' });
    expect(dialog.textContent).toContain('Ihnen werden weitere Anweisungen an die eingegebene E-Mail gesendet, wenn das Konto existiert.');
    expect(calls[0].body).toEqual({ email: 'coach@example.org' });
    expect(location.pathname).toBe('/coach-reset-password');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test('the button is never disabled: the submitting flag is not set, not even while the request is pending', async () => {
    const { calls } = mockFetch({ 'POST /auth/forgot-password': () => new Promise<Response>(() => undefined) });
    const input = show();
    fireEvent.input(input, { target: { value: 'coach@example.org' } });
    const button = screen.getByRole('button', { name: 'Passwort zurücksetzen' }) as HTMLButtonElement;
    fireEvent.click(button);
    await screen.findByRole('alertdialog', { name: 'Erfolg' });
    expect(calls).toHaveLength(1);
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test('the button is not blocked by form validity', async () => {
    mockFetch({ 'POST /auth/forgot-password': noContent() });
    show();
    const button = screen.getByRole('button', { name: 'Passwort zurücksetzen' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(await screen.findByRole('alertdialog', { name: 'Erfolg' })).toBeTruthy();
    expect(screen.getByText('Pflicht').tagName).toBe('STRONG');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  test('an invalid email is sent all the same and ends in "Erfolg"', async () => {
    const { calls } = mockFetch({ 'POST /auth/forgot-password': apiError(422, 'VALIDATION_FAILED') });
    const input = show();
    fireEvent.input(input, { target: { value: 'kein-at-zeichen' } });
    fireEvent.click(screen.getByRole('button', { name: 'Passwort zurücksetzen' }));
    expect(await screen.findByRole('alertdialog', { name: 'Erfolg' })).toBeTruthy();
    expect(calls[0].body).toEqual({ email: 'kein-at-zeichen' });
    expect(screen.getByText('Bitte eine gültige E-Mail Adresse eingeben')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });
});

test('offers a way back to the login', () => {
  show();
  expect(screen.getByRole('link', { name: 'Zurück zur Anmeldung' }).getAttribute('href')).toBe('/login');
});
