import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { apiError, json, mockFetch, noContent, type RecordedCall } from '../../../../test/helpers/client-fetch.ts';
import { draftsBeforeReload, reloadWithinSession, signedInCoach } from '../../../../test/helpers/client-drafts.ts';
import { storedDraft } from '../../../state/sealed-drafts.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import { activate, addDictionary } from '../../../lib/i18n.ts';
import { online, reportAnswer } from '../../../lib/connection.ts';
import { user } from '../../../state/session.ts';
import en from '../../../../locales/en.json' with { type: 'json' };
import { Worklist } from './Worklist.tsx';
import { UNDO_MS } from './useCallRecorder.ts';
import { waitingForFollowUp } from './calls.ts';

const now = new Date('2026-11-22T09:00:00.000Z');
const anna = buildPatient({ id: 'p1', firstName: 'Anna', lastName: 'Müller', phone: '0171 2345', lastDataAt: '2026-11-15T08:00:00.000Z' });
const ben = buildPatient({ id: 'p2', firstName: 'Ben', lastName: 'Roth', phone: null, lastDataAt: null });
const NOTE_KEY = 'draft:coach-1:p1:call-note';
const PENDING_KEY = 'draft:coach-1:p1:pending-call';

beforeEach(() => signedInCoach('coach-1'));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  activate('de');
  user.value = null;
});

/**
 * Answers the event upsert with what was sent, and a DELETE of a stored event with `deleted` (204 by default); records
 * the calls.
 */
function api(overrides: Record<string, (call: RecordedCall) => Response> = {}, deleted: () => Response = noContent) {
  const routes: Record<string, (call: RecordedCall) => Response> = {
    'PUT /patients/p1/sync-db/event': (call) => {
      const body = call.body as { id: string };
      routes[`DELETE /patients/p1/sync-db/event/${body.id}`] = deleted;
      return json({ ...body, patientId: 'p1', date: '2026-11-22', updatedAt: now.toISOString() });
    },
    'PATCH /patients/p1': (call) => json({ ...anna, ...(call.body as object) }),
    ...overrides,
  };
  return mockFetch(routes);
}
const row = (name: string) => screen.getByRole('group', { name: `Anruf bei ${name} erfassen` }).closest('li')!;
const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body as { id: string; data: Record<string, unknown> });
const time = (iso: string, locale = 'de') => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(iso));

test('note and length come before the outcome buttons, open, and the length starts empty', () => {
  api();
  render(<Worklist patients={[anna]} now={now} />);
  const fields = within(row('Anna Müller'));
  const note = fields.getByLabelText('Notiz zum Anruf (optional)');
  const length = fields.getByLabelText('Dauer in Minuten (optional)') as HTMLInputElement;
  const reached = fields.getByRole('button', { name: 'Erreicht' });
  expect(length.value).toBe('');
  expect(note.compareDocumentPosition(reached) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(length.compareDocumentPosition(reached) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(note.closest('details')).toBeNull();
});

test('a reached call without a length is stored as a held call of 0 minutes, with its kind, note and coach', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna, ben]} now={now} />);
  fireEvent.input(within(row('Anna Müller')).getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Schläft schlecht, Termin beim Hausarzt.' } });
  expect(storedDraft(NOTE_KEY)).toBe('Schläft schlecht, Termin beim Hausarzt.');
  fireEvent.click(within(row('Anna Müller')).getByRole('button', { name: 'Erreicht' }));
  const status = await within(row('Anna Müller')).findByRole('status');
  const put = puts(calls)[0];
  expect(put.id).toMatch(/^call-[a-z0-9-]+$/);
  expect(put.data).toMatchObject({
    type: 'phone-coaching',
    kind: 'call-reached',
    title: 'Telefonat (erreicht)',
    done: true,
    durationMinutes: 0,
    coachId: 'coach-1',
    notes: 'Schläft schlecht, Termin beim Hausarzt.',
  });
  expect(status.textContent).toBe(`Anruf erfasst um ${time(put.data.start as string)} (erreicht)`);
  // No second record offered, the note is stored and gone from the drafts; the other row is untouched.
  expect(within(row('Anna Müller')).queryByRole('button', { name: 'Erreicht' })).toBeNull();
  expect(within(row('Anna Müller')).queryByLabelText('Notiz zum Anruf (optional)')).toBeNull();
  expect(storedDraft(NOTE_KEY)).toBeNull();
  expect(within(row('Ben Roth')).getByRole('button', { name: 'Erreicht' })).toBeTruthy();
});

