import { describe, test, expect, vi, beforeEach } from 'vitest';
import { screen, fireEvent, within, waitFor } from '@testing-library/preact';
import { apiFailure, buildCoach, buildDays, buildDetailRow, buildPatientStatistics, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';

vi.mock('../../api/statistics.ts', () => ({
  getPatientStatistics: vi.fn(),
  getPatientDetailStatistics: vi.fn(),
  getDailyPatientsInAftercare: vi.fn(),
  getPhoneCoachings: vi.fn(),
}));

vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));

const api = await import('../../api/statistics.ts');
const coachesApi = await import('../../api/coaches.ts');
const { user } = await import('../../state/session.ts');
const { default: StatsPage } = await import('./index.tsx');
const { periodError, periodFromSearch } = await import('../../lib/period.ts');

const URL_WITH_PERIOD = '/stats?from=2026-11-01&to=2026-11-03';

beforeEach(() => {
  vi.mocked(api.getPatientStatistics)
    .mockReset()
    .mockImplementation(() => ok(buildPatientStatistics()));
  vi.mocked(api.getPatientDetailStatistics)
    .mockReset()
    .mockImplementation(() =>
      ok([buildDetailRow(), buildDetailRow({ patientId: 'p-2', patientCode: 'NK-1002', lastName: 'Albers', firstName: 'Mia', lastDataAt: null })], 2),
    );
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
          { count: 1, minutes: 25 },
        ]),
      ),
    );
  vi.mocked(coachesApi.listCoaches)
    .mockReset()
    .mockImplementation(() => ok([buildCoach({ id: 'coach-2', firstName: 'Ben', lastName: 'Roth' })]));
  user.value = buildMe({ ...ANNA_BERG, isHealthManager: true });
});

describe('controlling permissions', () => {
  test('a coach without the role is told so and no statistics are requested', () => {
    user.value = buildMe(ANNA_BERG);
    renderAt('/stats', <StatsPage />);
    expect(screen.getByRole('alert').textContent).toContain('Health-Managern und Administratoren');
    expect(api.getPatientStatistics).not.toHaveBeenCalled();
    expect(api.getPatientDetailStatistics).not.toHaveBeenCalled();
  });

  test('administrators see the statistics too', async () => {
    user.value = buildMe({ ...ANNA_BERG, isAdmin: true });
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    expect(await screen.findByText('In Nachsorge, seit 7 Tagen ohne Daten')).toBeTruthy();
  });
});

