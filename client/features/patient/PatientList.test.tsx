import { beforeEach, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ApiError } from '../../data/http.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { user } from '../../state/session.ts';
import { systemSettings } from '../../state/settings.ts';
import { inArea } from '../../../test/helpers/screen-render.tsx';
import PatientArea from './index.tsx';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { buildPatient } from '../../../test/helpers/screen-records.ts';

vi.mock('../../api/patients.ts', async (original) => ({ ...(await original<typeof import('../../api/patients.ts')>()), listPatients: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
const { listPatients } = vi.mocked(await import('../../api/patients.ts'));
const { listCoaches } = vi.mocked(await import('../../api/coaches.ts'));

const me = (over: Partial<Me> = {}): Me => buildMe({ id: 'me', ...over });
const patient = (i: number): Patient =>
  buildPatient({
    id: `p${i}`,
    patientCode: `NK-${1000 + i}`,
    firstName: `Vorname${i}`,
    lastName: `Nachname${i}`,
    birthDate: '1970-01-01',
    gender: 'female',
    clinic: '',
    aftercareStart: '2026-01-01',
    aftercareEnd: '2027-01-01',
    primaryCoachId: 'me',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
const page = (n: number, from = 0) => Array.from({ length: n }, (_, i) => patient(from + i));

beforeEach(() => {
  vi.resetAllMocks();
  user.value = me();
  systemSettings.value = null;
  listCoaches.mockResolvedValue({ data: [], total: 0 });
  history.replaceState(null, '', '/patient');
});

test('filters from the URL are sent to the server as the list filter, and the total comes from X-Total-Count', async () => {
  history.replaceState(null, '', '/patient?q=meier&status=active&last=red&page=2');
  listPatients.mockResolvedValue({ data: page(25, 25), total: 63 });
  render(inArea(<PatientArea />));
  expect(await screen.findByText('63 Patienten')).toBeTruthy();
  const filter = listPatients.mock.calls[0][0]!;
  expect(filter.skip).toBe(25);
  // One row more than the page: without X-Total-Count it tells whether there is a next page.
  expect(filter.limit).toBe(26);
  expect(JSON.stringify(filter.where)).toContain('%meier%');
  expect(JSON.stringify(filter.where)).toContain('aftercareEnd');
  expect(JSON.stringify(filter.where)).toContain('lastDataAt');
  expect((screen.getByLabelText('Suche') as HTMLInputElement).value).toBe('meier');
  expect((screen.getByLabelText('Nachsorge-Status') as HTMLSelectElement).value).toBe('active');
  expect(screen.getByText('26–50 von 63')).toBeTruthy();
});

test('without X-Total-Count the list asks one row more, says "mehr als" and still pages to the end', async () => {
  listPatients.mockImplementation(async (filter) => {
    const all = page(60);
    return { data: all.slice(filter!.skip ?? 0, (filter!.skip ?? 0) + filter!.limit!), total: null };
  });
  render(inArea(<PatientArea />));
  expect(await screen.findByText('mehr als 25 Patienten')).toBeTruthy();
  expect(screen.getByText('1–25 von mehr als 25')).toBeTruthy();
  expect(screen.getAllByRole('link', { name: /^Nachname/ })).toHaveLength(25);
  fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  expect(await screen.findByText('26–50 von mehr als 50')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  // The third page is the last: now the total is known.
  expect(await screen.findByText('51–60 von 60')).toBeTruthy();
  expect(screen.getByText('60 Patienten')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
});

test('paging keeps the filters in the URL and loads the next page', async () => {
  history.replaceState(null, '', '/patient?status=active');
  listPatients.mockResolvedValue({ data: page(25), total: 30 });
  render(inArea(<PatientArea />));
  await screen.findByText('30 Patienten');
  listPatients.mockResolvedValue({ data: page(5, 25), total: 30 });
  fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
  await screen.findByText('Nachname25, Vorname25');
  expect(location.search).toBe('?status=active&page=2');
  expect(listPatients.mock.calls.at(-1)![0]!.skip).toBe(25);
});

test('changing a filter writes it to the URL and starts again at page 1', async () => {
  history.replaceState(null, '', '/patient?page=3');
  listPatients.mockResolvedValue({ data: page(3), total: 3 });
  render(inArea(<PatientArea />));
  await screen.findByText('3 Patienten');
  choose(screen.getByLabelText('Letzte Daten') as HTMLSelectElement, 'grey');
  await waitFor(() => expect(location.search).toBe('?last=grey'));
  await waitFor(() => expect(JSON.stringify(listPatients.mock.calls.at(-1)![0]!.where)).toContain('"lastDataAt":null'));
});

test('a change asks once, and the URL follows its answer; a change undone before its answer is never shown', async () => {
  listPatients.mockResolvedValue({ data: page(3), total: 3 });
  render(inArea(<PatientArea />));
  await screen.findByText('3 Patienten');
  const asked = listPatients.mock.calls.length;
  let answer: (rows: Patient[]) => void = () => {};
  listPatients.mockImplementationOnce(() => new Promise((resolve) => (answer = (rows) => resolve({ data: rows, total: rows.length }))));
  const last = screen.getByLabelText('Letzte Daten') as HTMLSelectElement;
  choose(last, 'grey');
  expect(listPatients.mock.calls.length).toBe(asked + 1);
  // Before its answer the list stays as it is, under its URL.
  expect(location.search).toBe('');
  await act(async () => answer(page(2)));
  await waitFor(() => expect(location.search).toBe('?last=grey'));
  await screen.findByText('2 Patienten');
  expect(listPatients.mock.calls.length).toBe(asked + 1);

  // Another filter chosen and the same one chosen back before the answer: the first answer changes nothing.
  let late: (rows: Patient[]) => void = () => {};
  let signal: AbortSignal | undefined;
  listPatients.mockImplementationOnce((_filter, s) => {
    signal = s;
    return new Promise((resolve) => (late = (rows) => resolve({ data: rows, total: rows.length })));
  });
  choose(last, 'red');
  choose(last, 'grey');
  expect(signal?.aborted).toBe(true);
  await act(async () => late(page(5)));
  await new Promise((done) => setTimeout(done, 300));
  expect(location.search).toBe('?last=grey');
  expect(screen.getByText('2 Patienten')).toBeTruthy();
});

test('sorting by a column header toggles the direction and is kept in the URL', async () => {
  listPatients.mockResolvedValue({ data: page(2), total: 2 });
  render(inArea(<PatientArea />));
  await screen.findByText('2 Patienten');
  fireEvent.click(screen.getByRole('button', { name: /Letzte Daten/ }));
  await waitFor(() => expect(location.search).toBe('?sort=lastDataAt'));
  fireEvent.click(screen.getByRole('button', { name: /Letzte Daten/ }));
  await waitFor(() => expect(location.search).toBe('?sort=-lastDataAt'));
  await waitFor(() => expect(listPatients.mock.calls.at(-1)![0]!.order).toEqual(['lastDataAt DESC', 'lastName ASC', 'id ASC']));
});

test('an empty result says so, and differently when filters are set', async () => {
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(inArea(<PatientArea />));
  expect(await screen.findByText(/Noch keine Patienten/)).toBeTruthy();
  cleanupAndGo('/patient?q=zzz');
  render(inArea(<PatientArea />));
  expect(await screen.findByText('Keine Patienten passen zu diesen Filtern.')).toBeTruthy();
});

/** What a browser does when a person picks an option: the value changes, then input and change fire. */
function choose(select: HTMLSelectElement, value: string) {
  select.value = value;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

function cleanupAndGo(url: string) {
  document.body.innerHTML = '';
  history.replaceState(null, '', url);
}

test('a failed load shows the reason and loads again on retry', async () => {
  listPatients.mockRejectedValueOnce(new ApiError(502, 'HTTP_502', 'Bad Gateway'));
  render(inArea(<PatientArea />));
  expect((await screen.findByRole('alert')).textContent).toContain('Der Server antwortet gerade nicht');
  listPatients.mockResolvedValueOnce({ data: page(1), total: 1 });
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  expect(await screen.findByText('Nachname0, Vorname0')).toBeTruthy();
});

test('the filters form one search landmark without Pico\'s role="search" input-group styling (pill fields, half-rounded reset)', async () => {
  history.replaceState(null, '', '/patient?status=active');
  listPatients.mockResolvedValue({ data: page(3), total: 3 });
  const { container } = render(inArea(<PatientArea />));
  await screen.findByText('3 Patienten');
  const search = screen.getByLabelText('Suche').closest('search');
  expect(search, 'the search field sits in a <search> landmark').not.toBeNull();
  expect(search!.querySelectorAll('select')).toHaveLength(5);
  expect(search!.contains(screen.getByRole('button', { name: 'Filter zurücksetzen' }))).toBe(true);
  expect(container.querySelector('[role="search"]'), 'Pico styles every [role=search] as one rounded group').toBeNull();
});

test('rows show the primary coach, the phone number and the next appointment', async () => {
  const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const later = new Date(Date.now() + 9 * 86_400_000).toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  listCoaches.mockResolvedValue({
    data: [
      {
        id: 'c2',
        email: 'b@example.org',
        firstName: 'Bernd',
        lastName: 'Kollege',
        title: '',
        phone: '',
        isAdmin: false,
        isSuperAdmin: false,
        isHealthManager: false,
        isUserLocked: false,
        emailVerified: true,
        pendingEmail: null,
        language: 'de',
        trialEndsAt: null,
        createdAt: '',
        updatedAt: '',
      },
    ],
    total: 1,
  });
  listPatients.mockResolvedValue({
    data: [
      {
        ...patient(1),
        primaryCoachId: 'c2',
        phone: '0171 2345',
        appointments: [
          { id: 'a3', startsAt: later, durationMinutes: 30, type: 'phone', note: '' },
          { id: 'a1', startsAt: past, durationMinutes: 30, type: 'phone', note: '' },
          { id: 'a2', startsAt: future, durationMinutes: 30, type: 'video', note: '' },
        ],
      },
      { ...patient(2), primaryCoachId: 'me' },
    ],
    total: 2,
  });
  render(inArea(<PatientArea />));
  const rows = (await screen.findAllByRole('row')).slice(1);
  const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!.textContent;
  expect(cell(rows[0], 'Primärcoach')).toBe('Bernd Kollege');
  expect(cell(rows[0], 'Telefon')).toBe('0171 2345');
  expect(rows[0].querySelector('a[href^="tel:"]')!.getAttribute('href')).toBe('tel:01712345');
  expect(cell(rows[0], 'Nächster Termin')).toBe(new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(future)));
  expect(cell(rows[1], 'Primärcoach')).toBe('Clara Coach');
  expect(cell(rows[1], 'Telefon')).toBe('–');
  expect(cell(rows[1], 'Nächster Termin')).toBe('–');
});

test('25, 50 or 100 rows per page, kept in the URL', async () => {
  listPatients.mockImplementation(async (filter) => ({ data: page(Math.min(filter!.limit!, 120)), total: 300 }));
  render(inArea(<PatientArea />));
  await screen.findByText('300 Patienten');
  expect(listPatients.mock.calls.at(-1)![0]!.limit).toBe(26);
  choose(screen.getByLabelText('Zeilen pro Seite') as HTMLSelectElement, '100');
  await waitFor(() => expect(location.search).toBe('?size=100'));
  await waitFor(() => expect(listPatients.mock.calls.at(-1)![0]!.limit).toBe(101));
  expect(screen.getAllByRole('link', { name: /^Nachname/ })).toHaveLength(100);
  history.replaceState(null, '', '/patient?size=50&page=2');
  await act(async () => {
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await waitFor(() => expect(listPatients.mock.calls.at(-1)![0]).toMatchObject({ limit: 51, skip: 50 }));
  expect((screen.getByLabelText('Zeilen pro Seite') as HTMLSelectElement).value).toBe('50');
});
