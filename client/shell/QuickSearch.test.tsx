import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { buildPatient } from '../../test/helpers/screen-records.ts';
import { SEARCH_DELAY_MS } from '../components/patient-search/usePatientSearch.ts';

vi.mock('../api/patients.ts', () => ({ listPatients: vi.fn() }));
const { listPatients } = vi.mocked(await import('../api/patients.ts'));
const { QuickSearch, QuickSearchButton } = await import('./QuickSearch.tsx');

const anna = buildPatient({ id: 'p-anna', firstName: 'Anna', lastName: 'Müller', patientCode: 'NK-4821', phone: '0171 2345' });
const bernd = buildPatient({ id: 'p-bernd', firstName: 'Bernd', lastName: 'Mahler', patientCode: 'NK-5555', phone: null });

beforeEach(() => {
  vi.useFakeTimers();
  listPatients.mockReset().mockResolvedValue({ data: [anna, bernd], total: null });
});
afterEach(() => vi.useRealTimers());

function renderShell() {
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <Router hook={location.hook}>
      <input aria-label="Notiz" />
      <QuickSearchButton />
      <QuickSearch />
    </Router>,
  );
  return location;
}
const slash = (target: Element = document.body) => fireEvent.keyDown(target, { key: '/' });
async function type(text: string) {
  fireEvent.input(screen.getByLabelText('Name, Patientencode oder Telefon'), { target: { value: text } });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
  });
}

test('"/" opens the patient search with the field focused', () => {
  renderShell();
  expect(screen.queryByRole('dialog')).toBeNull();
  slash();
  expect(screen.getByRole('dialog', { name: 'Patientin oder Patient suchen' })).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByLabelText('Name, Patientencode oder Telefon'));
});

test('"/" typed into a field is text, not the shortcut', () => {
  renderShell();
  slash(screen.getByLabelText('Notiz'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('results come as the coach types, as links with name, code and phone; the search waits for a pause', async () => {
  renderShell();
  slash();
  fireEvent.input(screen.getByLabelText('Name, Patientencode oder Telefon'), { target: { value: 'm' } });
  fireEvent.input(screen.getByLabelText('Name, Patientencode oder Telefon'), { target: { value: 'mü' } });
  await type('müller');
  expect(listPatients).toHaveBeenCalledTimes(1);
  const filter = listPatients.mock.calls[0][0] as ListFilter;
  expect(JSON.stringify(filter.where)).toContain('%müller%');
  const link = screen.getByRole('link', { name: /Müller, Anna/ });
  expect(link.getAttribute('href')).toBe('/patient/p-anna');
  expect(link.textContent).toContain('NK-4821');
  expect(link.textContent).toContain('0171 2345');
  expect(screen.getByRole('status').textContent).toBe('Treffer: 2');
});

test('a newer text aborts the search still running for an older one', async () => {
  let first: AbortSignal | undefined;
  listPatients.mockImplementationOnce((_filter, signal) => {
    first = signal;
    return new Promise(() => undefined);
  });
  renderShell();
  slash();
  await type('mül');
  expect(first?.aborted).toBe(false);
  await type('müller');
  expect(first?.aborted).toBe(true);
  expect(screen.getByRole('link', { name: /Müller, Anna/ })).toBeTruthy();
});

test('arrow keys move through the results and back to the field; Enter in the field opens the first result', async () => {
  const location = renderShell();
  slash();
  await type('m');
  const field = screen.getByLabelText('Name, Patientencode oder Telefon');
  fireEvent.keyDown(field, { key: 'ArrowDown' });
  expect(document.activeElement).toBe(screen.getByRole('link', { name: /Müller, Anna/ }));
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
  expect(document.activeElement).toBe(screen.getByRole('link', { name: /Mahler, Bernd/ }));
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
  expect(document.activeElement).toBe(field);
  fireEvent.keyDown(field, { key: 'Enter' });
  expect(location.history?.at(-1)).toBe('/patient/p-anna');
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('says when nothing was found, and when the search failed', async () => {
  listPatients.mockResolvedValueOnce({ data: [], total: null });
  renderShell();
  slash();
  await type('zzz');
  expect(screen.getByRole('status').textContent).toBe('Keine Patientin und kein Patient gefunden.');
  listPatients.mockRejectedValueOnce(new Error('offline'));
  await type('zzzz');
  expect(screen.getByRole('status').textContent).toContain('Die Suche ist fehlgeschlagen');
});

/** A touch screen: the main pointer is a finger (coarse) and nothing hovers. */
function onTouchScreen() {
  const real = window.matchMedia;
  window.matchMedia = ((query: string) => ({ ...real.call(window, query), matches: /pointer: coarse|hover: none/.test(query) })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = real;
  };
}

test('the search button opens the same search, with the field focused', () => {
  renderShell();
  fireEvent.click(screen.getByRole('button', { name: 'Patientin oder Patient suchen' }));
  expect(screen.getByRole('dialog', { name: 'Patientin oder Patient suchen' })).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByLabelText('Name, Patientencode oder Telefon'));
});

test('with a mouse the empty search tips the "/" key; on a touch screen it does not', () => {
  renderShell();
  fireEvent.click(screen.getByRole('button', { name: 'Patientin oder Patient suchen' }));
  expect(screen.getByRole('status').textContent).toContain('„/“');
  fireEvent.click(screen.getByRole('button', { name: 'Schließen' }));
  const restore = onTouchScreen();
  try {
    fireEvent.click(screen.getByRole('button', { name: 'Patientin oder Patient suchen' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByRole('status').textContent).not.toContain('/');
  } finally {
    restore();
  }
});
