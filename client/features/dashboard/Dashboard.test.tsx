import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../api/http.ts';
import type { Patient } from '../../api/schemas/patients.ts';
import type { ListFilter } from '../../api/schemas/common.ts';
import { news } from '../../state/news.ts';
import { user } from '../../state/session.ts';
import DashboardPage from './index.tsx';

vi.mock('../../api/patients.ts', async (original) => ({
  ...(await original<typeof import('../../api/patients.ts')>()),
  listPatients: vi.fn(),
}));
vi.mock('../../api/comments.ts', () => ({ listComments: vi.fn() }));
vi.mock('../../api/external-comments.ts', () => ({ listExternalComments: vi.fn() }));
const { listPatients } = vi.mocked(await import('../../api/patients.ts'));
const { listComments } = vi.mocked(await import('../../api/comments.ts'));
const { listExternalComments } = vi.mocked(await import('../../api/external-comments.ts'));

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const patient = (id: string, lastDataAt: string | null, over: Partial<Patient> = {}): Patient => ({
  id, patientCode: `NK-${id}`, firstName: 'Vor', lastName: id, birthDate: '1970-01-01', gender: 'unknown', email: null, phone: null,
  clinic: '', aftercareStart: '2026-01-01', aftercareEnd: '2099-01-01', primaryCoachId: 'me', diagnosisIds: [], costRateId: null,
  appointments: [], lastDataAt, followUpAt: null, createdAt: daysAgo(100), updatedAt: daysAgo(1), ...over,
});

/** Answers list calls by what they ask for: limit 0 = a count, an aftercareEnd range = ending soon, else attention. */
function serve({ attention = [] as Patient[], ending = [] as Patient[], count = 0 } = {}) {
  listPatients.mockImplementation(async (filter?: ListFilter) => {
    if (filter?.limit === 0) return { data: [], total: count };
    const where = JSON.stringify(filter?.where);
    if (where.includes('between')) return { data: ending, total: ending.length };
    if (where.includes('"inq"')) return { data: [patient('Huber', null)].map((p) => ({ ...p, id: 'p1' })), total: 1 };
    return { data: attention, total: attention.length };
  });
}

beforeEach(() => {
  vi.resetAllMocks();
  user.value = { id: 'me', email: 'c@example.org', firstName: 'Clara', lastName: 'Coach', isUserLocked: false, isAdmin: false, isSuperAdmin: false, isHealthManager: false, emailVerified: true, language: 'de' };
  news.value = [];
  listComments.mockResolvedValue({ data: [], total: 0 });
  listExternalComments.mockResolvedValue({ data: [], total: 0 });
});

test('patients needing attention are listed red first, then yellow, then those without data, each with its traffic light', async () => {
  serve({ attention: [patient('Grau', null), patient('Gelb', daysAgo(4)), patient('Rot', daysAgo(12))] });
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).closest('section')!;
  const rows = await within(section).findAllByRole('listitem');
  expect(rows.map((r) => within(r).getByRole('link').textContent)).toEqual(['Vor Rot', 'Vor Gelb', 'Vor Grau']);
  expect(rows[0].querySelector('.freshness-red')).toBeTruthy();
  expect(rows[1].querySelector('.freshness-yellow')).toBeTruthy();
  expect(rows[2].textContent).toContain('nie');
});

test('the caseload counts link to the patient list filtered by traffic light', async () => {
  serve({ count: 7 });
  render(<DashboardPage />);
  const link = await screen.findByRole('link', { name: /Seit über 7 Tagen keine Daten/ });
  expect(link.getAttribute('href')).toBe('/patient?status=active&last=red');
  expect(link.textContent).toContain('7');
});

test('aftercare ending soon shows the days left', async () => {
  const inFive = new Date(Date.now() + 5 * DAY);
  const day = `${inFive.getFullYear()}-${String(inFive.getMonth() + 1).padStart(2, '0')}-${String(inFive.getDate()).padStart(2, '0')}`;
  serve({ ending: [patient('Bald', daysAgo(1), { aftercareEnd: day })] });
  render(<DashboardPage />);
  expect(await screen.findByText('noch 5 Tage')).toBeTruthy();
});

test('empty sections say so instead of showing nothing', async () => {
  serve();
  render(<DashboardPage />);
  expect(await screen.findByText(/Alle Patienten in laufender Nachsorge haben/)).toBeTruthy();
  expect(await screen.findByText('In den nächsten 14 Tagen endet keine Nachsorge.')).toBeTruthy();
  expect(await screen.findByText('Noch keine Kommentare zu Ihren Patienten.')).toBeTruthy();
  expect(screen.getByText('Keine neue News vorhanden')).toBeTruthy();
});

test('a failed section shows an error with retry while the others still work', async () => {
  serve();
  listComments.mockRejectedValueOnce(new ApiError(0, 'NETWORK_ERROR', 'offline'));
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Neueste Kommentare' })).closest('section')!;
  expect((await within(section).findByRole('alert')).textContent).toContain('Keine Verbindung');
  expect(await screen.findByText('In den nächsten 14 Tagen endet keine Nachsorge.')).toBeTruthy();
  listComments.mockResolvedValueOnce({
    data: [{ id: 'c1', patientId: 'p1', authorId: 'x', authorName: 'Bernd Kollege', text: 'Rückruf morgen', createdAt: daysAgo(0), updatedAt: daysAgo(0), deletedAt: null, deletedBy: null, deletedByName: null }],
    total: 1,
  });
  fireEvent.click(within(section).getByRole('button', { name: 'Erneut versuchen' }));
  expect(await within(section).findByText('Rückruf morgen')).toBeTruthy();
  expect(within(section).getByRole('link', { name: 'Vor Huber' }).getAttribute('href')).toBe('/patient/p1?tab=comments');
});

test('unread news are listed with links that open them', async () => {
  serve();
  news.value = [
    { id: 'n1', title: 'Neue Fragebögen', body: '', publishedAt: daysAgo(2), read: false },
    { id: 'n2', title: 'Alt und gelesen', body: '', publishedAt: daysAgo(9), read: true },
  ];
  render(<DashboardPage />);
  expect(screen.getByRole('link', { name: 'Neue Fragebögen' }).getAttribute('href')).toBe('/news-dashboard?id=n1');
  expect(screen.queryByText('Alt und gelesen')).toBeNull();
});

test('without X-Total-Count the caseload tiles count the rows, up to "mehr als 99"', async () => {
  // An upstream that honours limit 0 but never counts: the tiles ask for up to 100 rows instead.
  listPatients.mockImplementation(async (filter?: ListFilter) => {
    const where = JSON.stringify(filter?.where);
    const all = where.includes('"gte":"') && where.includes('lastDataAt') && !where.includes('"lt"') ? 3 : 250;
    return { data: Array.from({ length: Math.min(filter?.limit ?? 100, all) }, (_, i) => patient(`x${i}`, null)), total: null };
  });
  listComments.mockResolvedValue({ data: [], total: null });
  listExternalComments.mockResolvedValue({ data: [], total: null });
  render(<DashboardPage />);
  const active = await screen.findByRole('link', { name: /in laufender Nachsorge/ });
  expect(active.textContent).toContain('mehr als 99');
  expect((await screen.findByRole('link', { name: /Daten aktuell/ })).textContent).toMatch(/^\s*3/);
  // Attention (101 rows for 100 asked) and ending soon (11 for 10) offer all, without claiming a number.
  expect(await screen.findAllByRole('link', { name: 'Alle anzeigen' })).toHaveLength(2);
});
