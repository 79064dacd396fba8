import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import type { StatisticsQuery } from '../../../contract/schemas/statistics.ts';
import { apiFailure, buildCoach, buildDays, buildPatientStatistics, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';

vi.mock('../../api/statistics.ts', () => ({
  getPatientStatistics: vi.fn(),
  getPatientDetailStatistics: vi.fn(),
  getDailyPatientsInAftercare: vi.fn(),
  getPhoneCoachings: vi.fn(),
}));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
vi.mock('../../lib/csv.ts', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../lib/csv.ts')>()), downloadCsv: vi.fn() }));

const api = await import('../../api/statistics.ts');
const coachesApi = await import('../../api/coaches.ts');
const csv = await import('../../lib/csv.ts');
const { user } = await import('../../state/session.ts');
const { default: StatsPage } = await import('./index.tsx');

/** The patient figures answered per period start: October has 36 patients in aftercare, September 30, November 45. */
const ACTIVE_BY_START: Record<string, number> = { '2026-11-01': 45, '2026-10-01': 36, '2026-09-01': 30 };
const asked = () => vi.mocked(api.getPatientStatistics).mock.calls.map(([query]) => query);
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u202f|\u00a0/g, ' ');
const tile = (label: string) => plain(screen.getByText(label).closest('.stats-card')?.textContent);
/** The line under the figures' heading: the period and the one it is compared with. */
const periodLine = () => plain(document.querySelector('.summary-tiles-period')?.textContent);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 10, 0));
  vi.mocked(api.getPatientStatistics)
    .mockReset()
    .mockImplementation((query?: StatisticsQuery) => ok(buildPatientStatistics({ active: ACTIVE_BY_START[query?.from ?? ''] ?? 20, startedInPeriod: 4 })));
  vi.mocked(api.getPatientDetailStatistics)
    .mockReset()
    .mockImplementation(() => ok([], 0));
  vi.mocked(api.getDailyPatientsInAftercare)
    .mockReset()
    .mockImplementation(() => ok(buildDays('2026-11-01', [{ count: 28 }, { count: 29 }, { count: 31 }])));
  vi.mocked(api.getPhoneCoachings)
    .mockReset()
    .mockImplementation(() =>
      ok(
        buildDays('2026-11-01', [
          { count: 2, minutes: 40 },
          { count: 0, minutes: 0 },
          { count: 1, minutes: 25.5 },
        ]),
      ),
    );
  vi.mocked(coachesApi.listCoaches)
    .mockReset()
    .mockImplementation(() => ok([]));
  vi.mocked(csv.downloadCsv).mockReset();
  user.value = buildMe({ ...ANNA_BERG, isHealthManager: true });
});

afterEach(() => vi.useRealTimers());