test('a length given is stored with a reached call; a call not reached stores 0 minutes and no held coaching', async () => {
  const { calls } = api({
    'PUT /patients/p2/sync-db/event': (call) => json({ ...(call.body as object), patientId: 'p2', date: null, updatedAt: now.toISOString() }),
  });
  render(<Worklist patients={[anna, ben]} now={now} />);
  fireEvent.input(within(row('Anna Müller')).getByLabelText('Dauer in Minuten (optional)'), { target: { value: '25' } });
  fireEvent.click(within(row('Anna Müller')).getByRole('button', { name: 'Erreicht' }));
  fireEvent.input(within(row('Ben Roth')).getByLabelText('Dauer in Minuten (optional)'), { target: { value: '25' } });
  fireEvent.click(within(row('Ben Roth')).getByRole('button', { name: 'Nicht erreicht' }));
  await waitFor(() => expect(puts(calls)).toHaveLength(2));
  expect(puts(calls)[0].data).toMatchObject({ kind: 'call-reached', done: true, durationMinutes: 25 });
  expect(puts(calls)[1].data).toMatchObject({ kind: 'call-not-reached', title: 'Anrufversuch (nicht erreicht)', done: false, durationMinutes: 0 });
});

test('a length out of range is refused before anything is sent', () => {
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Dauer in Minuten (optional)'), { target: { value: '0' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  expect(screen.getByRole('alert').textContent).toBe('Bitte eine Dauer von 1 bis 240 Minuten angeben oder das Feld leer lassen.');
  expect(calls).toEqual([]);
});

