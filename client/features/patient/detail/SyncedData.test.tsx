import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../../data/http.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { buildCallEvent } from '../../../../test/helpers/timeline-records.ts';
import { daysBetween, perDay, SyncedData } from './SyncedData.tsx';

vi.mock('../../../api/sync-db.ts', () => ({ listSyncRecords: vi.fn() }));
vi.mock('../../../api/surveys.ts', () => ({ listSurveys: vi.fn() }));
const { listSyncRecords } = vi.mocked(await import('../../../api/sync-db.ts'));
const { listSurveys } = vi.mocked(await import('../../../api/surveys.ts'));

const daysAgo = (n: number) => isoDay(new Date(Date.now() - n * 86_400_000));
const evaluation = (n: number, mood: number) => ({
  id: `e${n}`,
  patientId: 'p1',
  date: daysAgo(n),
  updatedAt: '',
  data: { date: daysAgo(n), mood, sleep: 3, stress: 2, pain: null, notes: '' },
});

beforeEach(() => {
  vi.resetAllMocks();
  listSurveys.mockResolvedValue({ data: [], total: 0 });
});

test('days without a record are gaps, not zeros', () => {
  const days = daysBetween(new Date(2026, 10, 1), new Date(2026, 10, 3));
  expect(days).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
  expect(perDay(days, [{ date: '2026-11-03', data: { v: 4 } }], (d) => d.v)).toEqual([null, null, 4]);
});

test('day evaluations are drawn as a chart with a table view of the same values', async () => {
  listSyncRecords.mockImplementation(async (_p, collection) => {
    if (collection === 'day-evaluation') return { data: [evaluation(1, 4), evaluation(0, 5)] as never, total: 2 };
    return { data: [], total: 0 };
  });
  render(<SyncedData patientId="p1" />);
  const figure = await screen.findByRole('figure', { name: 'Stimmung, Schlaf und Stress (1 bis 5)' });
  expect(figure.querySelector('svg')).toBeTruthy();
  fireEvent.click(within(figure).getByRole('button', { name: 'Als Tabelle anzeigen' }));
  const table = within(figure).getByRole('table');
  expect(within(table).getAllByText('5').length).toBeGreaterThan(0);
  expect(screen.getByText('Keine Schmerzangaben in diesem Zeitraum.')).toBeTruthy();
  expect(screen.getByText('In diesem Zeitraum keine Tageswerte.')).toBeTruthy();
  expect(listSyncRecords.mock.calls.find((c) => c[1] === 'day-evaluation')![2]).toMatchObject({ where: { date: { gte: daysAgo(29) } }, order: 'date ASC' });
});

test('a collection that fails to load shows its own error with retry', async () => {
  listSyncRecords.mockImplementation(async (_p, collection) => {
    if (collection === 'event') throw new ApiError(500, 'HTTP_500', 'x');
    return { data: [], total: 0 };
  });
  render(<SyncedData patientId="p1" />);
  const events = (await screen.findByRole('heading', { name: 'Ereignisse' })).closest('section')!;
  expect((await within(events).findByRole('alert')).textContent).toContain('Der Server antwortet gerade nicht');
  expect(await screen.findByText('In diesem Zeitraum keine Tagesbewertungen.')).toBeTruthy();
});

test('a call under "Ereignisse" reads with its kind and its note', async () => {
  listSyncRecords.mockImplementation(async (_p, collection) => {
    if (collection === 'event')
      return {
        data: [buildCallEvent({}, { kind: 'call-not-reached', title: 'Call attempt (not reached)', done: false, notes: 'Mailbox, Rückruf erbeten.' })],
        total: 1,
      };
    return { data: [], total: 0 };
  });
  render(<SyncedData patientId="p1" />);
  const events = (await screen.findByRole('heading', { name: 'Ereignisse' })).closest('section')!;
  expect(await within(events).findByText('Mailbox, Rückruf erbeten.')).toBeTruthy();
  expect(within(events).getByText(/Anrufversuch \(nicht erreicht\)/)).toBeTruthy();
  expect(within(events).queryByText(/Call attempt/)).toBeNull();
});
