import { beforeEach, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ApiError } from '../../../data/http.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';
import { CareTeam } from './CareTeam.tsx';

vi.mock('../../../api/patients.ts', () => ({ getPrimaryCoach: vi.fn(), listPatientCoaches: vi.fn(), linkPatientCoach: vi.fn(), unlinkPatientCoach: vi.fn() }));
vi.mock('../../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
const api = vi.mocked(await import('../../../api/patients.ts'));
const { listCoaches } = vi.mocked(await import('../../../api/coaches.ts'));

const coach = (id: string, lastName: string): Coach => ({
  id,
  email: `${id}@example.org`,
  firstName: 'Kim',
  lastName,
  title: '',
  phone: '',
  isAdmin: false,
  isSuperAdmin: false,
  isHealthManager: false,
  isUserLocked: false,
  emailVerified: true,
  pendingEmail: null,
  language: 'de',
  trialEndsAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

beforeEach(() => {
  vi.resetAllMocks();
  api.getPrimaryCoach.mockResolvedValue({ data: null, total: null });
  listCoaches.mockResolvedValue({ data: [coach('c1', 'Albrecht'), coach('c2', 'Berger')], total: 2 });
});

test('a colleague is linked and then listed; unlinking that fails says so and keeps them listed', async () => {
  api.listPatientCoaches.mockResolvedValueOnce({ data: [], total: 0 });
  api.linkPatientCoach.mockResolvedValueOnce({ data: undefined, total: null });
  render(<CareTeam patientId="p1" />);
  expect(await screen.findByText('Noch kein Coach zugeordnet.')).toBeTruthy();
  const select = (await screen.findByLabelText('Coach hinzufügen')) as HTMLSelectElement;
  await act(() => {
    select.value = 'c2';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  api.listPatientCoaches.mockResolvedValue({ data: [coach('c2', 'Berger')], total: 1 });
  fireEvent.click(screen.getByRole('button', { name: 'Hinzufügen' }));
  await waitFor(() => expect(api.linkPatientCoach).toHaveBeenCalledWith('p1', 'c2'));
  expect(await screen.findByText('Kim Berger')).toBeTruthy();
  expect(api.linkPatientCoach).toHaveBeenCalledWith('p1', 'c2');

  api.unlinkPatientCoach.mockRejectedValueOnce(new ApiError(403, 'FORBIDDEN', 'x'));
  fireEvent.click(screen.getByRole('button', { name: 'Kim Berger aus der Betreuung entfernen' }));
  expect((await screen.findByRole('alert')).textContent).toContain('Dafür fehlt Ihnen die Berechtigung.');
  await waitFor(() => expect(screen.getByText('Kim Berger')).toBeTruthy());
});

test('a colleague who is only in the care team may leave it, but not add or remove others', async () => {
  api.listPatientCoaches.mockResolvedValue({ data: [coach('c1', 'Albrecht'), coach('me', 'Selbst')], total: 2 });
  render(<CareTeam patientId="p1" me={{ id: 'me', manages: false }} />);
  expect(await screen.findByText('Kim Albrecht')).toBeTruthy();
  expect(screen.queryByLabelText('Coach hinzufügen')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Kim Albrecht aus der Betreuung entfernen' })).toBeNull();
  expect(screen.getByRole('button', { name: 'Kim Selbst aus der Betreuung entfernen' })).toBeTruthy();
});

test('the primary coach (or an administrator) manages the care team', async () => {
  api.listPatientCoaches.mockResolvedValue({ data: [coach('c1', 'Albrecht')], total: 1 });
  render(<CareTeam patientId="p1" me={{ id: 'me', manages: true }} />);
  expect(await screen.findByRole('button', { name: 'Kim Albrecht aus der Betreuung entfernen' })).toBeTruthy();
  expect(await screen.findByLabelText('Coach hinzufügen')).toBeTruthy();
});
