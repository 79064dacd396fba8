import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../api/http.ts';
import type { PatientToken } from '../../api/schemas/patient-tokens.ts';
import { user } from '../../state/session.ts';
import { systemSettings } from '../../state/settings.ts';
import CreateAccessPage from './index.tsx';

vi.mock('../../api/coaches.ts', () => ({ createPatientToken: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
const { createPatientToken } = vi.mocked(await import('../../api/coaches.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));

const token: PatientToken = {
  id: 't1',
  code: 'K7QM-3RTX-9HPA-W',
  coachId: 'me',
  patientId: null,
  expiresAt: '2027-02-20T12:00:00.000Z',
  usedAt: null,
  createdAt: '2026-11-22T12:00:00.000Z',
};

beforeEach(() => {
  vi.resetAllMocks();
  user.value = {
    id: 'me',
    email: 'c@example.org',
    firstName: 'Clara',
    lastName: 'Coach',
    isUserLocked: false,
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    emailVerified: true,
    language: 'de',
  };
  systemSettings.value = null;
  listPatientTokens.mockResolvedValue({ data: [], total: 0 });
});

test('creating a code shows it in blocks with a print link and copies it with a visible confirmation', async () => {
  createPatientToken.mockResolvedValueOnce({ data: token, total: null });
  const writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  render(<CreateAccessPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  expect(await screen.findByText('Zugangscode: K 7 Q M, 3 R T X, 9 H P A, W')).toBeTruthy();
  expect(screen.getByText('9HPA')).toBeTruthy();
  expect(createPatientToken).toHaveBeenCalledWith('me', {});
  expect(screen.getByRole('button', { name: 'Ausdrucken' }).getAttribute('href')).toBe('/print/access-code?code=K7QM-3RTX-9HPA-W');
  fireEvent.click(screen.getByRole('button', { name: 'Code kopieren' }));
  expect(await screen.findByText('Kopiert!')).toBeTruthy();
  expect(writeText).toHaveBeenCalledWith('K7QM-3RTX-9HPA-W');
});

test('when the clipboard is blocked, the person is told to copy by hand', async () => {
  createPatientToken.mockResolvedValueOnce({ data: token, total: null });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
  render(<CreateAccessPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Code kopieren' }));
  expect(await screen.findByText(/Kopieren ist nicht möglich/)).toBeTruthy();
});

test('a failed creation says so and retries', async () => {
  createPatientToken.mockRejectedValueOnce(new ApiError(503, 'HTTP_503', 'down'));
  render(<CreateAccessPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Der Zugangscode wurde nicht erstellt.');
  createPatientToken.mockResolvedValueOnce({ data: token, total: null });
  fireEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
  expect(await screen.findByText('Zugangscode erstellt')).toBeTruthy();
});

test('open codes are listed, and an empty list says so', async () => {
  listPatientTokens.mockResolvedValueOnce({ data: [token], total: 1 });
  const { unmount } = render(<CreateAccessPage />);
  expect(await screen.findByText('K7QM-3RTX-9HPA-W')).toBeTruthy();
  const filter = listPatientTokens.mock.calls[0][0]!;
  expect(filter.where).toMatchObject({ coachId: 'me', usedAt: null });
  unmount();
  render(<CreateAccessPage />);
  expect(await screen.findByText('Keine offenen Zugangscodes.')).toBeTruthy();
});

test('a coach cannot create codes when the system setting forbids new patients; an administrator can', () => {
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  const { unmount } = render(<CreateAccessPage />);
  expect(screen.getByRole('alert').textContent).toContain('nicht freigegeben');
  expect(screen.queryByRole('button', { name: 'Zugangscode erstellen' })).toBeNull();
  unmount();
  user.value = { ...user.value!, isAdmin: true };
  render(<CreateAccessPage />);
  expect(screen.getByRole('button', { name: 'Zugangscode erstellen' })).toBeTruthy();
});

test('too many new patients in a short time is said plainly, and creating again stays offered', async () => {
  createPatientToken.mockRejectedValueOnce(new ApiError(429, 'RATE_LIMITED', 'slow down'));
  render(<CreateAccessPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Zu viele neue Patienten in kurzer Zeit. Bitte versuchen Sie es in einigen Minuten erneut.');
  expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
});
