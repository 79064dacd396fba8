import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../data/http.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import type { ListFilter } from '../../../contract/schemas/common.ts';
import { isoDay } from '../../components/AftercareBadge.tsx';
import { news, newsLoading } from '../../state/news.ts';
import { user } from '../../state/session.ts';
import DashboardPage from './index.tsx';
import { CASELOAD_PAGE } from './queries.ts';

vi.mock('../../api/patients.ts', async (original) => ({ ...(await original<typeof import('../../api/patients.ts')>()), listPatients: vi.fn() }));
vi.mock('../../api/comments.ts', () => ({ listComments: vi.fn() }));
vi.mock('../../api/external-comments.ts', () => ({ listExternalComments: vi.fn() }));
const { listPatients } = vi.mocked(await import('../../api/patients.ts'));
const { listComments } = vi.mocked(await import('../../api/comments.ts'));
const { listExternalComments } = vi.mocked(await import('../../api/external-comments.ts'));

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const inDays = (n: number) => isoDay(new Date(Date.now() + n * DAY));
const patient = (id: string, lastDataAt: string | null, over: Partial<Patient> = {}): Patient => ({
  id,
  patientCode: `NK-${id}`,
  firstName: 'Vor',
  lastName: id,
  birthDate: '1970-01-01',
  gender: 'unknown',
  email: null,
  phone: null,
  clinic: '',
  aftercareStart: '2026-01-01',
  aftercareEnd: '2099-01-01',
  primaryCoachId: 'me',
  diagnosisIds: [],
  costRateId: null,
  appointments: [],
  lastDataAt,
  followUpAt: null,
  createdAt: daysAgo(100),
  updatedAt: daysAgo(1),
  ...over,
});

/** The caseload call answers `active`; a name lookup (id inq) answers p1 = Huber. */
function serve(active: Patient[] = []) {
  listPatients.mockImplementation(async (filter?: ListFilter) => {
    if (JSON.stringify(filter?.where).includes('"inq"')) return { data: [{ ...patient('Huber', null), id: 'p1' }], total: 1 };
    return { data: active, total: active.length };
  });
}

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
  news.value = [];
  newsLoading.value = false;
  listComments.mockResolvedValue({ data: [], total: 0 });
  listExternalComments.mockResolvedValue({ data: [], total: 0 });
});

test('patients needing attention are listed red first, then yellow, then those without data, each with its traffic light', async () => {
  serve([patient('Grau', null), patient('Gelb', daysAgo(4)), patient('Gruen', daysAgo(1)), patient('Rot', daysAgo(12))]);
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).closest('section')!;
  const rows = within(section).getAllByRole('listitem');
  expect(rows.map((r) => within(r).getAllByRole('link')[0].textContent)).toEqual(['Vor Rot', 'Vor Gelb', 'Vor Grau']);
  expect(rows[0].querySelector('.freshness-red')).toBeTruthy();
  expect(rows[1].querySelector('.freshness-yellow')).toBeTruthy();
  expect(rows[2].textContent).toContain('nie');
});

test('counts the caseload per traffic light from the one caseload answer, each count linking to the filtered list', async () => {
  serve([
    patient('a', daysAgo(10)),
    patient('b', daysAgo(20)),
    patient('c', daysAgo(3)),
    patient('d', null),
    patient('e', daysAgo(40)),
    patient('f', daysAgo(1)),
    patient('g', daysAgo(0)),
  ]);
  render(<DashboardPage />);
  const tile = async (name: RegExp) => (await screen.findByRole('link', { name })).textContent;
  expect(await tile(/in laufender Nachsorge/)).toContain('7');
  expect(await tile(/Seit über 7 Tagen keine Daten/)).toContain('2');
  expect(await tile(/Seit über 2 Tagen keine Daten/)).toContain('1');
  expect(await tile(/Daten aktuell/)).toContain('2');
  expect((await screen.findByRole('link', { name: /Seit über 30 Tagen oder nie/ })).textContent).toContain('2');
  expect(screen.getByRole('link', { name: /Seit über 7 Tagen keine Daten/ }).getAttribute('href')).toBe('/patient?status=active&last=red');
  expect(listPatients).toHaveBeenCalledTimes(1);
});

test('aftercare ending soon shows the days left, soonest first, and only those within 14 days', async () => {
  serve([
    patient('Spaet', daysAgo(1), { aftercareEnd: inDays(30) }),
    patient('Bald', daysAgo(1), { aftercareEnd: inDays(5) }),
    patient('Heute', daysAgo(1), { aftercareEnd: inDays(0) }),
  ]);
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Nachsorge endet bald' })).closest('section')!;
  expect(
    within(section)
      .getAllByRole('listitem')
      .map((r) => r.textContent),
  ).toEqual([expect.stringContaining('Heute'), expect.stringContaining('noch 5 Tage')]);
});

test('empty sections say so instead of showing nothing', async () => {
  serve();
  render(<DashboardPage />);
  expect(await screen.findByText(/Alle Patienten in laufender Nachsorge haben/)).toBeTruthy();
  expect(await screen.findByText('In den nächsten 14 Tagen endet keine Nachsorge.')).toBeTruthy();
  expect(await screen.findByText('Noch keine Kommentare zu Ihren Patienten.')).toBeTruthy();
  expect(screen.getByText('Keine neue News vorhanden')).toBeTruthy();
});

