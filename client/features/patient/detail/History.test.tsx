import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import type { AuditEntry } from '../../../../contract/schemas/audit-log.ts';
import type { Comment } from '../../../../contract/schemas/comments.ts';
import { apiError, buildMe, json, mockFetch } from '../../../../test/helpers/client-fetch.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import { user } from '../../../state/session.ts';
import type { Me } from '../../../../contract/schemas/auth.ts';
import { PatientDetail } from '../PatientDetail.tsx';
import { PatientHistory } from './PatientHistory.tsx';
import { Comments } from './Comments.tsx';
import { forgetAuditLogSupport } from './history-support.ts';

/* Traceable: the record's "Verlauf", earlier versions of a note, deleted notes for administrators. */

const patient = buildPatient({ id: 'p1', firstName: 'Anna', lastName: 'Müller' });
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'e1',
  at: '2026-11-20T09:00:00.000Z',
  actorId: 'coach-1',
  actorName: 'Clara Coach',
  action: 'update',
  entity: 'patient',
  entityId: 'p1',
  patientId: 'p1',
  changes: {},
  ...over,
});
const note: Comment = {
  id: 'c1',
  patientId: 'p1',
  authorId: 'coach-1',
  authorName: 'Clara Coach',
  text: 'Rückruf am Freitag.',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  deletedAt: null,
  deletedBy: null,
  deletedByName: null,
};
const base = {
  'GET /patients/p1': json(patient),
  'GET /coaches': json([
    { id: 'coach-1', email: 'c@example.org', firstName: 'Clara', lastName: 'Coach' },
    { id: 'coach-2', email: 'b@example.org', firstName: 'Bernd', lastName: 'Kollege' },
  ]),
  'GET /diagnosis': json([]),
  'GET /cost-rates': json([]),
  'GET /devices': json([]),
  'GET /patients/p1/coaches': json([]),
  'GET /patients/p1/primary-coach': json(null),
};

beforeEach(() => {
  forgetAuditLogSupport();
  user.value = buildMe({ id: 'coach-1' }) as Me;
  history.replaceState(null, '', '/patient/p1');
});
afterEach(() => {
  vi.unstubAllGlobals();
  user.value = null;
});

