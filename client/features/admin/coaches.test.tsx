import { describe, test, expect, vi, beforeEach } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/preact';
import { apiFailure, buildCoach, buildPatient, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';
import { press } from '../../../test/helpers/client-press.ts';

vi.mock('../../api/coaches.ts', () => ({
  listCoaches: vi.fn(),
  getCoach: vi.fn(),
  createCoach: vi.fn(),
  replaceCoach: vi.fn(),
  updateCoach: vi.fn(),
  deleteCoach: vi.fn(),
  sendVerificationEmail: vi.fn(),
  resetCoachPassword: vi.fn(),
  createTrialAccess: vi.fn(),
  listCoachPatients: vi.fn(),
  linkPatient: vi.fn(),
}));
vi.mock('../../api/patients.ts', () => ({ listPatients: vi.fn() }));

const api = await import('../../api/coaches.ts');
const patientsApi = await import('../../api/patients.ts');
const { user } = await import('../../state/session.ts');
const { default: AdminPage, parseAdminPath } = await import('./index.tsx');

const anna = buildCoach({ id: 'coach-1', firstName: 'Anna', lastName: 'Berg', isAdmin: true });
const ben = buildCoach({ id: 'coach-2', firstName: 'Ben', lastName: 'Roth', email: 'ben.roth@example.org', emailVerified: false });
const carla = buildCoach({ id: 'coach-3', firstName: 'Carla', lastName: 'Sommer', email: 'carla@example.org', isUserLocked: true });

beforeEach(() => {
  for (const fn of Object.values(api)) vi.mocked(fn as () => unknown).mockReset();
  vi.mocked(api.listCoaches).mockImplementation(() => ok([anna, ben, carla], 3));
  vi.mocked(api.getCoach).mockImplementation((id) => ok([anna, ben, carla].find((c) => c.id === id)!));
  vi.mocked(api.listCoachPatients).mockImplementation(() => ok([buildPatient()]));
  vi.mocked(api.resetCoachPassword).mockImplementation(() => ok(undefined));
  vi.mocked(api.sendVerificationEmail).mockImplementation(() => ok(undefined));
  vi.mocked(patientsApi.listPatients).mockReset();
  user.value = buildMe({ ...ANNA_BERG, id: 'coach-1', isAdmin: true });
});

const dialog = () => screen.getByRole('dialog');
const field = (scope: HTMLElement, label: string) => within(scope).getByLabelText(new RegExp(`^${label}( \\*)?$`)) as HTMLInputElement;
const type = (scope: HTMLElement, label: string, value: string) => fireEvent.input(field(scope, label), { target: { value } });

describe('coach list', () => {
  test('lists every coach with roles and state, and search narrows the list', async () => {
    renderAt('/admin', <AdminPage />);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('E-Mail nicht bestätigt')).toBeTruthy();
    expect(within(table).getByText('gesperrt')).toBeTruthy();
    fireEvent.input(screen.getByLabelText('Coaches suchen (Name oder E-Mail)'), { target: { value: 'roth' } });
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('1 Coaches')).toBeTruthy();
  });

  test('says so when no coach matches, and when loading fails offers a retry', async () => {
    vi.mocked(api.listCoaches).mockImplementationOnce(() => Promise.reject(apiFailure(500)));
    renderAt('/admin', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Erneut versuchen' }));
    await screen.findByRole('table');
    fireEvent.input(screen.getByLabelText('Coaches suchen (Name oder E-Mail)'), { target: { value: 'niemand' } });
    expect(screen.getByText('Kein Coach passt zur Suche.')).toBeTruthy();
  });

  test('creates a coach and sends the link to set a password', async () => {
    vi.mocked(api.createCoach).mockImplementation((body) => ok(buildCoach({ id: 'coach-9', ...body, email: String(body.email) } as never)));
    renderAt('/admin', <AdminPage />);
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Coach anlegen' }));
    type(dialog(), 'Vorname', 'Dana');
    type(dialog(), 'Nachname', 'Vogel');
    type(dialog(), 'E-Mail', 'dana.vogel@example.org');
    fireEvent.click(within(dialog()).getByRole('switch', { name: /Health-Manager/ }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Coach anlegen' }));
    await waitFor(() => expect(api.createCoach).toHaveBeenCalled());
    expect(vi.mocked(api.createCoach).mock.calls[0][0]).toEqual({
      email: 'dana.vogel@example.org',
      firstName: 'Dana',
      lastName: 'Vogel',
      title: '',
      phone: '',
      isAdmin: false,
      isHealthManager: true,
      language: 'de',
    });
    await waitFor(() => expect(api.resetCoachPassword).toHaveBeenCalledWith('coach-9'));
    expect((await screen.findByRole('status')).textContent).toContain('Dana Vogel wurde angelegt.');
  });

  test('refuses an invalid email before sending, and a failed save keeps what was typed', async () => {
    vi.mocked(api.createCoach).mockImplementation(() => Promise.reject(apiFailure(409, 'CONFLICT')));
    renderAt('/admin', <AdminPage />);
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Coach anlegen' }));
    type(dialog(), 'Vorname', 'Dana');
    type(dialog(), 'Nachname', 'Vogel');
    type(dialog(), 'E-Mail', 'dana@');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Coach anlegen' }));
    expect(await within(dialog()).findByText('Bitte eine gültige E-Mail Adresse eingeben')).toBeTruthy();
    expect(api.createCoach).not.toHaveBeenCalled();
    type(dialog(), 'E-Mail', 'ben.roth@example.org');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Coach anlegen' }));
    expect(await within(dialog()).findByText(/existiert bereits/)).toBeTruthy();
    expect(field(dialog(), 'Vorname').value).toBe('Dana');
  });
});

describe('drafts of the coach form', () => {
  test("a new coach's form comes back with what was typed after a reload, but never the password", async () => {
    const first = renderAt('/admin', <AdminPage />);
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Coach anlegen' }));
    type(dialog(), 'Vorname', 'Dana');
    type(dialog(), 'Nachname', 'Vogel');
    type(dialog(), 'Startpasswort \\(optional\\)', 'Geheim-Passwort-9');
    expect(JSON.stringify(localStorage)).toContain('Dana');
    expect(JSON.stringify(localStorage)).not.toContain('Geheim-Passwort-9');
    first.unmount();

    renderAt('/admin', <AdminPage />);
    expect(await within(await screen.findByRole('dialog')).findByText('Nicht gespeicherte Änderungen wiederhergestellt.')).toBeTruthy();
    expect(field(dialog(), 'Vorname').value).toBe('Dana');
    expect(field(dialog(), 'Startpasswort \\(optional\\)').value).toBe('');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Änderungen verwerfen' }));
    expect(field(dialog(), 'Vorname').value).toBe('');
    expect(Object.keys(localStorage).filter((k) => k.startsWith('draft:'))).toEqual([]);
  });

  test('an edit reopens after a reload, and the confirmed save removes the draft', async () => {
    vi.mocked(api.replaceCoach).mockImplementation((_id, body) => ok({ ...ben, ...body } as never));
    const first = renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
    type(dialog(), 'Telefon', '040 123');
    first.unmount();
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    expect(field(await screen.findByRole('dialog'), 'Telefon').value).toBe('040 123');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(api.replaceCoach).toHaveBeenCalledWith('coach-2', expect.objectContaining({ phone: '040 123' }), expect.anything()));
    await waitFor(() => expect(Object.keys(localStorage).filter((k) => k.startsWith('draft:'))).toEqual([]));
  });
});

describe('one coach', () => {
  test("an edit that meets another administrator's save keeps what was typed, shows their change and saves over it on request", async () => {
    const theirs = { ...ben, phone: '040 777', updatedAt: '2026-11-20T10:00:00.000Z' };
    vi.mocked(api.replaceCoach)
      .mockImplementationOnce(() => {
        const error = apiFailure(412, 'VERSION_MISMATCH');
        error.current = theirs;
        error.etag = `"${theirs.updatedAt}"`;
        return Promise.reject(error);
      })
      .mockImplementationOnce((_id, body) => ok({ ...theirs, ...body } as never));
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
    type(dialog(), 'Nachname', 'Roth-Berger');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    const notice = await within(dialog()).findByRole('alert');
    expect(notice.textContent).toContain('040 777');
    expect(field(dialog(), 'Nachname').value).toBe('Roth-Berger');
    expect(vi.mocked(api.replaceCoach).mock.calls[0][2]).toBe(`"${ben.updatedAt}"`);
    await press(within(notice).getByRole('button', { name: 'Meine Fassung speichern' }));
    await waitFor(() => expect(api.replaceCoach).toHaveBeenCalledTimes(2));
    expect(vi.mocked(api.replaceCoach).mock.calls[1][1]).toMatchObject({ lastName: 'Roth-Berger' });
    expect(vi.mocked(api.replaceCoach).mock.calls[1][2]).toBe(`"${theirs.updatedAt}"`);
  });

  test('deletes only after confirmation', async () => {
    vi.mocked(api.deleteCoach).mockImplementation(() => ok(undefined));
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Löschen' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm.textContent).toContain('Soll Ben Roth wirklich gelöscht werden?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Abbrechen' }));
    expect(api.deleteCoach).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Löschen' }));
    // Named with the version on screen (If-Match), so another administrator's change in between stops it.
    await waitFor(() => expect(api.deleteCoach).toHaveBeenCalledWith('coach-2', `"${ben.updatedAt}"`));
    await waitFor(() => expect(window.location.pathname).toBe('/admin'));
    expect(await screen.findByText('Ben Roth wurde gelöscht.')).toBeTruthy();
  });

  test('locks after confirmation and unlocks directly', async () => {
    vi.mocked(api.updateCoach).mockImplementation((_id, body) => ok({ ...ben, ...body } as never));
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sperren' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sperren' }));
    await waitFor(() => expect(api.updateCoach).toHaveBeenCalledWith('coach-2', { isUserLocked: true }, `"${ben.updatedAt}"`));
    fireEvent.click(await screen.findByRole('button', { name: 'Entsperren' }));
    await waitFor(() => expect(api.updateCoach).toHaveBeenLastCalledWith('coach-2', { isUserLocked: false }, `"${ben.updatedAt}"`));
    expect(await screen.findByText('Ben Roth ist entsperrt.')).toBeTruthy();
  });

  test('sends the verification email and starts a password reset', async () => {
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Bestätigungs-E-Mail senden' }));
    expect(await screen.findByText('Die Bestätigungs-E-Mail ging an ben.roth@example.org.')).toBeTruthy();
    expect(api.sendVerificationEmail).toHaveBeenCalledWith('coach-2');
    fireEvent.click(screen.getByRole('button', { name: 'Passwort zurücksetzen' }));
    expect(await screen.findByText(/Zurücksetzen des Passworts ging an ben.roth@example.org/)).toBeTruthy();
    expect(api.resetCoachPassword).toHaveBeenCalledWith('coach-2');
  });

  test('an administrator cannot lock or delete their own account', async () => {
    renderAt('/admin/coaches/coach-1', <AdminPage />);
    expect(((await screen.findByRole('button', { name: 'Sperren' })) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Löschen' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Bestätigungs-E-Mail senden' })).toBeNull();
  });

  test('links a patient found by code', async () => {
    vi.mocked(patientsApi.listPatients).mockImplementation(() =>
      ok([buildPatient({ id: 'p-5', patientCode: 'NK-5555', lastName: 'Lang', firstName: 'Eva' })], 1),
    );
    vi.mocked(api.linkPatient).mockImplementation(() => ok(undefined));
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Patient verknüpfen' }));
    fireEvent.input(within(dialog()).getByLabelText('Patient suchen (Code oder Name)'), { target: { value: '5555' } });
    fireEvent.click(await within(dialog()).findByRole('radio', { name: /NK-5555/ }));
    expect(vi.mocked(patientsApi.listPatients).mock.calls[0][0]?.where).toEqual({
      or: [{ patientCode: { like: '%5555%' } }, { firstName: { like: '%5555%' } }, { lastName: { like: '%5555%' } }],
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Verknüpfen' }));
    await waitFor(() => expect(api.linkPatient).toHaveBeenCalledWith('coach-2', 'p-5'));
    expect(await screen.findByText('NK-5555 ist jetzt mit Ben Roth verknüpft.')).toBeTruthy();
  });

  test('a trial access shows its code; a failed attempt says so and offers another', async () => {
    vi.mocked(api.createTrialAccess).mockRejectedValueOnce(apiFailure(503));
    vi.mocked(api.createTrialAccess).mockImplementation(() =>
      ok({
        patient: buildPatient({ patientCode: 'TEST-0001' }),
        token: {
          id: 't1',
          code: 'K7QM-X3PA-9R',
          coachId: 'coach-1',
          patientId: 'p-1',
          expiresAt: '2026-12-06T10:00:00.000Z',
          usedAt: null,
          createdAt: '2026-11-22T10:00:00.000Z',
        },
      }),
    );
    renderAt('/admin', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Testzugang erstellen' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Testzugang erstellen' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toMatch(/^Der Testzugang konnte nicht erstellt werden\. /);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await within(dialog()).findByText(/Testzugang TEST-0001 wurde erstellt/)).toBeTruthy();
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(within(dialog()).getByText('K7QM')).toBeTruthy();
  });
});

test('admin paths name the tab and the coach', () => {
  expect(parseAdminPath('/admin')).toEqual({ tab: 'coaches', coachId: null });
  expect(parseAdminPath('/admin/coaches/a%20b')).toEqual({ tab: 'coaches', coachId: 'a b' });
  expect(parseAdminPath('/admin/replication')).toEqual({ tab: 'replication', coachId: null });
  expect(parseAdminPath('/admin/unbekannt')).toEqual({ tab: 'coaches', coachId: null });
});