test('the cards appear together once the caseload and the news are there, so none pushes another down', async () => {
  let answer: (value: { data: Patient[]; total: number }) => void = () => {};
  listPatients.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
  newsLoading.value = true;
  render(<DashboardPage />);
  expect(screen.getByText('Wird geladen …')).toBeTruthy();
  answer({ data: [patient('Rot', daysAgo(12))], total: 1 });
  await screen.findByText('Wird geladen …');
  expect(screen.queryByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).toBeNull();
  expect(screen.queryByRole('heading', { name: 'Ungelesene News' })).toBeNull();
  newsLoading.value = false;
  expect(await screen.findByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).toBeTruthy();
  expect(screen.getByRole('heading', { name: 'Ungelesene News' })).toBeTruthy();
});

test('news reloading later (the line came back) leave the cards and the rows of the worklist in place', async () => {
  serve([patient('Rot', daysAgo(12))]);
  render(<DashboardPage />);
  const note = await screen.findByLabelText('Notiz zum Anruf (optional)');
  newsLoading.value = true;
  await Promise.resolve();
  expect(screen.getByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).toBeTruthy();
  expect(screen.getByLabelText('Notiz zum Anruf (optional)')).toBe(note);
  newsLoading.value = false;
  // The same row, not a new one: its state (a recorded call, "Rückgängig") is kept.
  expect(screen.getByLabelText('Notiz zum Anruf (optional)')).toBe(note);
});

test('a failed feed shows an error with retry while the other sections still work', async () => {
  serve();
  listComments.mockRejectedValueOnce(new ApiError(500, 'HTTP_500', 'broken'));
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Neueste Kommentare' })).closest('section')!;
  expect((await within(section).findByRole('alert')).textContent).toContain('Der Server antwortet gerade nicht');
  expect(screen.getByText('In den nächsten 14 Tagen endet keine Nachsorge.')).toBeTruthy();
  listComments.mockResolvedValueOnce({
    data: [
      {
        id: 'c1',
        patientId: 'p1',
        authorId: 'x',
        authorName: 'Bernd Kollege',
        text: 'Rückruf morgen',
        createdAt: daysAgo(0),
        updatedAt: daysAgo(0),
        deletedAt: null,
        deletedBy: null,
        deletedByName: null,
      },
    ],
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
  expect((await screen.findByRole('link', { name: 'Neue Fragebögen' })).getAttribute('href')).toBe('/news-dashboard?id=n1');
  expect(screen.queryByText('Alt und gelesen')).toBeNull();
});

test('without X-Total-Count the caseload tiles count the rows, up to "mehr als 99" per level', async () => {
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
  // The caseload page itself (200 of more) says how many there are at least.
  expect(active.textContent).toContain('mehr als 200');
  expect((await screen.findByRole('link', { name: /Daten aktuell/ })).textContent).toMatch(/^\s*3/);
  // Attention (101 rows for 100 asked) and ending soon (11 for 10) offer all, without claiming a number.
  expect(await screen.findAllByRole('link', { name: 'Alle anzeigen' })).toHaveLength(2);
});

test('a caseload larger than one page is counted call by call, and still right', async () => {
  const page = Array.from({ length: CASELOAD_PAGE }, (_, i) => patient(`p${i}`, daysAgo(1)));
  listPatients.mockImplementation(async (filter?: ListFilter) => {
    if (filter?.limit === CASELOAD_PAGE + 1) return { data: page, total: 1000 };
    if (filter?.limit === 0) {
      const where = JSON.stringify(filter.where);
      return { data: [], total: where.includes('"or"') ? 40 : where.includes('"gte"') && !where.includes('"lt"') ? 900 : 30 };
    }
    return { data: [patient('Rot', daysAgo(12))], total: 100 };
  });
  render(<DashboardPage />);
  expect((await screen.findByRole('link', { name: /in laufender Nachsorge/ })).textContent).toContain('1.000');
  expect(screen.getByRole('link', { name: /Seit über 30 Tagen oder nie/ }).textContent).toContain('40');
  const attention = screen.getByRole('heading', { name: 'Brauchen Aufmerksamkeit' }).closest('section')!;
  expect(within(attention).getByRole('link', { name: 'Alle 100 anzeigen' }).getAttribute('href')).toBe('/patient?status=active&sort=lastDataAt');
});

test('"Brauchen Aufmerksamkeit" is a worklist, and a patient waits there from the follow-up day on, not before', async () => {
  serve([patient('Rot', daysAgo(12)), patient('Spaeter', daysAgo(10), { followUpAt: inDays(3) }), patient('Heute', daysAgo(9), { followUpAt: inDays(0) })]);
  render(<DashboardPage />);
  const section = (await screen.findByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).closest('section')!;
  const names = within(section)
    .getAllByRole('listitem')
    .map((r) => within(r).getAllByRole('link')[0].textContent);
  expect(names).toEqual(['Vor Rot', 'Vor Heute']);
  expect(within(section).getByRole('group', { name: 'Anruf bei Vor Rot erfassen' })).toBeTruthy();
  expect(within(within(section).getAllByRole('listitem')[0]).getByRole('button', { name: 'Erreicht' })).toBeTruthy();
});

test('the dashboard has the same patient search as "/"', async () => {
  serve([]);
  render(<DashboardPage />);
  expect(screen.getByLabelText('Name, Patientencode oder Telefon')).toBeTruthy();
  expect(screen.getByText('Tipp: Mit der Taste „/“ öffnen Sie die Suche auf jeder Seite.')).toBeTruthy();
});
