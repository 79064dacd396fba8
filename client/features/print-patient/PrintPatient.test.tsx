import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { ApiError } from '../../data/http.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { buildCoach } from '../../../test/helpers/screen-records.ts';
import { buildCallEvent, buildExternalComment } from '../../../test/helpers/timeline-records.ts';
import PrintPatientPage from './index.tsx';

vi.mock('../../api/patients.ts', async (original) => ({
  ...(await original<typeof import('../../api/patients.ts')>()),
  getPatient: vi.fn(),
  getPrimaryCoach: vi.fn(),
  listPatientCoaches: vi.fn(),
  getEvaluationForm: vi.fn(),
}));
vi.mock('../../api/comments.ts', () => ({ listComments: vi.fn() }));
vi.mock('../../api/external-comments.ts', () => ({ listExternalComments: vi.fn() }));
vi.mock('../../api/diagnosis.ts', () => ({ listDiagnoses: vi.fn() }));
vi.mock('../../api/cost-rates.ts', () => ({ listCostRates: vi.fn() }));
vi.mock('../../api/sync-db.ts', () => ({ listSyncRecords: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
vi.mock('../../api/devices.ts', () => ({ listDevices: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
vi.mock('../../api/audit-log.ts', () => ({ listAuditLog: vi.fn() }));
const patients = vi.mocked(await import('../../api/patients.ts'));
const { listComments } = vi.mocked(await import('../../api/comments.ts'));
const { listExternalComments } = vi.mocked(await import('../../api/external-comments.ts'));
const { listDiagnoses } = vi.mocked(await import('../../api/diagnosis.ts'));
const { listSyncRecords } = vi.mocked(await import('../../api/sync-db.ts'));
const { listCoaches } = vi.mocked(await import('../../api/coaches.ts'));
const { listDevices } = vi.mocked(await import('../../api/devices.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));
const { listAuditLog } = vi.mocked(await import('../../api/audit-log.ts'));

const anna: Patient = {
  id: 'p1',
  patientCode: 'NK-4821',
  firstName: 'Anna',
  lastName: 'Müller',
  birthDate: '1968-04-02',
  gender: 'female',
  email: null,
  phone: '0931 55',
  clinic: 'Reha-Zentrum Bad Kissingen',
  aftercareStart: '2026-09-01',
  aftercareEnd: '2027-02-28',
  primaryCoachId: 'me',
  diagnosisIds: ['d1'],
  costRateId: null,
  appointments: [],
  lastDataAt: null,
  followUpAt: null,
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: '2026-09-01T00:00:00.000Z',
};

beforeEach(() => {
  vi.resetAllMocks();
  history.replaceState(null, '', '/print/patient?id=p1');
  patients.getPrimaryCoach.mockResolvedValue({ data: null, total: null });
  patients.listPatientCoaches.mockResolvedValue({ data: [], total: 0 });
  patients.getEvaluationForm.mockRejectedValue(new ApiError(404, 'NOT_FOUND', 'x'));
  listComments.mockResolvedValue({
    data: [
      {
        id: 'c1',
        patientId: 'p1',
        authorId: 'me',
        authorName: 'Clara Coach',
        text: 'Erstgespräch geführt.',
        createdAt: '2026-09-02T09:00:00.000Z',
        updatedAt: '2026-09-02T09:00:00.000Z',
        deletedAt: null,
        deletedBy: null,
        deletedByName: null,
      },
    ],
    total: 1,
  });
  listExternalComments.mockResolvedValue({ data: [], total: 0 });
  listDiagnoses.mockResolvedValue({ data: [{ id: 'd1', code: 'F33.1', label: 'Rezidivierende depressive Störung' }], total: 1 });
  listSyncRecords.mockResolvedValue({ data: [], total: 0 });
  listCoaches.mockResolvedValue({ data: [buildCoach({ id: 'me', firstName: 'Clara', lastName: 'Coach' })], total: 1 });
  listDevices.mockResolvedValue({ data: [], total: 0 });
  listPatientTokens.mockResolvedValue({ data: [], total: 0 });
  listAuditLog.mockRejectedValue(new ApiError(404, 'NOT_FOUND', 'no audit log'));
});

test('the record for the file lists master data, diagnoses and comments; a part that cannot be read is left out', async () => {
  patients.getPatient.mockResolvedValue({ data: anna, total: null });
  render(<PrintPatientPage />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Anna Müller' })).toBeTruthy();
  expect(screen.getByText('NK-4821')).toBeTruthy();
  expect(screen.getByText('F33.1 Rezidivierende depressive Störung')).toBeTruthy();
  expect(screen.getByText('Erstgespräch geführt.')).toBeTruthy();
  expect(screen.queryByRole('heading', { name: 'Abschlussbewertung' })).toBeNull();
  expect(screen.getByRole('button', { name: 'Drucken' })).toBeTruthy();
});

test('when the patient cannot be loaded the page says why and retries', async () => {
  patients.getPatient.mockRejectedValueOnce(new ApiError(404, 'NOT_FOUND', 'x'));
  render(<PrintPatientPage />);
  expect((await screen.findByRole('alert')).textContent).toContain('nicht gefunden');
  patients.getPatient.mockResolvedValueOnce({ data: anna, total: null });
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Anna Müller' })).toBeTruthy();
});

test('the printed record marks an edited note with the time of its last change', async () => {
  patients.getPatient.mockResolvedValue({ data: anna, total: null });
  listComments.mockResolvedValue({
    data: [
      {
        id: 'c1',
        patientId: 'p1',
        authorId: 'me',
        authorName: 'Clara Coach',
        text: 'Erstgespräch geführt.',
        createdAt: '2026-09-02T09:00:00.000Z',
        updatedAt: '2026-09-02T09:00:00.000Z',
        deletedAt: null,
        deletedBy: null,
        deletedByName: null,
      },
      {
        id: 'c2',
        patientId: 'p1',
        authorId: 'me',
        authorName: 'Clara Coach',
        text: 'Telefonat, korrigiert.',
        createdAt: '2026-09-03T09:00:00.000Z',
        updatedAt: '2026-09-04T15:30:00.000Z',
        deletedAt: null,
        deletedBy: null,
        deletedByName: null,
      },
    ],
    total: 2,
  });
  render(<PrintPatientPage />);
  const edited = (await screen.findByText('Telefonat, korrigiert.')).closest('li')!;
  expect(edited.textContent).toMatch(/bearbeitet am 04\.09\.2026/);
  const unchanged = screen.getByText('Erstgespräch geführt.').closest('li')!;
  expect(unchanged.textContent).not.toContain('bearbeitet');
});

test('the printed record has the timeline: every call with outcome, length, note and who, newest first', async () => {
  patients.getPatient.mockResolvedValue({ data: anna, total: null });
  listSyncRecords.mockImplementation(async (_id, collection) =>
    collection === 'event'
      ? {
          data: [
            buildCallEvent(
              { id: 'call-2' },
              { start: '2026-09-05T09:12:00.000Z', kind: 'call-not-reached', done: false, durationMinutes: 0, notes: 'Mailbox.' },
            ),
            buildCallEvent({ id: 'call-1' }, { start: '2026-09-04T08:00:00.000Z', coachId: 'me', durationMinutes: 0, notes: 'Erzählt vom Rückfall.' }),
            buildCallEvent({ id: 'old' }, { start: '2026-09-01T08:00:00.000Z', kind: undefined, title: 'Telefonat alt', coachId: null, notes: 'Alte Notiz.' }),
          ],
          total: 3,
        }
      : { data: [], total: 0 },
  );
  listExternalComments.mockResolvedValue({ data: [buildExternalComment({ createdAt: '2026-09-04T20:00:00.000Z' })], total: 1 });
  render(<PrintPatientPage />);
  await screen.findByRole('heading', { name: 'Chronik' });
  const entries = [...document.querySelectorAll('.timeline-list > li')].map((li) => li.textContent);
  expect(entries).toHaveLength(5);
  expect(entries[0]).toMatch(/Anruf.*Anrufversuch \(nicht erreicht\)Mailbox\./);
  expect(entries[1]).toMatch(/Externe Notiz · Anna Müller.*Diese Woche war anstrengend\./);
  expect(entries[2]).toMatch(/Anruf · Clara Coach.*Telefonat \(erreicht\) · ohne Dauer.*Erzählt vom Rückfall\./);
  expect(entries[3]).toMatch(/Kommentar · Clara Coach.*Erstgespräch geführt\./);
  // A call stored before kinds existed shows the title it was stored with.
  expect(entries[4]).toMatch(/Telefonat alt · erreicht · 20 Min\.Alte Notiz\./);
});
