import { describe, test, expect, vi } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/preact';
import { apiFailure, ANNA_BERG, buildCoach, ok } from '../../../test/helpers/screen-records.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { anna, ben, coachesAnswered, dialog, field, type } from '../../../test/helpers/admin-coaches.ts';
import { user } from '../../state/session.ts';

// What an administrator may do to an account on a coach's page: ending sessions, the boundary around administrator
// accounts, the server's refusals, a new address waiting for its link, and a start password the server refuses.

vi.mock('../../api/coaches.ts');
vi.mock('../../api/patients.ts', () => ({ listPatients: vi.fn() }));

const api = await import('../../api/coaches.ts');
const { default: AdminPage } = await import('./index.tsx');

coachesAnswered();

const dora = buildCoach({ id: 'coach-4', firstName: 'Dora', lastName: 'Hahn', email: 'dora@example.org', isAdmin: true });
const showCoach = async (coach: typeof ben) => {
  vi.mocked(api.getCoach).mockImplementation(() => ok(coach));
  renderAt(`/admin/coaches/${coach.id}`, <AdminPage />);
  await screen.findByRole('heading', { name: new RegExp(coach.lastName) });
};
const button = (name: string) => screen.queryByRole('button', { name }) as HTMLButtonElement | null;
const ACCOUNT_ACTIONS = ['Bearbeiten', 'Sperren', 'Passwort zurücksetzen', 'Alle Sitzungen beenden', 'Löschen'];

