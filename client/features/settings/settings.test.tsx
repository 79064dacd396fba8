import { describe, test, expect, vi, beforeEach } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/preact';
import { apiFailure, buildCoach, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';

vi.mock('../../api/auth.ts', () => ({ updatePassword: vi.fn() }));
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
  vi.mocked(appSettings.getAppVersion)
    .mockReset()
    .mockImplementation(() => ok({ version: '2.4.1', name: 'coach-portal' }));
  vi.mocked(coaches.getCoach)
    .mockReset()
    .mockImplementation(() => ok(buildCoach()));
  vi.mocked(coaches.updateCoach).mockReset();
  user.value = buildMe(ANNA_BERG);
});

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
const submitPassword = () => fireEvent.click(screen.getByRole('button', { name: 'Passwort ändern' }));

describe('change password', () => {
  test('checks that both new passwords match before anything else and sends nothing', async () => {
    render(<SettingsPage />);
    type('Aktuelles Passwort', 'alt');
    type('Neues Passwort', 'kurz');
    type('Neues Passwort wiederholen', 'anders');
    submitPassword();
    expect((await screen.findByRole('alert')).textContent).toContain('Ihre neuen Passwörter stimmen nicht überein!');
    expect(auth.updatePassword).not.toHaveBeenCalled();
  });

  test('asks to check all fields when they match but are too short', async () => {
    render(<SettingsPage />);
    type('Aktuelles Passwort', 'alt-passwort');
    type('Neues Passwort', 'kurz');
    type('Neues Passwort wiederholen', 'kurz');
    submitPassword();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Fehler aufgetreten!');
    expect(alert.textContent).toContain('Bitte überprüfen Sie alle Felder!');
    expect(screen.getAllByText('Ihr neues Passwort muss mindestens 8 Zeichen lang sein!')).toHaveLength(2);
    expect(auth.updatePassword).not.toHaveBeenCalled();
  });

  test('sends old and new password and empties the form after success', async () => {
    render(<SettingsPage />);
    type('Aktuelles Passwort', 'Demo-Passwort-1');
    type('Neues Passwort', 'Neues-Passwort-2');
    type('Neues Passwort wiederholen', 'Neues-Passwort-2');
    submitPassword();
    expect(await screen.findByText('Ihr Passwort wurde geändert.')).toBeTruthy();
    expect(auth.updatePassword).toHaveBeenCalledWith({ oldPassword: 'Demo-Passwort-1', newPassword: 'Neues-Passwort-2' });
    expect((screen.getByLabelText('Neues Passwort') as HTMLInputElement).value).toBe('');
  });

  test('a wrong current password is explained and nothing typed is lost', async () => {
    vi.mocked(auth.updatePassword).mockImplementation(() => Promise.reject(apiFailure(400, 'WRONG_PASSWORD')));
    render(<SettingsPage />);
    type('Aktuelles Passwort', 'falsch-falsch');
    type('Neues Passwort', 'Neues-Passwort-2');
    type('Neues Passwort wiederholen', 'Neues-Passwort-2');
    submitPassword();
    expect((await screen.findByRole('alert')).textContent).toContain('Ihr aktuelles Passwort ist nicht korrekt.');
    expect((screen.getByLabelText('Aktuelles Passwort') as HTMLInputElement).value).toBe('falsch-falsch');
    expect((screen.getByLabelText('Neues Passwort') as HTMLInputElement).value).toBe('Neues-Passwort-2');
  });

  test('passwords are hidden until the coach shows them', () => {
    render(<SettingsPage />);
    const input = screen.getByLabelText('Neues Passwort') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Neues Passwort anzeigen' }));
    expect(input.type).toBe('text');
  });
});

describe('profile, language and version', () => {
  test('shows the own profile with job title and role', async () => {
    user.value = buildMe({ ...ANNA_BERG, isHealthManager: true });
    render(<SettingsPage />);
    expect(await screen.findByText('Dipl.-Psych.')).toBeTruthy();
    expect(screen.getByText('Anna Berg')).toBeTruthy();
    expect(screen.getByText('Health-Manager/in')).toBeTruthy();
  });

  test('a failed profile save keeps what was typed', async () => {
    vi.mocked(coaches.updateCoach).mockImplementation(() => Promise.reject(apiFailure(500)));
    render(<SettingsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Profil bearbeiten' }));
    type('Telefon', '0170 555');
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText(/Das Profil wurde nicht gespeichert/)).toBeTruthy();
    expect((screen.getByLabelText('Telefon') as HTMLInputElement).value).toBe('0170 555');
  });

  test('a saved profile updates the name shown for the session', async () => {
    vi.mocked(coaches.updateCoach).mockImplementation(() => ok(buildCoach({ lastName: 'Berg-Maier' })));
    render(<SettingsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Profil bearbeiten' }));
    type('Nachname', 'Berg-Maier');
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Anna Berg-Maier')).toBeTruthy();
    expect(coaches.updateCoach).toHaveBeenCalledWith(
      'coach-1',
      { firstName: 'Anna', lastName: 'Berg-Maier', title: 'Dipl.-Psych.', phone: '030 1234567' },
      '"2026-01-10T08:00:00.000Z"',
    );
    expect(user.value?.lastName).toBe('Berg-Maier');
  });

  test('offers German, English and French', () => {
    render(<SettingsPage />);
    const select = screen.getByLabelText('Sprache der Oberfläche') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['de', 'en', 'fr']);
    expect(select.value).toBe('de');
  });

  test('shows the app version, and a retry when it cannot be loaded', async () => {
    vi.mocked(appSettings.getAppVersion).mockImplementationOnce(() => Promise.reject(apiFailure(503)));
    render(<SettingsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Version 2.4.1')).toBeTruthy();
  });
});