test('"Rückgängig" within 10 seconds deletes the recorded call and offers the row again with its note', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Versehentlich erfasst.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Nicht erreicht' }));
  await within(row('Anna Müller')).findByRole('status');
  act(() => {
    vi.advanceTimersByTime(UNDO_MS - 1000);
  });
  fireEvent.click(screen.getByRole('button', { name: 'Rückgängig' }));
  await screen.findByRole('button', { name: 'Nicht erreicht' });
  const id = puts(calls)[0].id;
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/v2/patients/p1/sync-db/event/${id}`]);
  expect((screen.getByLabelText('Notiz zum Anruf (optional)') as HTMLTextAreaElement).value).toBe('Versehentlich erfasst.');
  expect(within(row('Anna Müller')).queryByRole('status')).toBeNull();
});

test('"Rückgängig" is gone 10 seconds after the call was stored; the row still says it was recorded', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  await screen.findByRole('button', { name: 'Rückgängig' });
  act(() => {
    vi.advanceTimersByTime(UNDO_MS);
  });
  expect(screen.queryByRole('button', { name: 'Rückgängig' })).toBeNull();
  expect(within(row('Anna Müller')).getByRole('status').textContent).toMatch(/^Anruf erfasst um /);
});

test('an API that cannot delete a synchronised record keeps the undone call as withdrawn, counted by nobody', async () => {
  const { calls } = api({}, () => apiError(405));
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Rückgängig' }));
  await screen.findByRole('button', { name: 'Erreicht' });
  const [first, second] = puts(calls);
  expect(second.id).toBe(first.id);
  expect(second.data).toMatchObject({ kind: 'call-withdrawn', done: false, durationMinutes: 0 });
});

test('a failed save stays beside the row with "Erneut versuchen", the note kept; trying again sends the same call', async () => {
  let answer = 503;
  const { calls } = api({
    'PUT /patients/p1/sync-db/event': (call) =>
      answer === 200 ? json({ ...(call.body as object), patientId: 'p1', date: '2026-11-22', updatedAt: now.toISOString() }) : apiError(answer),
  });
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Gut erreicht.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  const alert = await within(row('Anna Müller')).findByRole('alert');
  expect(alert.textContent).toContain('Der Anruf wurde nicht gespeichert. Ihre Notiz ist noch da.');
  expect((screen.getByLabelText('Notiz zum Anruf (optional)') as HTMLTextAreaElement).value).toBe('Gut erreicht.');
  expect(storedDraft(NOTE_KEY)).toBe('Gut erreicht.');
  expect(screen.queryByRole('button', { name: 'Erreicht' })).toBeNull();
  answer = 200;
  fireEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
  await within(row('Anna Müller')).findByRole('status');
  const [first, second] = puts(calls);
  expect(second.id).toBe(first.id);
  expect(second.data).toMatchObject({ notes: 'Gut erreicht.', start: first.data.start });
  expect(storedDraft(PENDING_KEY)).toBeNull();
});

test('a call made offline stays pending with its note, also after a reload, and is sent when the connection returns', async () => {
  let reachable = false;
  const { calls } = mockFetch({
    'PUT /patients/p1/sync-db/event': (call) => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return json({ ...(call.body as object), patientId: 'p1', date: '2026-11-22', updatedAt: now.toISOString() });
    },
  });
  const first = render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Im Funkloch notiert.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(/^Der Anruf ist noch nicht gespeichert \(keine Verbindung\)/);
  expect(online.value).toBe(false);
  expect(storedDraft(PENDING_KEY)).toMatchObject({ call: { outcome: 'reached', minutes: null } });
  // The page is reloaded while still offline: the call is still there, with its note.
  first.unmount();
  await reloadWithinSession();
  render(<Worklist patients={[anna]} now={now} />);
  expect(screen.getByRole('alert').textContent).toMatch(/^Der Anruf ist noch nicht gespeichert/);
  expect((screen.getByLabelText('Notiz zum Anruf (optional)') as HTMLTextAreaElement).value).toBe('Im Funkloch notiert.');
  reachable = true;
  act(() => reportAnswer());
  expect((await within(row('Anna Müller')).findByRole('status')).textContent).toMatch(/^Anruf erfasst um /);
  const sent = puts(calls);
  expect(sent.map((p) => p.id)).toEqual([sent[0].id, sent[0].id]);
  expect(sent[1].data).toMatchObject({ kind: 'call-reached', notes: 'Im Funkloch notiert.' });
  expect(storedDraft(PENDING_KEY)).toBeNull();
});

test('a call still pending when the row appears while the line is up is sent at once', async () => {
  const { calls } = api();
  await draftsBeforeReload({
    [PENDING_KEY]: { call: { id: 'call-kept-1', outcome: 'notReached', at: now.toISOString(), minutes: null }, followUp: '' },
    [NOTE_KEY]: 'Vor dem Neuladen notiert.',
  });
  render(<Worklist patients={[anna]} now={now} />);
  expect((await within(row('Anna Müller')).findByRole('status')).textContent).toMatch(/^Anruf erfasst um .* \(nicht erreicht\)$/);
  expect(puts(calls)).toEqual([
    expect.objectContaining({ id: 'call-kept-1', data: expect.objectContaining({ notes: 'Vor dem Neuladen notiert.', kind: 'call-not-reached' }) }),
  ]);
});

test('the recorded call reads in the current language', async () => {
  addDictionary('en', en as Record<string, unknown>);
  activate('en');
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByRole('button', { name: 'Reached' }));
  const status = await screen.findByText(/^Call recorded at /);
  const put = puts(calls)[0];
  expect(status.textContent).toBe(`Call recorded at ${time(put.data.start as string, 'en')} (reached)`);
  expect(put.data).toMatchObject({ kind: 'call-reached', title: 'Phone call (reached)' });
});

test('a follow-up day given with the call is set too, and the row says until when', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna, ben]} now={now} />);
  const mine = within(row('Anna Müller'));
  fireEvent.input(mine.getByLabelText('Wiedervorlage am'), { target: { value: '2026-12-01' } });
  fireEvent.click(mine.getByRole('button', { name: 'Erreicht' }));
  await waitFor(() => expect(mine.getByRole('status').textContent).toMatch(/Wiedervorlage am 01\.12\.2026/));
  expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ followUpAt: '2026-12-01' });
});

test('a follow-up day can be set without a call; a day before tomorrow is refused before anything is sent', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Wiedervorlage am'), { target: { value: '2026-11-22' } });
  fireEvent.click(screen.getByRole('button', { name: 'Nur Wiedervorlage setzen' }));
  expect(screen.getByRole('alert').textContent).toBe('Bitte für die Wiedervorlage einen Tag ab morgen wählen.');
  expect(calls).toEqual([]);
  fireEvent.input(screen.getByLabelText('Wiedervorlage am'), { target: { value: '2026-11-23' } });
  fireEvent.click(screen.getByRole('button', { name: 'Nur Wiedervorlage setzen' }));
  await waitFor(() => expect(screen.queryByRole('link', { name: 'Anna Müller' })).toBeNull());
  expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PATCH /v2/patients/p1']);
});

test('an API that does not keep the follow-up day says so, and the patient stays', async () => {
  api({ 'PATCH /patients/p1': () => json({ ...anna, followUpAt: undefined }) });
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.input(screen.getByLabelText('Wiedervorlage am'), { target: { value: '2026-12-01' } });
  fireEvent.click(screen.getByRole('button', { name: 'Nur Wiedervorlage setzen' }));
  expect((await screen.findByRole('alert')).textContent).toContain('speichert keine Wiedervorlage');
  expect(screen.getByRole('link', { name: 'Anna Müller' })).toBeTruthy();
});

test('a patient waits for the follow-up day, and is back on that day', () => {
  const today = new Date('2026-11-22T09:00:00Z');
  expect(waitingForFollowUp({ followUpAt: '2026-11-23' }, today)).toBe(true);
  expect(waitingForFollowUp({ followUpAt: '2026-11-22' }, today)).toBe(false);
  expect(waitingForFollowUp({ followUpAt: null }, today)).toBe(false);
});

test('each row names the date of birth and age beside the name, so two patients of one name are told apart before a call is recorded', () => {
  api();
  const twin = buildPatient({ id: 'p3', firstName: 'Anna', lastName: 'Müller', birthDate: '1990-02-03', lastDataAt: null });
  render(<Worklist patients={[{ ...anna, birthDate: '1961-03-12' }, twin]} now={now} />);
  const [first, second] = screen.getAllByRole('group', { name: 'Anruf bei Anna Müller erfassen' }).map((group) => group.closest('li')!);
  expect(first.querySelector('.worklist-head')!.textContent).toContain('Geboren 12.03.1961 (65)');
  expect(second.querySelector('.worklist-head')!.textContent).toContain('Geboren 03.02.1990 (36)');
});