describe('ending sessions', () => {
  test("ends all of a coach's sessions only after confirmation and says so", async () => {
    vi.mocked(api.endCoachSessions).mockImplementation(() => ok(undefined));
    await showCoach(ben);
    fireEvent.click(button('Alle Sitzungen beenden')!);
    const confirm = screen.getByRole('alertdialog');
    expect(confirm.textContent).toContain('Ben Roth wird auf allen Geräten abgemeldet');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Abbrechen' }));
    expect(api.endCoachSessions).not.toHaveBeenCalled();
    fireEvent.click(button('Alle Sitzungen beenden')!);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Alle Sitzungen beenden' }));
    await waitFor(() => expect(api.endCoachSessions).toHaveBeenCalledWith('coach-2'));
    expect(await screen.findByText('Alle Sitzungen von Ben Roth sind beendet.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('a failed attempt keeps the confirmation open and says the sessions were not ended', async () => {
    vi.mocked(api.endCoachSessions).mockRejectedValue(apiFailure(503));
    await showCoach(ben);
    fireEvent.click(button('Alle Sitzungen beenden')!);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Alle Sitzungen beenden' }));
    const alert = await within(screen.getByRole('alertdialog')).findByRole('alert');
    expect(alert.textContent).toMatch(/^Die Sitzungen wurden nicht beendet\. Der Server antwortet gerade nicht/);
    expect(screen.queryByText('Alle Sitzungen von Ben Roth sind beendet.')).toBeNull();
  });
});

describe('administrator accounts', () => {
  test('an administrator who is not a super administrator is offered nothing against another administrator, and told why', async () => {
    await showCoach(dora);
    for (const name of ACCOUNT_ACTIONS) expect(button(name), name).toBeNull();
    expect(screen.getByText(/nur Super-Administratorinnen und Super-Administratoren/)).toBeTruthy();
  });

  test('the super administrator is offered every action against an administrator', async () => {
    user.value = buildMe({ ...ANNA_BERG, id: 'coach-1', isAdmin: true, isSuperAdmin: true });
    await showCoach(dora);
    for (const name of ACCOUNT_ACTIONS) expect(button(name)?.disabled, name).toBe(false);
  });

  test('nobody is offered to remove their own administrator role', async () => {
    await showCoach(anna);
    fireEvent.click(button('Bearbeiten')!);
    const role = within(dialog()).getByRole('switch', { name: /^Administrator\/in/ }) as HTMLInputElement;
    expect(role.disabled).toBe(true);
    expect(within(dialog()).getByText('Ihre eigene Administratorrolle können Sie nicht entfernen.')).toBeTruthy();
  });

  test.each([
    ['SUPER_ADMIN_REQUIRED', 403, 'Administratorkonten dürfen nur Super-Administratorinnen'],
    ['LAST_SUPER_ADMIN', 409, 'Das ist das letzte aktive Super-Administratorkonto.'],
  ])('a refused lock (%s) says why', async (code, status, text) => {
    vi.mocked(api.updateCoach).mockRejectedValue(apiFailure(status, code));
    await showCoach(ben);
    fireEvent.click(button('Sperren')!);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sperren' }));
    expect((await within(screen.getByRole('alertdialog')).findByRole('alert')).textContent).toContain(text);
  });

  test('a refused save of the form says why and keeps what was typed', async () => {
    vi.mocked(api.updateCoach).mockRejectedValue(apiFailure(403, 'SUPER_ADMIN_REQUIRED'));
    await showCoach(ben);
    fireEvent.click(button('Bearbeiten')!);
    type(dialog(), 'Telefon', '040 999');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toContain('Administratorkonten dürfen nur Super-Administratorinnen');
    expect(field(dialog(), 'Telefon').value).toBe('040 999');
  });

  test('a refused password reset mail says why', async () => {
    vi.mocked(api.resetCoachPassword).mockRejectedValue(apiFailure(403, 'SUPER_ADMIN_REQUIRED'));
    await showCoach(ben);
    fireEvent.click(button('Passwort zurücksetzen')!);
    expect((await screen.findByRole('alert')).textContent).toContain('Administratorkonten dürfen nur Super-Administratorinnen');
  });
});

describe('a new address', () => {
  test('waiting for its link is shown beside the current one', async () => {
    await showCoach({ ...ben, pendingEmail: 'ben.neu@example.org' });
    expect(screen.getByText('ben.roth@example.org')).toBeTruthy();
    expect(screen.getByText(/Neue Adresse ben\.neu@example\.org wartet auf Bestätigung/).textContent).toContain('wenn der an sie gesendete Link geöffnet wird');
  });

  test('saved in the form is said to take effect once its link is opened', async () => {
    vi.mocked(api.updateCoach).mockImplementation(() => ok({ ...ben, pendingEmail: 'ben.neu@example.org' }));
    await showCoach(ben);
    fireEvent.click(button('Bearbeiten')!);
    type(dialog(), 'E-Mail', 'ben.neu@example.org');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText(/Die neue E-Mail-Adresse ben\.neu@example\.org gilt erst, wenn der an sie gesendete Link geöffnet wird/)).toBeTruthy();
  });
});

describe('the start password of a new coach', () => {
  const fillNewCoach = async (password: string) => {
    renderAt('/admin', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Coach anlegen' }));
    type(dialog(), 'Vorname', 'Eva');
    type(dialog(), 'Nachname', 'Lindner');
    type(dialog(), 'E-Mail', 'eva.lindner@example.org');
    type(dialog(), 'Startpasswort \\(optional\\)', password);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Coach anlegen' }));
  };

  test('containing the name is refused before sending', async () => {
    await fillNewCoach('Lindner2026!');
    expect(await within(dialog()).findByText('Das Passwort darf weder den Namen noch die E-Mail-Adresse des Coaches enthalten.')).toBeTruthy();
    expect(api.createCoach).not.toHaveBeenCalled();
  });

  test.each([
    ['PASSWORD_TOO_COMMON', 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.'],
    ['PASSWORD_CONTAINS_PERSONAL_DATA', 'Das Passwort darf weder den Namen noch die E-Mail-Adresse des Coaches enthalten.'],
  ])('refused by the server (%s) is said at the field, and everything typed stays', async (code, text) => {
    vi.mocked(api.createCoach).mockRejectedValue(apiFailure(400, code));
    await fillNewCoach('Sommer2026!');
    const password = field(dialog(), 'Startpasswort \\(optional\\)');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(password.getAttribute('aria-describedby')!)?.textContent).toBe(text);
    expect(password.value).toBe('Sommer2026!');
    expect(field(dialog(), 'Nachname').value).toBe('Lindner');
    type(dialog(), 'Startpasswort \\(optional\\)', 'Andere-Wahl-81');
    expect(within(dialog()).queryByText(text)).toBeNull();
  });
});