describe('controlling', () => {
  test('a patient the health manager may not open is shown under its pseudonym, without a name', async () => {
    vi.mocked(api.getPatientDetailStatistics).mockImplementation(() =>
      ok(
        [
          buildDetailRow(),
          buildDetailRow({ rowId: 'pseudo-3f9a21c0aa55bb66', patientId: null, patientCode: null, firstName: null, lastName: null, phoneCoachings: 4 }),
        ],
        2,
      ),
    );
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    const region = await screen.findByRole('region', { name: 'Tabelle der Patientenstatistik (seitlich verschiebbar)' });
    await within(region).findByText('Keller, Jonas');
    const rows = within(region).getAllByRole('row');
    expect(rows[1].textContent).toContain('NK-4821');
    expect(rows[1].textContent).toContain('Keller, Jonas');
    expect(rows[2].textContent).toContain('Pseudonym 3F9A21C0');
    expect(rows[2].textContent).toContain('nur für das Behandlungsteam');
    expect(within(rows[2]).queryByRole('link')).toBeNull();
  });

  test('asks every statistic for the period in the address', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    await screen.findByText('42');
    const period = { from: '2026-11-01', to: '2026-11-03' };
    expect(vi.mocked(api.getPatientStatistics).mock.calls[0][0]).toEqual(period);
    expect(vi.mocked(api.getDailyPatientsInAftercare).mock.calls[0][0]).toEqual(period);
    expect(vi.mocked(api.getPhoneCoachings).mock.calls[0][0]).toEqual(period);
    expect(vi.mocked(api.getPatientDetailStatistics).mock.calls[0][0]).toEqual({ ...period, order: 'lastName ASC', limit: 26, skip: 0 });
  });

  test('draws both daily charts as SVG with a table alternative holding every day', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    expect(await screen.findByRole('img', { name: /Patientinnen und Patienten in Nachsorge/ })).toBeTruthy();
    expect(await screen.findByRole('img', { name: /^Telefoncoachings/ })).toBeTruthy();
    expect(screen.getByText('Im Zeitraum: 3 Telefoncoachings, 65 Minuten')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Als Tabelle anzeigen' })[0]);
    const table = screen.getByRole('table', { name: 'Patientinnen und Patienten in Nachsorge' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('31')).toBeTruthy();
  });

  test('sorts the patient table by a column and reverses on the second click', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    const header = await screen.findByRole('button', { name: /Telefoncoachings/, hidden: false });
    fireEvent.click(header);
    await waitFor(() => expect(vi.mocked(api.getPatientDetailStatistics).mock.lastCall?.[0]?.order).toBe('phoneCoachings DESC'));
    expect(window.location.search).toContain('sort=phoneCoachings+DESC');
    const th = screen.getByRole('columnheader', { name: /Telefoncoachings/ });
    expect(th.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /Telefoncoachings/ }));
    await waitFor(() => expect(vi.mocked(api.getPatientDetailStatistics).mock.lastCall?.[0]?.order).toBe('phoneCoachings ASC'));
    expect(screen.getByRole('columnheader', { name: /Telefoncoachings/ }).getAttribute('aria-sort')).toBe('ascending');
  });

  test('shows a patient without data as "noch nie", never as empty or undefined', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    const row = (await screen.findByText('Albers, Mia')).closest('tr')!;
    expect(row.textContent).toContain('noch nie');
    expect(document.body.textContent).not.toMatch(/undefined|NaN/);
  });

  test('says so when the period has no patients', async () => {
    vi.mocked(api.getPatientDetailStatistics).mockImplementation(() => ok([], 0));
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    expect(await screen.findByText('Im gewählten Zeitraum gibt es keine Patientinnen und Patienten.')).toBeTruthy();
  });

  test('a failed statistic offers a retry', async () => {
    vi.mocked(api.getPatientStatistics).mockImplementationOnce(() => Promise.reject(apiFailure(504)));
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('42')).toBeTruthy();
  });

  test('narrows every statistic to one primary coach and keeps the choice in the address', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    await screen.findByRole('option', { name: 'Roth, Ben' });
    fireEvent.input(screen.getByLabelText('Primärcoach'), { target: { value: 'coach-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anzeigen' }));
    await waitFor(() =>
      expect(vi.mocked(api.getPatientStatistics).mock.calls.map(([query]) => query)).toContainEqual({
        from: '2026-11-01',
        to: '2026-11-03',
        coachId: 'coach-2',
      }),
    );
    expect(vi.mocked(api.getPatientDetailStatistics).mock.lastCall?.[0]).toMatchObject({ coachId: 'coach-2' });
    expect(vi.mocked(api.getPhoneCoachings).mock.lastCall?.[0]).toMatchObject({ coachId: 'coach-2' });
    expect(new URLSearchParams(window.location.search).get('coach')).toBe('coach-2');
  });

  test('a reversed period is refused before anything is asked', async () => {
    renderAt(URL_WITH_PERIOD, <StatsPage />);
    fireEvent.input(screen.getByLabelText('Von'), { target: { value: '2026-12-01' } });
    expect(screen.getByRole('alert').textContent).toBe('Das Startdatum liegt nach dem Enddatum.');
    expect((screen.getByRole('button', { name: 'Anzeigen' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('period rules', () => {
  test('falls back to the last 90 days for a missing or broken address', () => {
    expect(periodFromSearch('', '2026-11-22')).toEqual({ from: '2026-08-25', to: '2026-11-22' });
    expect(periodFromSearch('from=gestern&to=2026-11-22', '2026-11-22').from).toBe('2026-08-25');
  });

  test('allows at most 731 days', () => {
    expect(periodError({ from: '2024-11-22', to: '2026-11-22' })).toBeNull();
    expect(periodError({ from: '2024-11-21', to: '2026-11-22' })).toBe('stats.periodTooLong');
  });
});