describe('calendar ranges in Controlling', () => {
  test('one click on "Letzter Monat" shows October, compared with September', async () => {
    renderAt('/stats', <StatsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Letzter Monat' }));
    await waitFor(() => expect(tile('In Nachsorge')).toContain('+20 % gegenüber Vormonat (vorher 30)'));
    expect(asked()).toContainEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(asked()).toContainEqual({ from: '2026-09-01', to: '2026-09-30' });
    expect(vi.mocked(api.getPhoneCoachings).mock.lastCall?.[0]).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(screen.getByRole('button', { name: 'Letzter Monat' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Dieser Monat' }).getAttribute('aria-pressed')).toBe('false');
    expect(new URLSearchParams(window.location.search).get('range')).toBe('lastMonth');
    expect(periodLine()).toBe('01.–31.10.2026 · gegenüber Vormonat (01.–30.09.2026)');
  });

  test('every tile says which days it counts: today, the last day of the period, or the whole period', async () => {
    renderAt('/stats?range=lastMonth', <StatsPage />);
    await screen.findByText(/vorher 30/);
    expect(tile('Gesamt')).toBe('Gesamt42Stand heute');
    expect(tile('In Nachsorge')).toContain('Stand 31.10.2026');
    expect(tile('Geplant')).toContain('Stand 31.10.2026');
    expect(tile('Nachsorge begonnen im Zeitraum')).toContain('01.–31.10.2026');
    expect(tile('Nachsorge begonnen im Zeitraum')).toContain('±0 % gegenüber Vormonat (vorher 4)');
  });

  test('this month counts up to today and its status figures are "Stand heute"', async () => {
    renderAt('/stats?range=thisMonth', <StatsPage />);
    await screen.findByText(/vorher 36/);
    expect(asked()).toEqual(
      expect.arrayContaining([
        { from: '2026-11-01', to: '2026-11-26' },
        { from: '2026-10-01', to: '2026-10-26' },
      ]),
    );
    expect(tile('In Nachsorge')).toContain('Stand heute');
    expect(tile('In Nachsorge')).toContain('+25 % gegenüber Vormonat (vorher 36)');
  });

  test('year to date is compared with the same days a year before', async () => {
    renderAt('/stats', <StatsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Seit Jahresbeginn' }));
    await waitFor(() => expect(asked()).toContainEqual({ from: '2025-01-01', to: '2025-11-26' }));
    expect(await screen.findAllByText(/gegenüber Vorjahr \(vorher/)).toHaveLength(6);
  });

  test('a free range is compared with as many days directly before it', async () => {
    renderAt('/stats?from=2026-11-02&to=2026-11-04', <StatsPage />);
    await screen.findAllByText(/gegenüber dem Zeitraum davor \(vorher/);
    expect(asked()).toContainEqual({ from: '2026-10-30', to: '2026-11-01' });
    expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0);
  });

  test('changed dates make a free range again, a new coach keeps the chosen one', async () => {
    vi.mocked(coachesApi.listCoaches).mockImplementation(() => ok([buildCoach({ id: 'coach-2', firstName: 'Ben', lastName: 'Roth' })]));
    renderAt('/stats?range=lastQuarter', <StatsPage />);
    await screen.findByRole('option', { name: 'Roth, Ben' });
    fireEvent.input(screen.getByLabelText('Primärcoach'), { target: { value: 'coach-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anzeigen' }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('coach')).toBe('coach-2'));
    expect(new URLSearchParams(window.location.search).get('range')).toBe('lastQuarter');
    expect(asked()).toContainEqual({ from: '2026-04-01', to: '2026-06-30', coachId: 'coach-2' });
    fireEvent.input(screen.getByLabelText('Von'), { target: { value: '2026-07-15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anzeigen' }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('from')).toBe('2026-07-15'));
    expect(new URLSearchParams(window.location.search).get('range')).toBeNull();
  });

  test('a comparison that failed to load is offered again, not left out', async () => {
    vi.mocked(api.getPatientStatistics).mockImplementation((query?: StatisticsQuery) =>
      query?.from === '2026-09-01' ? Promise.reject(apiFailure(504)) : ok(buildPatientStatistics({ active: 36 })),
    );
    renderAt('/stats?range=lastMonth', <StatsPage />);
    const retry = await screen.findByRole('button', { name: 'Erneut versuchen' });
    vi.mocked(api.getPatientStatistics).mockImplementation(() => ok(buildPatientStatistics({ active: 30 })));
    fireEvent.click(retry);
    expect(await screen.findByText(/vorher 30/)).toBeTruthy();
  });
});

describe('CSV of each chart', () => {
  const download = async (heading: string) => {
    renderAt('/stats?from=2026-11-01&to=2026-11-03', <StatsPage />);
    const section = (await screen.findByRole('heading', { name: heading })).closest('section')!;
    fireEvent.click(await within(section).findByRole('button', { name: 'CSV herunterladen' }));
    const [fileName, text] = vi.mocked(csv.downloadCsv).mock.lastCall!;
    return { fileName, lines: text.split('\r\n') };
  };

  test('the daily patients chart saves its days for German Excel', async () => {
    const { fileName, lines } = await download('Patientinnen und Patienten in Nachsorge pro Tag');
    expect(fileName).toBe('patientinnen-und-patienten-in-nachsorge_2026-11-01_2026-11-03.csv');
    expect(lines).toEqual(['\uFEFFDatum;Patienten in Nachsorge', '01.11.2026;28', '02.11.2026;29', '03.11.2026;31', '']);
  });

  test('the phone coaching chart saves calls and minutes per day, decimals with a comma', async () => {
    const { fileName, lines } = await download('Telefoncoachings pro Tag');
    expect(fileName).toBe('telefoncoachings_2026-11-01_2026-11-03.csv');
    expect(lines).toEqual(['\uFEFFDatum;Telefoncoachings;Minuten Telefoncoaching', '01.11.2026;2;40', '02.11.2026;0;0', '03.11.2026;1;25,5', '']);
  });
});
