import { afterEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { json, mockFetch, type RecordedCall } from '../../../test/helpers/client-fetch.ts';
import { buildComment } from '../../../test/helpers/screen-records.ts';
import { buildAccessCode, buildAppointment, buildAuditEntry, buildCallEvent, buildExternalComment } from '../../../test/helpers/timeline-records.ts';
import en from '../../../locales/en.json' with { type: 'json' };
import { activate, addDictionary } from '../../lib/i18n.ts';
import { Timeline, TIMELINE_PAGE } from './Timeline.tsx';
import type { HistoryNames } from './history-text.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  activate('de');
});

const names: HistoryNames = { coaches: new Map([['coach-1', 'Clara Coach']]), devices: new Map(), diagnoses: new Map(), costRates: new Map() };
const patient = { id: 'p1', appointments: [buildAppointment({ startsAt: '2026-11-12T10:00:00.000Z' })] };
const at = (day: number, hour = 9) => new Date(Date.UTC(2026, 10, day, hour)).toISOString();

/** Serves `rows` a page at a time by the filter's limit and skip, with X-Total-Count, as the upstream does. */
const paged =
  <T,>(rows: T[]) =>
  (call: RecordedCall) => {
    const filter = JSON.parse(new URLSearchParams(call.search).get('filter') ?? '{}') as { limit?: number; skip?: number };
    const skip = filter.skip ?? 0;
    return json(rows.slice(skip, skip + (filter.limit ?? rows.length)), { headers: { 'X-Total-Count': String(rows.length) } });
  };

function api(overrides: Record<string, (call: RecordedCall) => Response> = {}) {
  return mockFetch({
    'GET /comments': paged([buildComment({ id: 'c1', patientId: 'p1', text: 'Kommentar vom 11.', createdAt: at(11), updatedAt: at(11) })]),
    'GET /externalComments': paged([buildExternalComment({ createdAt: at(8) })]),
    'GET /patients/p1/sync-db/event': paged([
      buildCallEvent({ id: 'call-2' }, { start: at(13), kind: 'call-not-reached', done: false, durationMinutes: 0, notes: 'Mailbox.' }),
      buildCallEvent({ id: 'ex' }, { type: 'exercise', start: at(10), title: 'Spaziergang' }),
      buildCallEvent({ id: 'call-1' }, { start: at(10), durationMinutes: 0 }),
    ]),
    'GET /patientTokens': paged([buildAccessCode({ createdAt: at(1), usedAt: at(2) })]),
    'GET /audit-log': paged([buildAuditEntry({ at: at(9) })]),
    ...overrides,
  });
}
const entries = () => [...document.querySelectorAll('.timeline-list > li')].map((li) => li.textContent ?? '');

test('one list, newest first: calls with outcome, length, note and coach, comments, appointments, app notes, codes and changes', async () => {
  api();
  render(<Timeline patient={patient} changes names={names} />);
  await screen.findByText('Mailbox.');
  const list = entries();
  expect(list.map((text) => text.split(' · ')[1])).toEqual([
    expect.stringMatching(/^Anruf/),
    expect.stringMatching(/^Termin/),
    expect.stringMatching(/^Kommentar/),
    expect.stringMatching(/^Anruf/),
    expect.stringMatching(/^Änderung/),
    expect.stringMatching(/^Externe Notiz/),
    expect.stringMatching(/^Zugangscode/),
    expect.stringMatching(/^Zugangscode/),
  ]);
  expect(list[0]).toMatch(/Anruf · Clara CoachAnrufversuch \(nicht erreicht\)Mailbox\./);
  expect(list[3]).toMatch(/Telefonat \(erreicht\) · ohne DauerSchläft besser/);
  expect(list[1]).toMatch(/Videosprechstunde · 30 Min\.Rückfallplan besprechen/);
  expect(list[4]).toMatch(/Wiedervorlage/);
  expect(list[6]).toMatch(/Zugangscode in der App eingelöst/);
  // The app's exercise is no call: it stays under "Daten aus der App".
  expect(screen.queryByText(/Spaziergang/)).toBeNull();
});