describe('the Verlauf tab', () => {
  test('is there when the API has the audit log', async () => {
    mockFetch({ ...base, 'GET /audit-log': json([]) });
    render(<PatientDetail id="p1" />);
    const tab = await screen.findByRole('link', { name: 'Verlauf' });
    expect(tab.getAttribute('href')).toBe('/patient/p1?tab=history');
  });

  test('is absent, not broken, when the API has no audit log', async () => {
    const { calls } = mockFetch({ ...base, 'GET /audit-log': apiError(404, 'NOT_FOUND') });
    render(<PatientDetail id="p1" />);
    await screen.findByRole('link', { name: 'Übersicht' });
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/v2/audit-log')).toBe(true));
    expect(screen.queryByRole('link', { name: 'Verlauf' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

test("the history says who changed what when, from before to after, in the coach's words", async () => {
  mockFetch({
    ...base,
    'GET /audit-log': json(
      [
        entry({
          id: 'e3',
          at: '2026-11-21T08:00:00.000Z',
          changes: { phone: { before: '030 1', after: '030 2' }, aftercareEnd: { before: '2027-01-31', after: '2027-02-28' } },
        }),
        entry({ id: 'e2', entity: 'patient-coach', action: 'create', entityId: 'p1/coach-2', changes: { coachId: { before: null, after: 'coach-2' } } }),
        entry({
          id: 'e1',
          entity: 'patient-token',
          action: 'create',
          entityId: 't1',
          actorId: null,
          actorName: null,
          changes: { code: { before: null, after: '[redacted]' } },
        }),
      ],
      { headers: { 'X-Total-Count': '3' } },
    ),
  });
  render(<PatientHistory patientId="p1" />);
  const items = await screen.findAllByRole('listitem');
  expect(items).toHaveLength(3);
  expect(items[0].textContent).toContain('Stammdaten geändert');
  expect(items[0].textContent).toContain('Clara Coach');
  const changes = within(items[0]).getByText('Telefon').nextElementSibling!;
  expect(changes.textContent).toContain('030 1');
  expect(changes.textContent).toContain('030 2');
  expect(within(items[0]).getByText('Nachsorge bis').nextElementSibling!.textContent).toContain('28.02.2027');
  // The coaches' names arrive with their own read: the entry names the coach once they are there.
  await waitFor(() => expect(items[1].textContent).toContain('Bernd Kollege zum Betreuungsteam hinzugefügt'));
  expect(items[2].textContent).toContain('Zugangscode erstellt');
  expect(items[2].textContent).toContain('System');
  expect(document.body.textContent).not.toContain('[redacted]');
});

test('an edited note shows its earlier versions with who wrote them and when', async () => {
  const { calls } = mockFetch({
    'GET /comments': json([note], { headers: { 'X-Total-Count': '1' } }),
    'GET /audit-log': json([
      entry({
        id: 'v2',
        entity: 'comment',
        entityId: 'c1',
        at: '2026-11-21T10:00:00.000Z',
        actorName: 'Clara Coach',
        changes: { text: { before: 'Rückruf.', after: 'Rückruf am Freitag.' } },
      }),
      entry({
        id: 'v1',
        entity: 'comment',
        entityId: 'c1',
        action: 'create',
        at: '2026-11-20T09:00:00.000Z',
        actorName: 'Clara Coach',
        changes: { text: { before: null, after: 'Rückruf.' } },
      }),
    ]),
  });
  render(<Comments patientId="p1" userId="coach-1" history />);
  const summary = await screen.findByText('Frühere Fassungen');
  fireEvent.click(summary);
  (summary.parentElement as HTMLDetailsElement).open = true;
  summary.parentElement!.dispatchEvent(new Event('toggle'));
  expect(await screen.findByText('Rückruf.')).toBeTruthy();
  expect(screen.getByText(/Fassung vom .*, von Clara Coach/)).toBeTruthy();
  const asked = calls.find((c) => c.path === '/v2/audit-log')!;
  expect(JSON.parse(new URLSearchParams(asked.search).get('filter')!).where).toEqual({ patientId: 'p1', entity: 'comment', entityId: 'c1' });
});

test('without the audit log an edited note offers no versions', async () => {
  mockFetch({ 'GET /comments': json([note], { headers: { 'X-Total-Count': '1' } }) });
  render(<Comments patientId="p1" userId="coach-1" />);
  await screen.findByText('Rückruf am Freitag.');
  expect(screen.queryByText('Frühere Fassungen')).toBeNull();
});

describe('deleted notes', () => {
  const deleted = {
    ...note,
    id: 'c9',
    text: 'Versehentlich beim falschen Patienten.',
    deletedAt: '2026-11-22T11:30:00.000Z',
    deletedBy: 'admin-1',
    deletedByName: 'Greta Gruber',
  };
  const routes = () => ({
    'GET /comments': (call: { search: string }) => {
      const where = JSON.parse(new URLSearchParams(call.search).get('filter')!).where;
      return json(where.deletedAt ? [deleted] : [note]);
    },
  });

  test('administrators see them with "gelöscht von … am …"', async () => {
    mockFetch(routes());
    render(<Comments patientId="p1" userId="admin-1" isAdmin />);
    const section = (await screen.findByRole('heading', { name: 'Gelöschte Kommentare (1)' })).closest('section')!;
    expect(within(section).getByText(/Kommentar gelöscht von Greta Gruber am/)).toBeTruthy();
    expect(within(section).getByText('Versehentlich beim falschen Patienten.')).toBeTruthy();
  });

  test('coaches never ask for them', async () => {
    const { calls } = mockFetch(routes());
    render(<Comments patientId="p1" userId="coach-1" />);
    await screen.findByText('Rückruf am Freitag.');
    expect(calls.filter((c) => c.path === '/v2/comments')).toHaveLength(1);
    expect(screen.queryByText(/gelöscht von/)).toBeNull();
  });

  test('an API that ignores the condition and answers live notes shows no such section', async () => {
    mockFetch({ 'GET /comments': json([note]) });
    render(<Comments patientId="p1" userId="admin-1" isAdmin />);
    await screen.findByText('Rückruf am Freitag.');
    expect(screen.queryByRole('heading', { name: /Gelöschte Kommentare/ })).toBeNull();
  });
});

test('an API that keeps no updatedAt does not make every note look edited', async () => {
  mockFetch({ 'GET /comments': json([{ ...note, updatedAt: undefined }]) });
  render(<Comments patientId="p1" userId="coach-1" history />);
  await screen.findByText('Rückruf am Freitag.');
  expect(screen.queryByText(/bearbeitet am/)).toBeNull();
  expect(screen.queryByText('Frühere Fassungen')).toBeNull();
});
