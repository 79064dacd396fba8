import { describe, test, expect, vi } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/preact';
import { apiFailure, buildPatient, ok } from '../../../test/helpers/screen-records.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';
import { press } from '../../../test/helpers/client-press.ts';
import { ben, coachesAnswered, dialog, field, type } from '../../../test/helpers/admin-coaches.ts';

// One coach's page in the admin screen: edits against another administrator's save, delete, lock, mails,
// linking a patient, a trial access. The list and the form's drafts: coaches-list.test.tsx.

vi.mock('../../api/coaches.ts');
vi.mock('../../api/patients.ts', () => ({ listPatients: vi.fn() }));

const api = await import('../../api/coaches.ts');
const patientsApi = await import('../../api/patients.ts');
const { default: AdminPage } = await import('./index.tsx');

coachesAnswered();

describe('one coach', () => {
  test("an edit that meets another administrator's save keeps what was typed, shows their change and saves over it on request", async () => {
    const theirs = { ...ben, phone: '040 777', updatedAt: '2026-11-20T10:00:00.000Z' };
    vi.mocked(api.updateCoach)
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
    expect(vi.mocked(api.updateCoach).mock.calls[0][2]).toBe(`"${ben.updatedAt}"`);
    await press(within(notice).getByRole('button', { name: 'Meine Fassung speichern' }));
    await waitFor(() => expect(api.updateCoach).toHaveBeenCalledTimes(2));
    // A PATCH with only what was typed: the lock, the password and fields the form does not show stay untouched.
    expect(vi.mocked(api.updateCoach).mock.calls[1][1]).toEqual({ lastName: 'Roth-Berger' });
    expect(vi.mocked(api.updateCoach).mock.calls[1][2]).toBe(`"${theirs.updatedAt}"`);
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
          label: null,
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

  test('a trial access refused for too many new patients says so and offers another attempt', async () => {
    vi.mocked(api.createTrialAccess).mockRejectedValueOnce(apiFailure(429, 'RATE_LIMITED'));
    renderAt('/admin', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Testzugang erstellen' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Testzugang erstellen' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'Der Testzugang konnte nicht erstellt werden. Zu viele neue Patienten in kurzer Zeit. Bitte versuchen Sie es in einigen Minuten erneut.',
    );
    expect(within(dialog()).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });
});
