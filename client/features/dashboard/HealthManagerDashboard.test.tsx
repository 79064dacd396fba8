import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { render, screen, within } from '@testing-library/preact';
import { buildMe, json, mockFetch, type RecordedCall } from '../../../test/helpers/client-fetch.ts';
import { buildPatientStatistics } from '../../../test/helpers/screen-records.ts';
import { newsLoading } from '../../state/news.ts';
import { user } from '../../state/session.ts';
import DashboardPage from './index.tsx';

/** The statistics period a call asked for (query values are JSON-encoded). */
const periodOf = (call: RecordedCall) => {
  const query = new URLSearchParams(call.search);
  return { from: JSON.parse(query.get('from')!), to: JSON.parse(query.get('to')!) };
};
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u202f|\u00a0/g, ' ');
/** The line under the figures' heading: the period and the one it is compared with. */
const periodLine = () => plain(document.querySelector('.summary-tiles-period')?.textContent);

/** An upstream with every call either dashboard makes: November so far has 45 patients in aftercare, October's same days 36. */
function upstream() {
  return mockFetch({
    'GET /statistics/patient-statistics': (call) =>
      json(buildPatientStatistics({ ...periodOf(call), active: periodOf(call).from === '2026-11-01' ? 45 : 36, startedInPeriod: 6 })),
    'GET /patients': json([], { headers: { 'X-Total-Count': '0' } }),
    'GET /comments': json([], { headers: { 'X-Total-Count': '0' } }),
    'GET /externalComments': json([], { headers: { 'X-Total-Count': '0' } }),
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 9, 30));
  localStorage.setItem('accessToken', 'tok');
  newsLoading.value = false;
});
afterEach(() => vi.useRealTimers());

describe("the health manager's dashboard", () => {
  beforeEach(() => {
    user.value = buildMe({ firstName: 'Holger', isHealthManager: true });
  });

  test("shows this month's Controlling figures against the same days of the month before", async () => {
    upstream();
    render(<DashboardPage />);
    const section = (await screen.findByRole('heading', { name: 'Controlling – November 2026' })).closest('section')!;
    const active = plain((await within(section).findByText('In Nachsorge')).closest('.stats-card')?.textContent);
    expect(active).toBe('In Nachsorge45Stand heute+25 % gegenüber Vormonat (vorher 36)');
    expect(plain(within(section).getByText('Nachsorge begonnen im Zeitraum').closest('.stats-card')?.textContent)).toContain('01.–26.11.2026');
    expect(periodLine()).toBe('01.–26.11.2026 · gegenüber Vormonat (01.–26.10.2026)');
  });

  test('leads into Controlling for this month and into Export', async () => {
    upstream();
    render(<DashboardPage />);
    expect((await screen.findByRole('link', { name: 'Zum Controlling' })).getAttribute('href')).toBe('/stats?range=thisMonth');
    expect(screen.getByRole('link', { name: 'Zum Export' }).getAttribute('href')).toBe('/export');
  });

  test('asks only the two statistics, none of the caseload a coach dashboard counts', async () => {
    const { calls } = upstream();
    render(<DashboardPage />);
    await screen.findByText(/vorher 36/);
    expect(calls.map((c) => c.path)).toEqual(['/v2/statistics/patient-statistics', '/v2/statistics/patient-statistics']);
    expect(calls.map(periodOf)).toEqual([
      { from: '2026-11-01', to: '2026-11-26' },
      { from: '2026-10-01', to: '2026-10-26' },
    ]);
    expect(screen.queryByRole('heading', { name: 'Ihre Patienten in Nachsorge' })).toBeNull();
  });
});

describe('everyone else keeps the coach dashboard and its calls', () => {
  test.each([
    ['a coach', buildMe()],
    ['an administrator who is also a health manager', buildMe({ isAdmin: true, isHealthManager: true })],
  ])('%s sees the caseload, asked in the same calls as ever and no statistics', async (_, me) => {
    user.value = me;
    const { calls } = upstream();
    render(<DashboardPage />);
    expect(await screen.findByRole('heading', { name: 'Ihre Patienten in Nachsorge' })).toBeTruthy();
    await screen.findByText('Noch keine Kommentare zu Ihren Patienten.');
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /v2/comments', 'GET /v2/externalComments', 'GET /v2/patients']);
    expect(screen.queryByRole('link', { name: 'Zum Controlling' })).toBeNull();
  });
});
