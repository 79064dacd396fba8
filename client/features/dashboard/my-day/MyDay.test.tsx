import { beforeEach, expect, test } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/preact';
import { buildMe, json, mockFetch, type RecordedCall } from '../../../../test/helpers/client-fetch.ts';
import { buildAppNote, buildAppointment, buildDayEvaluations } from '../../../../test/helpers/my-day-records.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import type { ExternalComment } from '../../../../contract/schemas/external-comments.ts';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { isoDay } from '../../../components/AftercareBadge.tsx';
import { markOpened } from '../../../lib/last-opened.ts';
import { user } from '../../../state/session.ts';
import DashboardPage from '../index.tsx';
import { CHECKED, forgetWorseningChecks } from './worsening.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const dayAgo = (days: number) => isoDay(ago(days));
const active = (id: string, lastName: string, over: Partial<Patient> = {}) =>
  buildPatient({ id, lastName, firstName: 'Vor', aftercareStart: dayAgo(60), aftercareEnd: isoDay(new Date(Date.now() + 60 * DAY)), ...over });
/** Mood 2 on the last 3 days after a week of 4s. */
const falling = (id: string) =>
  buildDayEvaluations(id, [...[0, 1, 2].map((d): [string, number] => [dayAgo(d), 2]), ...[3, 4, 5, 6, 7].map((d): [string, number] => [dayAgo(d), 4])]);
const steady = (id: string) =>
  buildDayEvaluations(
    id,
    [0, 1, 2, 3, 4, 5, 6].map((d): [string, number] => [dayAgo(d), 4]),
  );

function upstream(patients: Patient[], notes: ExternalComment[] = [], evaluations: Record<string, ReturnType<typeof falling>> = {}) {
  return mockFetch({
    'GET /patients': (call) => (call.search.includes('inq') ? json([]) : json(patients, { headers: { 'X-Total-Count': String(patients.length) } })),
    'GET /comments': json([], { headers: { 'X-Total-Count': '0' } }),
    'GET /externalComments': json(notes, { headers: { 'X-Total-Count': String(notes.length) } }),
    ...Object.fromEntries(patients.map((p) => [`GET /patients/${p.id}/sync-db/day-evaluation`, json(evaluations[p.id] ?? [])])),
  });
}
const myDay = async () => (await screen.findByRole('heading', { name: /^Mein Tag/ })).closest('section')!;
const attention = async () => (await screen.findByRole('heading', { name: 'Brauchen Aufmerksamkeit' })).closest('section')!;
const dayEvaluationCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path.endsWith('/sync-db/day-evaluation'));

beforeEach(() => {
  forgetWorseningChecks();
  localStorage.setItem('accessToken', 'tok');
  user.value = buildMe();
});

test('shows today\'s appointments under "Mein Tag" with the time, the patient\'s date of birth and a link to the patient', async () => {
  const at = new Date();
  at.setHours(23, 15, 0, 0);
  upstream([
    active('p1', 'Weber', { birthDate: '1961-03-12', appointments: [buildAppointment(at.toISOString(), { type: 'video' })], lastDataAt: ago(0).toISOString() }),
  ]);
  render(<DashboardPage />);
  const today = within(await myDay()).getByRole('heading', { name: 'Termine heute' }).nextElementSibling as HTMLElement;
  const row = within(today).getByRole('listitem');
  expect(row.textContent).toContain('23:15');
  expect(row.textContent).toContain('12.03.1961 (');
  expect(row.textContent).toContain('Videosprechstunde');
  expect(within(row).getByRole('link', { name: 'Vor Weber' }).getAttribute('href')).toBe('/patient/p1?tab=appointments');
});

test('lists the follow-ups due today or before, not those ahead', async () => {
  upstream([active('p1', 'Faellig', { followUpAt: dayAgo(2) }), active('p2', 'Spaeter', { followUpAt: isoDay(new Date(Date.now() + 3 * DAY)) })]);
  render(<DashboardPage />);
  const list = within(await myDay()).getByRole('heading', { name: 'Wiedervorlagen fällig' }).nextElementSibling as HTMLElement;
  expect(
    within(list)
      .getAllByRole('link')
      .map((a) => a.textContent),
  ).toEqual(['Vor Faellig']);
});

test('flags a patient with current data for a new app note, until the coach opens the patient', async () => {
  const patients = [active('p1', 'Notiz', { lastDataAt: ago(0).toISOString() })];
  const notes = [buildAppNote('p1', ago(0.5).toISOString())];
  upstream(patients, notes);
  const first = render(<DashboardPage />);
  const row = (await within(await attention()).findByText('Neue Notiz in der App')).closest('li')!;
  expect(within(row).getByRole('link', { name: 'Vor Notiz' }).getAttribute('href')).toBe('/patient/p1?tab=comments');
  first.unmount();

  markOpened('coach-1', 'p1');
  upstream(patients, notes);
  render(<DashboardPage />);
  await attention();
  expect(screen.queryByText('Neue Notiz in der App')).toBeNull();
});

