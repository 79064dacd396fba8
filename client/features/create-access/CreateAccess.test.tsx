import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../data/http.ts';
import type { PatientToken } from '../../../contract/schemas/patient-tokens.ts';
import { buildPatientToken } from '../../../test/helpers/screen-records.ts';
import { user } from '../../state/session.ts';
import { systemSettings } from '../../state/settings.ts';
import CreateAccessPage from './index.tsx';

vi.mock('../../api/coaches.ts', () => ({ createPatientToken: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
const { createPatientToken } = vi.mocked(await import('../../api/coaches.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));

const token: PatientToken = buildPatientToken();
const openCodes = () => screen.getByRole('region', { name: 'Ihre noch nicht benutzten Zugangscodes' });

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

test('a new code joins the list of unused codes at once, above the older ones, without reloading the list', async () => {
  const older = buildPatientToken({ id: 't0', code: 'AAAA-BBBB-CC', createdAt: '2026-11-20T12:00:00.000Z' });
  listPatientTokens.mockResolvedValueOnce({ data: [older], total: 1 });
  createPatientToken.mockResolvedValueOnce({ data: token, total: null });
  render(<CreateAccessPage />);
  expect(await within(openCodes()).findByText('AAAA-BBBB-CC')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  await screen.findByText('Zugangscode erstellt');
  const codes = within(openCodes())
    .getAllByText(/^[A-Z0-9]{4}-/)
    .map((code) => code.textContent);
  expect(codes).toEqual(['K7QM-3RTX-9HPA-W', 'AAAA-BBBB-CC']);
  expect(listPatientTokens).toHaveBeenCalledTimes(1);
});

test('a label says whom the code is for: it is sent with the request and shown with the new code and in the list', async () => {
  listPatientTokens.mockResolvedValueOnce({ data: [], total: 0 });
  createPatientToken.mockResolvedValueOnce({ data: buildPatientToken({ label: 'Herr B., Zimmer 12' }), total: null });
  render(<CreateAccessPage />);
  await screen.findByText('Keine offenen Zugangscodes.');
  fireEvent.input(screen.getByLabelText(/Für wen ist der Code/), { target: { value: '  Herr B., Zimmer 12 ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  expect(await screen.findByText('Für: Herr B., Zimmer 12')).toBeTruthy();
  expect(createPatientToken).toHaveBeenCalledWith('me', { label: 'Herr B., Zimmer 12' });
  expect(within(openCodes()).getByText('Herr B., Zimmer 12')).toBeTruthy();
  // The field is empty again for the next code: a label belongs to one code.
  expect((screen.getByLabelText(/Für wen ist der Code/) as HTMLInputElement).value).toBe('');
});

test('against an API that stores no label the code is still made and listed, just without one', async () => {
  listPatientTokens.mockResolvedValueOnce({ data: [], total: 0 });
  createPatientToken.mockResolvedValueOnce({ data: token, total: null });
  render(<CreateAccessPage />);
  await screen.findByText('Keine offenen Zugangscodes.');
  fireEvent.input(screen.getByLabelText(/Für wen ist der Code/), { target: { value: 'Frau K.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  await screen.findByText('Zugangscode erstellt');
  expect(within(openCodes()).getByText('K7QM-3RTX-9HPA-W')).toBeTruthy();
  expect(screen.queryByText(/^Für:/)).toBeNull();
});
