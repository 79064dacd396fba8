import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ApiError } from '../../../data/http.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { user } from '../../../state/session.ts';
import { MasterData } from './MasterData.tsx';
import { EvaluationForm } from './EvaluationForm.tsx';
import { Appointments } from './Appointments.tsx';

vi.mock('../../../api/patients.ts', async (original) => ({
  ...(await original<typeof import('../../../api/patients.ts')>()),
  updatePatient: vi.fn(),
  getEvaluationForm: vi.fn(),
  saveEvaluationForm: vi.fn(),
  saveAppointments: vi.fn(),
}));
vi.mock('../../../api/diagnosis.ts', () => ({ listDiagnoses: vi.fn() }));
vi.mock('../../../api/cost-rates.ts', () => ({ listCostRates: vi.fn() }));
vi.mock('../../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
const api = vi.mocked(await import('../../../api/patients.ts'));
const { listDiagnoses } = vi.mocked(await import('../../../api/diagnosis.ts'));
const { listCostRates } = vi.mocked(await import('../../../api/cost-rates.ts'));
const { listCoaches } = vi.mocked(await import('../../../api/coaches.ts'));

const anna: Patient = {
  id: 'p1',
  patientCode: 'NK-4821',
  firstName: 'Anna',
  lastName: 'Müller',
  birthDate: '1968-04-02',
  gender: 'female',
  email: null,
  phone: null,
  clinic: '',
  aftercareStart: '2026-09-01',
  aftercareEnd: '2027-02-28',
  primaryCoachId: 'me',
  diagnosisIds: [],
  costRateId: null,
  appointments: [],
  lastDataAt: null,
  followUpAt: null,
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: '2026-09-01T00:00:00.000Z',
};
const set = (el: HTMLElement, value: string) => fireEvent.input(el, { target: { value } });

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
  listDiagnoses.mockResolvedValue({ data: [], total: 0 });
  listCostRates.mockResolvedValue({ data: [], total: 0 });
  listCoaches.mockResolvedValue({ data: [], total: 0 });
});

test('a failed master data save keeps the form open with everything typed, and a retry saves it', async () => {
  api.updatePatient.mockRejectedValueOnce(new ApiError(503, 'HTTP_503', 'down'));
  const onSaved = vi.fn();
  render(<MasterData patient={anna} coachId="me" onSaved={onSaved} />);
  fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
  set(await screen.findByLabelText('Nachname'), 'Müller-Lüdenscheidt');
  set(screen.getByLabelText('Telefon'), '0931 4711');
  fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
  expect((await screen.findByRole('alert')).textContent).toContain('Nicht gespeichert. Ihre Eingaben sind noch da.');
  expect((screen.getByLabelText('Nachname') as HTMLInputElement).value).toBe('Müller-Lüdenscheidt');
  expect((screen.getByLabelText('Telefon') as HTMLInputElement).value).toBe('0931 4711');
  expect(onSaved).not.toHaveBeenCalled();

  api.updatePatient.mockResolvedValueOnce({ data: { ...anna, lastName: 'Müller-Lüdenscheidt', phone: '0931 4711' }, total: null });
  fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
  await screen.findByText('Die Stammdaten wurden gespeichert.');
  expect(api.updatePatient).toHaveBeenLastCalledWith(
    'p1',
    expect.objectContaining({ lastName: 'Müller-Lüdenscheidt', phone: '0931 4711' }),
    '"2026-09-01T00:00:00.000Z"',
  );
  expect(onSaved).toHaveBeenCalled();
});

test('the form checks required fields and the interval before sending', async () => {
  render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
  fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
  set(await screen.findByLabelText('Vorname'), ' ');
  set(screen.getByLabelText('Nachsorge bis'), '2026-08-01');
  fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
  expect(screen.getByText('Bitte ausfüllen.')).toBeTruthy();
  expect(screen.getByText('Das Ende darf nicht vor dem Beginn liegen.')).toBeTruthy();
  expect(api.updatePatient).not.toHaveBeenCalled();
});

test('a failed save of the final assessment keeps what was entered', async () => {
  api.getEvaluationForm.mockResolvedValue({
    data: {
      patientId: 'p1',
      goalAttainment: null,
      workAbility: null,
      returnToWorkDate: null,
      followUpRecommended: false,
      summary: '',
      updatedBy: null,
      updatedAt: null,
    },
    total: null,
  });
  api.saveEvaluationForm.mockRejectedValueOnce(new ApiError(0, 'NETWORK_ERROR', 'offline'));
  render(<EvaluationForm patientId="p1" coachId="me" />);
  set(await screen.findByLabelText('Zusammenfassung'), 'Ziele weitgehend erreicht.');
  fireEvent.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
  expect((await screen.findByRole('alert')).textContent).toContain('nicht gespeichert');
  expect((screen.getByLabelText('Zusammenfassung') as HTMLTextAreaElement).value).toBe('Ziele weitgehend erreicht.');
});

test('a failed appointment save keeps the new appointment on screen and a retry sends it again', async () => {
  api.saveAppointments.mockRejectedValueOnce(new ApiError(500, 'HTTP_500', 'x'));
  render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
  set(screen.getByLabelText('Beginn'), '2099-03-01T10:00');
  set(screen.getByLabelText('Notiz'), 'Rückfallprophylaxe');
  fireEvent.click(screen.getByRole('button', { name: 'Termin eintragen' }));
  expect((await screen.findByRole('alert')).textContent).toContain('nicht gespeichert');
  expect(screen.getByText('Rückfallprophylaxe')).toBeTruthy();
  api.saveAppointments.mockImplementationOnce(async (_id, list) => ({ data: list, total: null }));
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  expect(api.saveAppointments).toHaveBeenCalledTimes(2);
  expect(api.saveAppointments.mock.calls[1][1][0]).toMatchObject({ note: 'Rückfallprophylaxe', type: 'phone', durationMinutes: 30 });
});