test('the kind filter shows only the chosen kinds, and says when none is left', async () => {
  api();
  render(<Timeline patient={patient} changes names={names} />);
  await screen.findByText('Mailbox.');
  const filter = screen.getByRole('group', { name: 'Anzeigen' });
  for (const kind of ['Kommentar', 'Termin', 'Externe Notiz', 'Zugangscode', 'Änderung']) fireEvent.click(within(filter).getByRole('checkbox', { name: kind }));
  expect(entries()).toHaveLength(2);
  expect(entries().every((text) => text.includes(' · Anruf'))).toBe(true);
  fireEvent.click(within(filter).getByRole('checkbox', { name: 'Anruf' }));
  expect(screen.getByText('Keine Einträge der gewählten Arten.')).toBeTruthy();
});

test('without an audit log there is no kind "Änderung" and nothing is asked of it', async () => {
  const { calls } = api();
  render(<Timeline patient={patient} changes={false} names={names} />);
  await screen.findByText('Mailbox.');
  expect(screen.queryByRole('checkbox', { name: 'Änderung' })).toBeNull();
  expect(calls.some((c) => c.path === '/v2/audit-log')).toBe(false);
});

test('a long record loads a page at a time, and never shows an entry before an older one of another list is loaded', async () => {
  const many = Array.from({ length: 60 }, (_, i) => buildComment({ id: `c${i}`, patientId: 'p1', text: `Notiz ${i}`, createdAt: at(30, 0) })).map((c, i) => ({
    ...c,
    createdAt: new Date(Date.parse(at(29)) - i * 3_600_000).toISOString(),
  }));
  const { calls } = api({ 'GET /comments': paged(many), 'GET /externalComments': paged([buildExternalComment({ createdAt: at(1, 0) })]) });
  render(<Timeline patient={{ id: 'p1', appointments: [] }} changes={false} names={names} />);
  await screen.findByText('Notiz 0');
  const limits = calls.filter((c) => c.path === '/v2/comments').map((c) => JSON.parse(new URLSearchParams(c.search).get('filter')!).limit);
  expect(limits).toEqual([TIMELINE_PAGE + 1]);
  expect(screen.getAllByText(/^Notiz \d+$/)).toHaveLength(TIMELINE_PAGE);
  // The app's note of Nov 1 is older than every comment shown: it waits until the comments are loaded that far.
  expect(screen.queryByText('Diese Woche war anstrengend.')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Ältere Einträge laden' }));
  await waitFor(() => expect(screen.getAllByText(/^Notiz \d+$/)).toHaveLength(2 * TIMELINE_PAGE));
  fireEvent.click(screen.getByRole('button', { name: 'Ältere Einträge laden' }));
  await screen.findByText('Diese Woche war anstrengend.');
  expect(screen.getAllByText(/^Notiz \d+$/)).toHaveLength(60);
  expect(entries().at(-1)).toContain('Diese Woche war anstrengend.');
  expect(screen.queryByRole('button', { name: 'Ältere Einträge laden' })).toBeNull();
});

test('a call shows its kind in the language of the screen, not the one it was stored in', async () => {
  addDictionary('en', en as Record<string, unknown>);
  activate('en');
  api();
  render(<Timeline patient={patient} changes names={names} />);
  await screen.findByText('Mailbox.');
  expect(entries()[0]).toMatch(/Call · Clara CoachCall attempt \(not reached\)Mailbox/);
  expect(entries()[3]).toMatch(/Phone call \(reached\) · no length given/);
});

test('recorded changes are shown once the API turns out to keep them', async () => {
  api();
  const { rerender } = render(<Timeline patient={patient} changes={false} names={names} />);
  await screen.findByText('Mailbox.');
  rerender(<Timeline patient={patient} changes names={names} />);
  expect(((await screen.findByRole('checkbox', { name: 'Änderung' })) as HTMLInputElement).checked).toBe(true);
  await waitFor(() => expect(entries().some((text) => text.includes(' · Änderung'))).toBe(true));
});
