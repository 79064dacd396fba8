import { beforeEach, expect, test, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/preact';
import type { SyncRecord } from '../../../../contract/schemas/sync-db.ts';
import { buildComment, buildPatient } from '../../../../test/helpers/screen-records.ts';
import { PatientIdentity } from './PatientIdentity.tsx';

vi.mock('../../../api/comments.ts', () => ({ listComments: vi.fn() }));
vi.mock('../../../api/sync-db.ts', () => ({ listSyncRecords: vi.fn() }));
const { listComments } = vi.mocked(await import('../../../api/comments.ts'));
const { listSyncRecords } = vi.mocked(await import('../../../api/sync-db.ts'));

const now = new Date('2026-11-26T10:00:00');
const event = (id: string, start: string, type: string, done: boolean) =>
  ({
    id,
    patientId: 'p-1',
    date: start.slice(0, 10),
    updatedAt: start,
    data: { type, title: id, start, durationMinutes: 15, done, coachId: null, templateId: null, notes: '' },
  }) as SyncRecord<'event'>;
const fact = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;

beforeEach(() => {
  vi.resetAllMocks();
  listComments.mockResolvedValue({ data: [], total: null });
  listSyncRecords.mockResolvedValue({ data: [], total: null });
});

test('the header shows date of birth and age, the phone to call, the next appointment and the follow-up day', async () => {
  const patient = buildPatient({
    birthDate: '1961-03-12',
    phone: '0171 / 555 01-01',
    followUpAt: '2026-12-01',
    appointments: [
      { id: 'old', startsAt: '2026-11-20T09:00:00Z', durationMinutes: 30, type: 'phone', note: '' },
      { id: 'next', startsAt: '2026-11-30T09:15:00', durationMinutes: 30, type: 'phone', note: '' },
    ],
  });
  render(<PatientIdentity patient={patient} now={now} />);
  expect(fact('Geboren').textContent).toBe('12.03.1961 (65)');
  expect(within(fact('Telefon')).getByRole('link', { name: '0171 / 555 01-01' }).getAttribute('href')).toBe('tel:01715550101');
  expect(fact('Nächster Termin').textContent).toBe('30.11.2026, 09:15');
  expect(fact('Wiedervorlage').textContent).toBe('01.12.2026');
  await waitFor(() => expect(fact('Letzter Kontakt').textContent).toBe('–'));
});

test('without phone, appointment or follow-up day each says so with a dash', async () => {
  render(<PatientIdentity patient={buildPatient({ phone: null, appointments: [], followUpAt: null })} now={now} />);
  for (const label of ['Telefon', 'Nächster Termin', 'Wiedervorlage']) expect(fact(label).textContent).toBe('–');
  await waitFor(() => expect(fact('Letzter Kontakt').textContent).toBe('–'));
});

test('the last contact is the newer of the newest comment and the newest held call, planned and missed calls not counted', async () => {
  listComments.mockResolvedValue({ data: [buildComment({ createdAt: '2026-11-18T08:00:00Z' })], total: null });
  listSyncRecords.mockResolvedValue({
    data: [
      event('later-today', '2026-11-26T15:00:00', 'phone-coaching', false),
      event('walk', '2026-11-25T08:00:00', 'exercise', true),
      event('missed', '2026-11-24T08:00:00', 'phone-coaching', false),
      event('held', '2026-11-23T08:00:00', 'phone-coaching', true),
    ],
    total: null,
  });
  render(<PatientIdentity patient={buildPatient()} now={now} />);
  expect(await screen.findByText('23.11.2026 (Anruf)')).toBeTruthy();
  expect(listComments).toHaveBeenCalledWith({ where: { patientId: 'p-1' }, order: 'createdAt DESC', limit: 1 }, expect.anything());
});

test('a comment newer than every call is the last contact; lists that cannot be read count as none', async () => {
  listComments.mockResolvedValue({ data: [buildComment({ createdAt: '2026-11-25T08:00:00Z' })], total: null });
  listSyncRecords.mockRejectedValue(new Error('403'));
  render(<PatientIdentity patient={buildPatient()} now={now} />);
  expect(await screen.findByText('25.11.2026 (Kommentar)')).toBeTruthy();
});

test('the last contact keeps the width of its longest text while it loads, so the line does not re-wrap when it comes', async () => {
  listComments.mockReturnValue(new Promise(() => {}));
  render(<PatientIdentity patient={buildPatient()} now={now} />);
  const contact = fact('Letzter Kontakt');
  expect(contact.textContent).toBe('…');
  expect(contact.getAttribute('aria-busy')).toBe('true');
  expect(contact.className).toBe('identity-reserved');
  expect([contact.dataset.reserveCall, contact.dataset.reserveComment]).toEqual(['28.12.2026 (Anruf)', '28.12.2026 (Kommentar)']);
});
