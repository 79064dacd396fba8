import { describe, test, expect, vi, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/preact';
import { apiFailure, buildCoach, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';

// Einstellungen and the account: ending the other sessions, a refused new password, a new address waiting for its link.

vi.mock('../../api/auth.ts', () => ({ updatePassword: vi.fn(), endOtherSessions: vi.fn() }));
vi.mock('../../api/app-settings.ts', () => ({ getAppVersion: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ getCoach: vi.fn(), updateCoach: vi.fn() }));

const auth = await import('../../api/auth.ts');
const appSettings = await import('../../api/app-settings.ts');
const coaches = await import('../../api/coaches.ts');
const { user } = await import('../../state/session.ts');
const { default: SettingsPage } = await import('./index.tsx');

beforeEach(() => {
  vi.mocked(auth.updatePassword)
    .mockReset()
    .mockImplementation(() => ok(undefined));
  vi.mocked(auth.endOtherSessions).mockReset();
  vi.mocked(appSettings.getAppVersion)
    .mockReset()
    .mockImplementation(() => ok({ version: '2.4.1', name: 'coach-portal' }));
  vi.mocked(coaches.getCoach)
    .mockReset()
    .mockImplementation(() => ok(buildCoach()));
  user.value = buildMe(ANNA_BERG);
});

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => {
  fireEvent.input(input(label), { target: { value } });
  fireEvent.blur(input(label));
};
const messageAt = (label: string) => document.getElementById(input(label).getAttribute('aria-describedby')!)?.textContent;
const changePassword = (next: string) => {
  type('Aktuelles Passwort', 'Demo-Passwort-1');
  type('Neues Passwort', next);
  type('Neues Passwort wiederholen', next);
  fireEvent.click(screen.getByRole('button', { name: 'Passwort ändern' }));
};

describe('other sessions', () => {
  test('are ended on request, and the coach is told', async () => {
    vi.mocked(auth.endOtherSessions).mockImplementation(() => ok(undefined));
    render(<SettingsPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Andere Sitzungen beenden' }));
    expect((await screen.findByRole('status')).textContent).toBe('Ihre Sitzungen auf allen anderen Geräten sind beendet.');
    expect(auth.endOtherSessions).toHaveBeenCalledTimes(1);
  });

  test('that could not be ended are said to be still running', async () => {
    vi.mocked(auth.endOtherSessions).mockRejectedValue(apiFailure(503));
    render(<SettingsPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Andere Sitzungen beenden' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Die anderen Sitzungen wurden nicht beendet\. Der Server antwortet/);
    expect(screen.queryByText('Ihre Sitzungen auf allen anderen Geräten sind beendet.')).toBeNull();
  });
});

describe('a new password', () => {
  test('that contains the own name or email is refused before sending', async () => {
    render(<SettingsPage />);
    changePassword('berg-und-tal-7');
    expect(await screen.findByText('Bitte überprüfen Sie alle Felder!')).toBeTruthy();
    expect(messageAt('Neues Passwort')).toBe('Das Passwort darf weder Ihren Namen noch Ihre E-Mail-Adresse enthalten.');
    expect(auth.updatePassword).not.toHaveBeenCalled();
  });

  test.each([
    ['PASSWORD_TOO_COMMON', 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.'],
    ['PASSWORD_CONTAINS_PERSONAL_DATA', 'Das Passwort darf weder Ihren Namen noch Ihre E-Mail-Adresse enthalten.'],
  ])('refused by the server (%s) is said at its field, and what was typed stays', async (code, text) => {
    vi.mocked(auth.updatePassword).mockRejectedValue(apiFailure(400, code));
    render(<SettingsPage />);
    changePassword('Sommer-Regen-2026');
    await waitFor(() => expect(messageAt('Neues Passwort')).toBe(text));
    expect(screen.getByRole('alert').textContent).not.toContain('aktuelles Passwort ist nicht korrekt');
    expect(input('Aktuelles Passwort').value).toBe('Demo-Passwort-1');
    expect(input('Neues Passwort').value).toBe('Sommer-Regen-2026');
    expect(input('Neues Passwort wiederholen').value).toBe('Sommer-Regen-2026');
    type('Neues Passwort', 'Ganz-anders-81');
    expect(messageAt('Neues Passwort')).toBe('');
  });
});

test('a new address waiting for its link is shown with when it takes effect', async () => {
  vi.mocked(coaches.getCoach).mockImplementation(() => ok(buildCoach({ pendingEmail: 'anna.neu@example.org' })));
  render(<SettingsPage />);
  expect((await screen.findByRole('note')).textContent).toBe(
    'Ihre neue Adresse anna.neu@example.org gilt erst, wenn Sie den an sie gesendeten Link öffnen. Bis dahin bleibt die bisherige Adresse gültig.',
  );
  expect(screen.getByText(/anna\.berg@example\.org/)).toBeTruthy();
});
