import { describe, test, expect, vi, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/preact';
import {
  apiFailure,
  buildCoach,
  buildComment,
  buildDays,
  buildDetailRow,
  buildPatient,
  ok,
  keyedList,
  pagedList,
  ANNA_BERG,
} from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';

vi.mock('../../api/patients.ts', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../api/patients.ts')>()), listPatients: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
vi.mock('../../api/comments.ts', () => ({ listComments: vi.fn() }));
vi.mock('../../api/statistics.ts', () => ({ getPatientDetailStatistics: vi.fn(), getDailyPatientsInAftercare: vi.fn(), getPhoneCoachings: vi.fn() }));
vi.mock('../../lib/csv.ts', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../lib/csv.ts')>()), downloadCsv: vi.fn() }));

const patientsApi = await import('../../api/patients.ts');
const coachesApi = await import('../../api/coaches.ts');
const commentsApi = await import('../../api/comments.ts');
const statsApi = await import('../../api/statistics.ts');
const csv = await import('../../lib/csv.ts');
const { user } = await import('../../state/session.ts');
const { default: ExportPage } = await import('./index.tsx');

const manyPatients = Array.from({ length: 450 }, (_, i) =>
  buildPatient({ id: `p-${i}`, patientCode: `NK-${1000 + i}`, lastName: `Nachname${String(i).padStart(3, '0')}` }),
);

function downloaded(): { fileName: string; text: string } {
  const call = vi.mocked(csv.downloadCsv).mock.lastCall;
  if (!call) throw new Error('nothing was downloaded');
  return { fileName: call[0], text: call[1] };
}
const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
const choose = (name: RegExp) => fireEvent.click(screen.getByRole('radio', { name }));
const start = () => fireEvent.click(screen.getByRole('button', { name: 'CSV-Datei erstellen' }));

beforeEach(() => {
  vi.mocked(csv.downloadCsv).mockReset();
  vi.mocked(patientsApi.listPatients).mockReset().mockImplementation(keyedList(manyPatients));
  vi.mocked(coachesApi.listCoaches)
    .mockReset()
    .mockImplementation(pagedList([buildCoach(), buildCoach({ id: 'coach-2', firstName: 'Ben', lastName: 'Roth' })]));
  vi.mocked(commentsApi.listComments).mockReset();
  vi.mocked(statsApi.getPatientDetailStatistics).mockReset();
  vi.mocked(statsApi.getDailyPatientsInAftercare).mockReset();
  vi.mocked(statsApi.getPhoneCoachings).mockReset();
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
  user.value = buildMe({ ...ANNA_BERG, isHealthManager: true });
});

describe('export permissions', () => {
  test('a coach without the controlling role is offered patients and comments only', () => {
    user.value = buildMe(ANNA_BERG);
    render(<ExportPage />);
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['patients', 'comments']);
  });

  test('health managers can export every kind', () => {
    render(<ExportPage />);
    expect(screen.getAllByRole('radio')).toHaveLength(4);
  });
});

describe('patients export', () => {
  test('pages through every row of the filter by id, each page from the last id read, and writes them by name', async () => {
    render(<ExportPage />);
    start();
    expect(await screen.findByText('Fertig: 450 Zeilen exportiert.')).toBeTruthy();
    const calls = vi.mocked(patientsApi.listPatients).mock.calls.map((c) => c[0]);
    const byId = manyPatients.map((p) => p.id).sort();
    expect(calls.map((c) => [c?.where, c?.skip, c?.order])).toEqual([
      [undefined, 0, ['id ASC']],
      [{ id: { gte: byId[199] } }, 1, ['id ASC']],
      [{ id: { gte: byId[399] } }, 1, ['id ASC']],
    ]);
    expect(calls.every((c) => c?.limit === 200)).toBe(true);
    const { text, fileName } = downloaded();
    expect(
      lines(text)
        .slice(1)
        .map((line) => line.split(';')[1]),
    ).toEqual(manyPatients.map((p) => p.lastName));
    expect(fileName).toMatch(/^patienten_\d{4}-\d{2}-\d{2}\.csv$/);
  });

  test('orders the file as German names are ordered: umlauts with their base letter, then first names', async () => {
    const names = [
      ['Schulze', 'Anna'],
      ['Schäfer', 'Ben'],
      ['Schafer', 'Carl'],
      ['Schäfer', 'Anton'],
      ['Özdemir', 'Ali'],
      ['Otto', 'Eva'],
    ];
    vi.mocked(patientsApi.listPatients).mockImplementation(
      keyedList(names.map(([lastName, firstName], i) => buildPatient({ id: `p-${i}`, patientCode: `NK-${i}`, lastName, firstName }))),
    );
    render(<ExportPage />);
    start();
    await screen.findByText('Fertig: 6 Zeilen exportiert.');
    expect(
      lines(downloaded().text)
        .slice(1)
        .map((line) => line.split(';').slice(1, 3).join(' ')),
    ).toEqual(['Otto Eva', 'Özdemir Ali', 'Schafer Carl', 'Schäfer Anton', 'Schäfer Ben', 'Schulze Anna']);
  });

  test('writes a file German Excel opens: BOM, semicolons, CRLF, German dates, neutralised formulas', async () => {
    vi.mocked(patientsApi.listPatients).mockImplementation(
      keyedList([buildPatient({ lastName: '=HYPERLINK("http://x")', firstName: 'Jürgen; Paul', lastDataAt: '2026-11-20T08:05:00.000Z' })]),
    );
    render(<ExportPage />);
    start();
    await screen.findByText('Fertig: 1 Zeilen exportiert.');
    const { text } = downloaded();
    expect(text.startsWith('\uFEFFPatientencode;Nachname;Vorname;Geburtsdatum;')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [, row] = lines(text);
    expect(row).toContain(`;"'=HYPERLINK(""http://x"")";"Jürgen; Paul";09.04.1968;männlich;`);
    expect(row).toContain(';01.09.2026;28.02.2027;in Nachsorge;Anna Berg;20.11.2026 ');
  });

  test('sends the chosen status and coach as the list filter', async () => {
    render(<ExportPage />);
    fireEvent.input(screen.getByLabelText('Status'), { target: { value: 'completed' } });
    await screen.findByRole('option', { name: 'Roth, Ben' });
    fireEvent.input(screen.getByLabelText('Primärcoach'), { target: { value: 'coach-2' } });
    start();
    await screen.findByText(/Fertig/);
    const where = vi.mocked(patientsApi.listPatients).mock.calls[0][0]?.where as { and: unknown[] };
    expect(where.and).toHaveLength(2);
    expect(where.and[1]).toEqual({ primaryCoachId: 'coach-2' });
    expect(where.and[0]).toHaveProperty('aftercareEnd.lt');
  });

  test('shows the progress and stops fetching when cancelled, without a file', async () => {
    let release: (() => void) | null = null;
    vi.mocked(patientsApi.listPatients).mockImplementation((filter, signal) => {
      if ((filter?.skip ?? 0) === 0) return keyedList(manyPatients)(filter);
      return new Promise((_, reject) => {
        release = () => reject(new DOMException('aborted', 'AbortError'));
        signal?.addEventListener('abort', () => release?.());
      });
    });
    render(<ExportPage />);
    start();
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('value')).toBe('200'));
    expect(bar.getAttribute('max')).toBe('450');
    expect(screen.getByText(/200 von 450/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(await screen.findByText('Der Export wurde abgebrochen. Es wurde keine Datei erstellt.')).toBeTruthy();
    expect(csv.downloadCsv).not.toHaveBeenCalled();
    expect(patientsApi.listPatients).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('progressbar')).toBeNull();
    await waitFor(() => expect(document.activeElement?.className).toBe('export-status'));
  });

  test('a failed page says so and offers a retry that starts again', async () => {
    vi.mocked(patientsApi.listPatients).mockImplementationOnce(() => Promise.reject(apiFailure(502)));
    render(<ExportPage />);
    start();
    expect((await screen.findByRole('alert')).textContent).toContain('Der Export ist fehlgeschlagen.');
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Fertig: 450 Zeilen exportiert.')).toBeTruthy();
  });

  test('an empty result still gives a file with the headings', async () => {
    vi.mocked(patientsApi.listPatients).mockImplementation(keyedList([]));
    render(<ExportPage />);
    start();
    expect(await screen.findByText(/keine Zeilen/)).toBeTruthy();
    expect(lines(downloaded().text)).toHaveLength(1);
  });
});

describe('other exports', () => {
  test('patient detail statistics: every page for the period, numbers as numbers', async () => {
    const rows = Array.from({ length: 230 }, (_, i) => buildDetailRow({ patientId: `p-${i}`, phoneCoachingMinutes: i }));
    vi.mocked(statsApi.getPatientDetailStatistics).mockImplementation((query) => pagedList(rows)(query));
    render(<ExportPage />);
    choose(/Statistik je Patientin und Patient/);
    fireEvent.input(screen.getByLabelText('Von'), { target: { value: '2026-10-01' } });
    fireEvent.input(screen.getByLabelText('Bis'), { target: { value: '2026-10-31' } });
    start();
    await screen.findByText('Fertig: 230 Zeilen exportiert.');
    const calls = vi.mocked(statsApi.getPatientDetailStatistics).mock.calls.map((c) => c[0]);
    expect(calls.map((q) => q?.skip)).toEqual([0, 200]);
    expect(calls[0]).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    const { text, fileName } = downloaded();
    expect(fileName).toBe('patientenstatistik_2026-10-01_2026-10-31.csv');
    expect(lines(text)[1]).toBe(
      `NK-4821;Keller;Jonas;Anna Berg;in Nachsorge;01.09.2026;28.02.2027;83;6;0;70;${csv.germanDateTime('2026-11-21T18:30:00.000Z')}`,
    );
  });

  test('statistics can be narrowed to one primary coach', async () => {
    vi.mocked(statsApi.getPatientDetailStatistics).mockImplementation((query) => pagedList([buildDetailRow()])(query));
    render(<ExportPage />);
    choose(/Statistik je Patientin und Patient/);
    await screen.findByRole('option', { name: 'Roth, Ben' });
    fireEvent.input(screen.getByLabelText('Primärcoach'), { target: { value: 'coach-2' } });
    start();
    await screen.findByText('Fertig: 1 Zeilen exportiert.');
    expect(vi.mocked(statsApi.getPatientDetailStatistics).mock.calls[0][0]).toMatchObject({ coachId: 'coach-2' });
  });

  test('comments carry the patient code and keep line breaks inside one quoted cell', async () => {
    vi.mocked(commentsApi.listComments).mockImplementation(pagedList([buildComment({ patientId: 'p-7', text: 'Erste Zeile\nzweite "Zeile"' })]) as never);
    render(<ExportPage />);
    choose(/Kommentare/);
    start();
    await screen.findByText('Fertig: 1 Zeilen exportiert.');
    const { text } = downloaded();
    expect(text).toContain(';NK-1007;Anna Berg;"Erste Zeile\nzweite ""Zeile""";');
    expect(vi.mocked(commentsApi.listComments).mock.calls[0][0]?.where).toHaveProperty('and');
  });

  test('comments are read page after page from the time of the last note read, each note once', async () => {
    // 450 notes, three to a second: pages of 200 end inside a second.
    const notes = Array.from({ length: 450 }, (_, i) =>
      buildComment({ id: `c-${String(i).padStart(3, '0')}`, createdAt: new Date(Date.UTC(2026, 10, 2, 9, 0, Math.floor(i / 3))).toISOString() }),
    );
    vi.mocked(commentsApi.listComments).mockImplementation(((filter: { where: { and: { createdAt: { gte?: string } }[] }; skip: number; limit: number }) => {
      const from = notes.filter((n) => n.createdAt >= (filter.where.and[0].createdAt.gte as string));
      return ok(from.slice(filter.skip, filter.skip + filter.limit), from.length);
    }) as never);
    render(<ExportPage />);
    choose(/Kommentare/);
    start();
    await screen.findByText('Fertig: 450 Zeilen exportiert.');
    const calls = vi.mocked(commentsApi.listComments).mock.calls.map((c) => c[0] as { where: { and: { createdAt: { gte?: string } }[] }; skip: number });
    expect(calls.map((c) => [c.where.and[0].createdAt.gte, c.skip])).toEqual([
      [expect.any(String), 0],
      [notes[199].createdAt, 2],
      [notes[399].createdAt, 1],
    ]);
    expect(downloaded().text.trim().split('\n')).toHaveLength(451);
  });

  test('daily figures join patients in aftercare and phone coachings per day', async () => {
    vi.mocked(statsApi.getDailyPatientsInAftercare).mockImplementation(() => ok(buildDays('2026-11-01', [{ count: 28 }, { count: 29 }])));
    vi.mocked(statsApi.getPhoneCoachings).mockImplementation(() =>
      ok(
        buildDays('2026-11-01', [
          { count: 2, minutes: 40 },
          { count: 0, minutes: 0 },
        ]),
      ),
    );
    render(<ExportPage />);
    choose(/Tageswerte/);
    start();
    await screen.findByText('Fertig: 2 Zeilen exportiert.');
    expect(lines(downloaded().text)).toEqual([
      'Datum;Patienten in Nachsorge;Telefoncoachings;Minuten Telefoncoaching',
      '01.11.2026;28;2;40',
      '02.11.2026;29;0;0',
    ]);
  });

  test('a reversed period cannot be exported', () => {
    render(<ExportPage />);
    choose(/Tageswerte/);
    fireEvent.input(screen.getByLabelText('Von'), { target: { value: '2026-12-01' } });
    fireEvent.input(screen.getByLabelText('Bis'), { target: { value: '2026-11-01' } });
    expect(screen.getByRole('alert').textContent).toBe('Das Startdatum liegt nach dem Enddatum.');
    expect((screen.getByRole('button', { name: 'CSV-Datei erstellen' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
