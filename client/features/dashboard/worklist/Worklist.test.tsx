import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { apiError, json, mockFetch, type RecordedCall } from '../../../../test/helpers/client-fetch.ts';
import { offeredAfterReload, signedInCoach } from '../../../../test/helpers/client-drafts.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import { user } from '../../../state/session.ts';
import { Worklist } from './Worklist.tsx';
import { waitingForFollowUp } from './calls.ts';

const now = new Date('2026-11-22T09:00:00.000Z');
const anna = buildPatient({ id: 'p1', firstName: 'Anna', lastName: 'Müller', phone: '0171 2345', lastDataAt: '2026-11-15T08:00:00.000Z' });
const ben = buildPatient({ id: 'p2', firstName: 'Ben', lastName: 'Roth', phone: null, lastDataAt: null });

beforeEach(() => signedInCoach('coach-1'));
afterEach(() => {
  vi.unstubAllGlobals();
  user.value = null;
});

/** Answers the event upsert with what was sent, and records the calls. */
function api(overrides: Record<string, (call: RecordedCall) => Response> = {}) {
  return mockFetch({
    'PUT /patients/p1/sync-db/event': (call) => json({ ...(call.body as object), patientId: 'p1', date: '2026-11-22', updatedAt: now.toISOString() }),
    'PATCH /patients/p1': (call) => json({ ...anna, ...(call.body as object) }),
    ...overrides,
  });
}
const row = (name: string) => screen.getByRole('group', { name: `Anruf bei ${name} erfassen` }).closest('li')!;

test('one click records a reached call as a held phone coaching of the patient, by this coach, now', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna, ben]} now={now} />);
  fireEvent.click(within(row('Anna Müller')).getByRole('button', { name: 'Erreicht' }));
  expect(await within(row('Anna Müller')).findByRole('status')).toBeTruthy();
  expect(within(row('Anna Müller')).getByRole('status').textContent).toMatch(/^Anruf erfasst \(erreicht, /);
  const put = calls.find((c) => c.method === 'PUT')!;
  expect(put.path).toBe('/v2/patients/p1/sync-db/event');
  expect(put.body).toMatchObject({
    id: expect.stringMatching(/^call-[a-z0-9-]+$/),
    data: { type: 'phone-coaching', title: 'Telefonat (erreicht)', done: true, durationMinutes: 15, coachId: 'coach-1', notes: '' },
  });
  expect(Date.parse((put.body as { data: { start: string } }).data.start)).toBeGreaterThan(Date.now() - 60_000);
  // Still on the list: the patient has not sent data yet.
  expect(screen.getByRole('link', { name: 'Anna Müller' })).toBeTruthy();
});

test('a call not reached is recorded with the note, but as no held coaching (0 minutes)', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByText('Notiz und Wiedervorlage'));
  fireEvent.input(screen.getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Mailbox, Rückruf erbeten.' } });
  expect(await offeredAfterReload('draft:coach-1:p1:call-note')).toBe('Mailbox, Rückruf erbeten.');
  fireEvent.click(screen.getByRole('button', { name: 'Nicht erreicht' }));
  await screen.findByText(/^Anruf erfasst \(nicht erreicht/);
  expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
    data: { type: 'phone-coaching', title: 'Anrufversuch (nicht erreicht)', done: false, durationMinutes: 0, notes: 'Mailbox, Rückruf erbeten.' },
  });
  expect(localStorage.getItem('draft:coach-1:p1:call-note')).toBeNull();
});

test('a follow-up day given with the call takes the patient off the list until then', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna, ben]} now={now} />);
  const mine = row('Anna Müller');
  fireEvent.click(within(mine).getByText('Notiz und Wiedervorlage'));
  fireEvent.input(within(mine).getByLabelText('Dauer in Minuten'), { target: { value: '25' } });
  fireEvent.input(within(mine).getByLabelText('Wiedervorlage am'), { target: { value: '2026-12-01' } });
  fireEvent.click(within(mine).getByRole('button', { name: 'Erreicht' }));
  await waitFor(() => expect(screen.queryByRole('link', { name: 'Anna Müller' })).toBeNull());
  expect(screen.getByText(/^Anna Müller: Anruf erfasst \(erreicht, .*Wiedervorlage am 01\.12\.2026/)).toBeTruthy();
  expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ data: { durationMinutes: 25, done: true } });
  expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ followUpAt: '2026-12-01' });
  expect(screen.getByRole('link', { name: 'Ben Roth' })).toBeTruthy();
});

test('a follow-up day can be set without a call; a day before tomorrow is refused before anything is sent', async () => {
  const { calls } = api();
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByText('Notiz und Wiedervorlage'));
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
  fireEvent.click(screen.getByText('Notiz und Wiedervorlage'));
  fireEvent.input(screen.getByLabelText('Wiedervorlage am'), { target: { value: '2026-12-01' } });
  fireEvent.click(screen.getByRole('button', { name: 'Nur Wiedervorlage setzen' }));
  expect((await screen.findByRole('alert')).textContent).toContain('speichert keine Wiedervorlage');
  expect(screen.getByRole('link', { name: 'Anna Müller' })).toBeTruthy();
});

test('a failed save keeps the note and says so', async () => {
  api({ 'PUT /patients/p1/sync-db/event': () => apiError(503) });
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByText('Notiz und Wiedervorlage'));
  fireEvent.input(screen.getByLabelText('Notiz zum Anruf (optional)'), { target: { value: 'Gut erreicht.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  expect((await screen.findByRole('alert')).textContent).toContain('Der Anruf wurde nicht gespeichert. Ihre Notiz ist noch da.');
  expect((screen.getByLabelText('Notiz zum Anruf (optional)') as HTMLTextAreaElement).value).toBe('Gut erreicht.');
});

test('a call recorded whose follow-up day then fails says both, and the patient stays; a length out of range is refused first', async () => {
  const { calls } = api({ 'PATCH /patients/p1': () => apiError(503) });
  render(<Worklist patients={[anna]} now={now} />);
  fireEvent.click(screen.getByText('Notiz und Wiedervorlage'));
  fireEvent.input(screen.getByLabelText('Dauer in Minuten'), { target: { value: '0' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  expect(screen.getByRole('alert').textContent).toBe('Bitte eine Dauer von 1 bis 240 Minuten angeben.');
  expect(calls).toEqual([]);
  fireEvent.input(screen.getByLabelText('Dauer in Minuten'), { target: { value: '20' } });
  fireEvent.input(screen.getByLabelText('Wiedervorlage am'), { target: { value: '2026-12-01' } });
  fireEvent.click(screen.getByRole('button', { name: 'Erreicht' }));
  expect((await within(row('Anna Müller')).findByRole('status')).textContent).toMatch(/^Anruf erfasst \(erreicht, /);
  expect((await within(row('Anna Müller')).findByRole('alert')).textContent).toMatch(/^Die Wiedervorlage wurde nicht gespeichert\. /);
  expect(screen.getByRole('link', { name: 'Anna Müller' })).toBeTruthy();
  expect(calls.map((c) => c.method)).toEqual(['PUT', 'PATCH']);
});

test('a patient waits for the follow-up day, and is back on that day', () => {
  const today = new Date('2026-11-22T09:00:00Z');
  expect(waitingForFollowUp({ followUpAt: '2026-11-23' }, today)).toBe(true);
  expect(waitingForFollowUp({ followUpAt: '2026-11-22' }, today)).toBe(false);
  expect(waitingForFollowUp({ followUpAt: null }, today)).toBe(false);
});
