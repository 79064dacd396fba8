import { describe, test, expect, vi } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/preact';
import { apiFailure, buildCoach, ok } from '../../../test/helpers/screen-records.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';
import { ben, coachesAnswered, dialog, field, type } from '../../../test/helpers/admin-coaches.ts';
import { offeredAfterReload, reloadWithinSession } from '../../../test/helpers/client-drafts.ts';
import { coachDraftKey } from './coaches/coach-form.ts';

// The coaches tab of the admin screen: the list, creating a coach, the drafts of the coach form, the paths.
// One coach's page: coaches-detail.test.tsx.

vi.mock('../../api/coaches.ts');
vi.mock('../../api/patients.ts', () => ({ listPatients: vi.fn() }));

const api = await import('../../api/coaches.ts');
const { default: AdminPage, parseAdminPath } = await import('./index.tsx');

coachesAnswered();

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

  test('lists every coach of an organisation with more than 1000 of them, page after page', async () => {
    const everyone = Array.from({ length: 1001 }, (_, i) => buildCoach({ id: `c-${i}`, lastName: `Coach${String(i).padStart(4, '0')}` }));
    vi.mocked(api.listCoaches).mockImplementation((filter) =>
      ok(everyone.slice(filter?.skip ?? 0, (filter?.skip ?? 0) + (filter?.limit ?? 0)), everyone.length),
    );
    const { container } = renderAt('/admin', <AdminPage />);
    expect(await screen.findByText('1.001 Coaches')).toBeTruthy();
    // Text queries, not role queries: a thousand rows are slow to walk for roles.
    expect(container.querySelectorAll('tbody tr')).toHaveLength(1001);
    expect(screen.getByText('Coach1000, Anna')).toBeTruthy();
    // A thousand rows take a few seconds to render in happy-dom on a busy machine.
  }, 20_000);

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
    const kept = JSON.stringify(await offeredAfterReload(coachDraftKey('coach-1')!));
    expect(kept).toContain('Dana');
    expect(kept).not.toContain('Geheim-Passwort-9');
    expect(JSON.stringify(localStorage), 'stored only sealed').not.toContain('Dana');
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
    vi.mocked(api.updateCoach).mockImplementation((_id, body) => ok({ ...ben, ...body } as never));
    const first = renderAt('/admin/coaches/coach-2', <AdminPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
    type(dialog(), 'Telefon', '040 123');
    first.unmount();
    await reloadWithinSession();
    renderAt('/admin/coaches/coach-2', <AdminPage />);
    expect(field(await screen.findByRole('dialog'), 'Telefon').value).toBe('040 123');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(api.updateCoach).toHaveBeenCalledWith('coach-2', expect.objectContaining({ phone: '040 123' }), expect.anything()));
    await waitFor(() => expect(Object.keys(localStorage).filter((k) => k.startsWith('draft:'))).toEqual([]));
  });
});

test('admin paths name the tab and the coach', () => {
  expect(parseAdminPath('')).toEqual({ tab: 'coaches', coachId: null });
  expect(parseAdminPath('coaches/a%20b')).toEqual({ tab: 'coaches', coachId: 'a b' });
  expect(parseAdminPath('replication')).toEqual({ tab: 'replication', coachId: null });
  expect(parseAdminPath('unbekannt')).toEqual({ tab: 'coaches', coachId: null });
});
