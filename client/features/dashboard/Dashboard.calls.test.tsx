import { beforeEach, expect, test } from 'vitest';
import { render, screen, within } from '@testing-library/preact';
import { buildMe, json, mockFetch } from '../../../test/helpers/client-fetch.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import { user } from '../../state/session.ts';
import DashboardPage from './index.tsx';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const patient = (id: string, lastName: string, lastDataAt: string | null) => ({
  id,
  patientCode: `NK-${id}`,
  firstName: 'Vor',
  lastName,
  birthDate: '1970-01-01',
  gender: 'unknown',
  email: null,
  phone: null,
  clinic: '',
  aftercareStart: '2026-01-01',
  aftercareEnd: '2099-01-01',
  primaryCoachId: 'coach-1',
  diagnosisIds: [],
  costRateId: null,
  appointments: [],
  lastDataAt,
  createdAt: daysAgo(100),
  updatedAt: daysAgo(1),
});
const comment = (id: string, patientId: string) => ({
  id,
  patientId,
  authorId: 'coach-1',
  authorName: 'Clara Coach',
  text: `Notiz ${id}`,
  createdAt: daysAgo(1),
  updatedAt: daysAgo(1),
});
const external = (id: string, patientId: string) => ({ id, patientId, source: 'clinic', author: 'Reha-Klinik', text: `Brief ${id}`, createdAt: daysAgo(2) });

const ACTIVE = [patient('p1', 'Rot', daysAgo(12)), patient('p2', 'Gelb', daysAgo(4)), patient('p3', 'Gruen', daysAgo(0))];
const FORMER = patient('p9', 'Ehemalig', daysAgo(60));

/** The upstream, over fetch: the caseload, name lookups by id, and the two comment lists. */
function upstream() {
  return mockFetch({
    'GET /patients': (call) => {
      const filter = JSON.parse(new URLSearchParams(call.search).get('filter') ?? '{}') as { where?: { id?: { inq: string[] } } };
      const ids = filter.where?.id?.inq;
      const rows = ids ? [...ACTIVE, FORMER].filter((p) => ids.includes(p.id)) : ACTIVE;
      return json(rows, { headers: { 'X-Total-Count': String(rows.length) } });
    },
    'GET /comments': json([comment('c1', 'p1'), comment('c2', 'p9')], { headers: { 'X-Total-Count': '2' } }),
    'GET /externalComments': json([external('e1', 'p2'), external('e2', 'p9')], { headers: { 'X-Total-Count': '2' } }),
  });
}

beforeEach(() => {
  localStorage.setItem('accessToken', 'tok');
  user.value = buildMe() as Me;
});

test('gets every figure and list of the dashboard in at most 4 /v2 calls', async () => {
  const { calls } = upstream();
  render(<DashboardPage />);
  const external = (await screen.findByRole('heading', { name: 'Neueste externe Kommentare' })).closest('section')!;
  expect(await within(external).findByRole('link', { name: 'Vor Ehemalig' })).toBeTruthy();
  expect((await screen.findByRole('link', { name: /in laufender Nachsorge/ })).textContent).toContain('3');
  expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /v2/comments', 'GET /v2/externalComments', 'GET /v2/patients', 'GET /v2/patients']);
  // One name lookup serves both feeds: every patient they mention, once.
  const lookup = calls.find((c) => c.search.includes('inq'))!;
  expect(JSON.parse(new URLSearchParams(lookup.search).get('filter')!).where.id.inq.sort()).toEqual(['p1', 'p2', 'p9']);
});

test('needs no name lookup when there are no comments: 3 calls', async () => {
  const { calls } = mockFetch({
    'GET /patients': json(ACTIVE, { headers: { 'X-Total-Count': '3' } }),
    'GET /comments': json([], { headers: { 'X-Total-Count': '0' } }),
    'GET /externalComments': json([], { headers: { 'X-Total-Count': '0' } }),
  });
  render(<DashboardPage />);
  expect(await screen.findByText('Noch keine Kommentare zu Ihren Patienten.')).toBeTruthy();
  expect(calls).toHaveLength(3);
});