test('flags a falling day evaluation with both means, after reading the ratings of patients with recent data only', async () => {
  const patients = [
    active('p1', 'Sinkt', { lastDataAt: ago(0.2).toISOString() }),
    active('p2', 'Stabil', { lastDataAt: ago(1).toISOString() }),
    active('p3', 'Still', { lastDataAt: ago(9).toISOString() }),
  ];
  const { calls } = upstream(patients, [], { p1: falling('p1'), p2: steady('p2') });
  render(<DashboardPage />);
  const section = await attention();
  const reason = await within(section).findByText('Tagesbewertung sinkt: Stimmung 2,0 statt 4,0', {}, { timeout: 3000 });
  expect(within(reason.closest('li')!).getByRole('link', { name: 'Vor Sinkt' })).toBeTruthy();
  expect(within(section).getByText('Tagesbewertung von 2 der 2 Patienten mit neuen Daten geprüft.')).toBeTruthy();
  expect(
    dayEvaluationCalls(calls)
      .map((c) => c.path)
      .sort(),
  ).toEqual(['/v2/patients/p1/sync-db/day-evaluation', '/v2/patients/p2/sync-db/day-evaluation']);
  const filter = JSON.parse(new URLSearchParams(dayEvaluationCalls(calls)[0].search).get('filter')!);
  expect(filter.where.date.gte).toBe(dayAgo(9));
});

test('keeps the first load at 4 calls and reads the day evaluations afterwards, for at most 12 patients', async () => {
  const patients = Array.from({ length: 20 }, (_, i) => active(`p${i}`, `Name${i}`, { lastDataAt: ago(i / 100).toISOString() }));
  const { calls } = upstream(patients, [buildAppNote('p1', ago(0.1).toISOString())]);
  render(<DashboardPage />);
  await within(await attention()).findByText('Neue Notiz in der App');
  expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /v2/comments', 'GET /v2/externalComments', 'GET /v2/patients', 'GET /v2/patients']);
  expect(await within(await attention()).findByText('Tagesbewertung von 12 der 20 Patienten mit neuen Daten geprüft.', {}, { timeout: 3000 })).toBeTruthy();
  expect(dayEvaluationCalls(calls)).toHaveLength(CHECKED);
  // The newest data first.
  expect(
    dayEvaluationCalls(calls)
      .map((c) => c.path.split('/')[3])
      .sort(),
  ).toEqual(
    patients
      .slice(0, 12)
      .map((p) => p.id)
      .sort(),
  );
  await waitFor(() => expect(calls).toHaveLength(4 + CHECKED));
});

test('explains the flags on the screen when the coach asks "Wann steht jemand hier?", with a way into the guide', async () => {
  upstream([active('p1', 'Eins')]);
  render(<DashboardPage />);
  const section = await attention();
  const details = within(section).getByText('Wann steht jemand hier?').closest('details')!;
  details.open = true;
  details.dispatchEvent(new Event('toggle'));
  expect(await within(details).findByText(/mindestens 1 Punkt unter der der 7 Tage davor/)).toBeTruthy();
  expect(within(details).getByRole('link', { name: 'Den Tag auf dem Dashboard planen' }).getAttribute('href')).toBe('/information/guide/my-day');
});

test('coming back to the dashboard reads the day evaluations again only for patients whose app has sent data since', async () => {
  const synced = ago(0.2).toISOString();
  const patients = [active('p1', 'Sinkt', { lastDataAt: synced }), active('p2', 'Stabil', { lastDataAt: synced })];
  const first = upstream(patients, [], { p1: falling('p1'), p2: steady('p2') });
  const view = render(<DashboardPage />);
  await within(await attention()).findByText('Tagesbewertung sinkt: Stimmung 2,0 statt 4,0', {}, { timeout: 3000 });
  expect(dayEvaluationCalls(first.calls)).toHaveLength(2);
  view.unmount();

  const again = upstream([patients[0], { ...patients[1], lastDataAt: new Date().toISOString() }], [], { p1: falling('p1'), p2: steady('p2') });
  render(<DashboardPage />);
  // Still flagged from what was read before, and only the patient with new data is read again.
  expect(await within(await attention()).findByText('Tagesbewertung sinkt: Stimmung 2,0 statt 4,0', {}, { timeout: 3000 })).toBeTruthy();
  await within(await attention()).findByText(/Tagesbewertung von 2 der 2/, {}, { timeout: 3000 });
  expect(dayEvaluationCalls(again.calls).map((c) => c.path)).toEqual(['/v2/patients/p2/sync-db/day-evaluation']);
});
