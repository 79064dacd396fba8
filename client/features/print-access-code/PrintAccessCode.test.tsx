import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { user } from '../../state/session.ts';
import PrintAccessCodePage from './index.tsx';

vi.mock('../../api/patients.ts', () => ({ getPatient: vi.fn(), getPrimaryCoach: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
const { getPatient, getPrimaryCoach } = vi.mocked(await import('../../api/patients.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));

beforeEach(() => {
  vi.resetAllMocks();
  user.value = {
    id: 'me',
    email: 'clara@example.org',
    firstName: 'Clara',
    lastName: 'Coach',
    isUserLocked: false,
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    emailVerified: true,
    language: 'de',
  };
  listPatientTokens.mockResolvedValue({ data: [], total: 0 });
});

test('the sheet shows the code in blocks, German instructions and a print button', async () => {
  history.replaceState(null, '', '/print/access-code?code=K7QM-3RTX-9HPA-W&patientId=p1');
  getPatient.mockResolvedValue({ data: { firstName: 'Anna', lastName: 'Müller' } as never, total: null });
  getPrimaryCoach.mockResolvedValue({
    data: { id: 'me', firstName: 'Clara', lastName: 'Coach', title: '', email: 'clara@example.org', phone: '0931 123' },
    total: null,
  });
  const print = vi.fn();
  Object.defineProperty(window, 'print', { value: print, configurable: true });
  render(<PrintAccessCodePage />);
  expect(screen.getByRole('heading', { level: 1, name: 'Ihr Zugangscode' })).toBeTruthy();
  expect(screen.getByText('3RTX')).toBeTruthy();
  expect(screen.getByText(/Öffnen Sie die App und wählen Sie „Zugangscode eingeben“/)).toBeTruthy();
  expect(await screen.findByText('für Anna Müller')).toBeTruthy();
  expect(await screen.findByText(/Telefon: 0931 123/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Drucken' }));
  expect(print).toHaveBeenCalled();
});

test('without a code the page explains where to open it from', () => {
  history.replaceState(null, '', '/print/access-code');
  render(<PrintAccessCodePage />);
  expect(screen.getByRole('alert').textContent).toContain('kein Zugangscode');
});

test('the sheet still prints when name and coach cannot be read', async () => {
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH&patientId=p1');
  getPatient.mockRejectedValue(new Error('403'));
  getPrimaryCoach.mockRejectedValue(new Error('403'));
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Ihr Coach: Clara Coach/)).toBeTruthy();
  expect(screen.getByText('EFGH')).toBeTruthy();
  expect(screen.queryByText(/für /)).toBeNull();
});
