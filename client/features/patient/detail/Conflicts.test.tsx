import { afterEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import type { Comment } from '../../../../contract/schemas/comments.ts';
import { json, mockFetch, type RecordedCall } from '../../../../test/helpers/client-fetch.ts';
import { MasterData } from './MasterData.tsx';
import { Comments } from './Comments.tsx';
import { Appointments } from './Appointments.tsx';
import { EvaluationForm } from './EvaluationForm.tsx';
import { press } from '../../../../test/helpers/client-press.ts';

/*
 * Optimistic concurrency through the real API layer: a write sends If-Match with the version it was based on; on
 * 412 what the person typed stays, the other change is shown, and saving again sends the current version.
 */
const V1 = '2026-11-20T09:00:00.000Z';
const V2 = '2026-11-20T09:05:00.000Z';
const V3 = '2026-11-20T09:06:00.000Z';
const anna: Patient = {
  id: 'p1',
  patientCode: 'NK-4821',
  firstName: 'Anna',
  lastName: 'Müller',
  birthDate: '1968-04-02',
  gender: 'female',
  email: null,
  phone: null,
  clinic: 'Bad Kissingen',
  aftercareStart: '2026-09-01',
  aftercareEnd: '2027-02-28',
  primaryCoachId: null,
  diagnosisIds: [],
  costRateId: null,
  appointments: [],
  lastDataAt: null,
  followUpAt: null,
  createdAt: V1,
  updatedAt: V1,
};
const conflict = (current: unknown, version: string) =>
  json(
    { error: { statusCode: 412, name: 'PreconditionFailedError', code: 'VERSION_MISMATCH', message: 'changed', current } },
    { status: 412, headers: { ETag: `"${version}"` } },
  );
const set = (el: HTMLElement, value: string) => fireEvent.input(el, { target: { value } });
const referenceData = { 'GET /coaches': json([]), 'GET /diagnosis': json([]), 'GET /cost-rates': json([]) };

afterEach(() => vi.unstubAllGlobals());

/** Answers the listed responses in turn for one route and records the If-Match of each call. */
function sequence(...answers: Response[]) {
  const ifMatch: (string | undefined)[] = [];
  let i = 0;
  return {
    ifMatch,
    respond: (call: RecordedCall) => {
      ifMatch.push(call.headers['if-match']);
      return answers[Math.min(i++, answers.length - 1)];
    },
  };
}

describe('master data', () => {
  test('a save after someone else\'s change keeps what was typed, shows their change, and "keep mine" saves over it knowingly', async () => {
    const theirs = { ...anna, phone: '030 999', updatedAt: V2 };
    const put = sequence(conflict(theirs, V2), json({ ...theirs, lastName: 'Müller-Lüdenscheidt', updatedAt: V3 }, { headers: { ETag: `"${V3}"` } }));
    mockFetch({ ...referenceData, 'PATCH /patients/p1': put.respond });
    const onSaved = vi.fn();
    render(<MasterData patient={anna} coachId="me" onSaved={onSaved} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Nachname'), 'Müller-Lüdenscheidt');
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));

    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Inzwischen geändert.');
    expect(within(notice).getByText('Telefon').nextElementSibling?.textContent).toBe('030 999');
    expect((screen.getByLabelText('Nachname') as HTMLInputElement).value).toBe('Müller-Lüdenscheidt');
    expect(onSaved).not.toHaveBeenCalled();
    expect(put.ifMatch).toEqual([`"${V1}"`]);

    await press(within(notice).getByRole('button', { name: 'Meine Fassung speichern' }));
    await screen.findByText('Die Stammdaten wurden gespeichert.');
    expect(put.ifMatch).toEqual([`"${V1}"`, `"${V2}"`]);
    expect(onSaved).toHaveBeenLastCalledWith(expect.objectContaining({ lastName: 'Müller-Lüdenscheidt', phone: '030 999' }));
  });

  test('"take theirs" fills the form with the other version', async () => {
    const theirs = { ...anna, clinic: 'Reha-Klinik Damp', updatedAt: V2 };
    mockFetch({ ...referenceData, 'PATCH /patients/p1': conflict(theirs, V2) });
    const onSaved = vi.fn();
    render(<MasterData patient={anna} coachId="me" onSaved={onSaved} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Reha-Klinik'), 'Meine Klinik');
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Andere Fassung übernehmen' }));
    await waitFor(() => expect((screen.getByLabelText('Reha-Klinik') as HTMLInputElement).value).toBe('Reha-Klinik Damp'));
    expect(screen.queryByText('Inzwischen geändert.')).toBeNull();
    expect(onSaved).toHaveBeenCalledWith(theirs);
  });

  test('a 412 for a change the form does not show (a new appointment) is saved again with the new version, unnoticed', async () => {
    const theirs = {
      ...anna,
      appointments: [{ id: 'a1', startsAt: '2026-12-01T09:00:00.000Z', durationMinutes: 30, type: 'phone' as const, note: '' }],
      updatedAt: V2,
    };
    const put = sequence(conflict(theirs, V2), json({ ...theirs, phone: '0931 1', updatedAt: V3 }));
    mockFetch({ ...referenceData, 'PATCH /patients/p1': put.respond });
    render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Telefon'), '0931 1');
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    await screen.findByText('Die Stammdaten wurden gespeichert.');
    expect(put.ifMatch).toEqual([`"${V1}"`, `"${V2}"`]);
  });
});

describe('comments', () => {
  const note: Comment = {
    id: 'c1',
    patientId: 'p1',
    authorId: 'me',
    authorName: 'Clara Coach',
    text: 'Telefonat geführt.',
    createdAt: V1,
    updatedAt: V1,
    deletedAt: null,
    deletedBy: null,
    deletedByName: null,
  };

  test('an edit that meets a change keeps the typed text and shows the other text', async () => {
    const theirs = { ...note, text: 'Telefonat geführt. Ergänzt von der Verwaltung.', updatedAt: V2 };
    const patch = sequence(conflict(theirs, V2), json({ ...theirs, text: 'Meine Korrektur', updatedAt: V3 }));
    mockFetch({ 'GET /comments': json([note], { headers: { 'X-Total-Count': '1' } }), 'PATCH /comments/c1': patch.respond });
    render(<Comments patientId="p1" userId="me" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
    set(screen.getByLabelText('Kommentar bearbeiten'), 'Meine Korrektur');
    fireEvent.click(screen.getByRole('button', { name: 'Änderung speichern' }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Ergänzt von der Verwaltung.');
    expect((screen.getByLabelText('Kommentar bearbeiten') as HTMLTextAreaElement).value).toBe('Meine Korrektur');
    await press(within(notice).getByRole('button', { name: 'Meine Fassung speichern' }));
    await screen.findByText('Meine Korrektur', { selector: 'p' });
    expect(patch.ifMatch).toEqual([`"${V1}"`, `"${V2}"`]);
  });

  test('a deletion that meets a change asks again, showing the new text', async () => {
    const theirs = { ...note, text: 'Neu gefasst', updatedAt: V2 };
    const remove = sequence(conflict(theirs, V2), new Response(null, { status: 204 }));
    mockFetch({ 'GET /comments': json([note], { headers: { 'X-Total-Count': '1' } }), 'DELETE /comments/c1': remove.respond });
    render(<Comments patientId="p1" userId="me" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Löschen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Endgültig löschen', hidden: true }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Neu gefasst');
    await press(within(notice).getByRole('button', { name: 'Trotzdem löschen' }));
    await waitFor(() => expect(screen.queryByText('Telefonat geführt.')).toBeNull());
    expect(remove.ifMatch).toEqual([`"${V1}"`, `"${V2}"`]);
  });
});

describe('appointments and the evaluation form', () => {
  test('an appointment list saved against an older version of the patient shows the current list and keeps the new entry', async () => {
    const theirs = [{ id: 'a9', startsAt: '2099-02-01T09:00:00.000Z', durationMinutes: 45, type: 'video', note: 'von der Kollegin' }];
    const put = sequence(conflict(theirs, V2), json([]));
    mockFetch({ 'PUT /patients/p1/appointments': put.respond });
    render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
    set(screen.getByLabelText('Beginn'), '2099-03-01T10:00');
    set(screen.getByLabelText('Notiz'), 'Rückfallprophylaxe');
    fireEvent.click(screen.getByRole('button', { name: 'Termin eintragen' }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('von der Kollegin');
    expect(screen.getByText('Rückfallprophylaxe')).toBeTruthy();
    expect(put.ifMatch).toEqual([`"${V1}"`]);
    await press(within(notice).getByRole('button', { name: 'Meine Fassung speichern' }));
    await waitFor(() => expect(put.ifMatch).toEqual([`"${V1}"`, `"${V2}"`]));
  });

  test('the evaluation form keeps what was entered and shows the other summary', async () => {
    const saved = {
      patientId: 'p1',
      goalAttainment: 3,
      workAbility: null,
      returnToWorkDate: null,
      followUpRecommended: false,
      summary: 'Alt',
      updatedBy: 'x',
      updatedAt: V1,
    };
    const theirs = { ...saved, summary: 'Von der Kollegin ergänzt', updatedBy: 'y', updatedAt: V2 };
    const put = sequence(conflict(theirs, V2));
    mockFetch({ 'GET /patients/p1/evaluation-form': json(saved, { headers: { ETag: `"${V1}"` } }), 'PUT /patients/p1/evaluation-form': put.respond });
    render(<EvaluationForm patientId="p1" coachId="me" />);
    set(await screen.findByLabelText('Zusammenfassung'), 'Meine Zusammenfassung');
    fireEvent.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Von der Kollegin ergänzt');
    expect((screen.getByLabelText('Zusammenfassung') as HTMLTextAreaElement).value).toBe('Meine Zusammenfassung');
    expect(put.ifMatch).toEqual([`"${V1}"`]);
    await press(within(notice).getByRole('button', { name: 'Andere Fassung übernehmen' }));
    await waitFor(() => expect((screen.getByLabelText('Zusammenfassung') as HTMLTextAreaElement).value).toBe('Von der Kollegin ergänzt'));
  });

  test('a form never saved sends no If-Match (there is no version yet)', async () => {
    const empty = {
      patientId: 'p1',
      goalAttainment: null,
      workAbility: null,
      returnToWorkDate: null,
      followUpRecommended: false,
      summary: '',
      updatedBy: null,
      updatedAt: null,
    };
    const put = sequence(json({ ...empty, summary: 'Erstmals', updatedBy: 'me', updatedAt: V1 }, { headers: { ETag: `"${V1}"` } }));
    mockFetch({ 'GET /patients/p1/evaluation-form': json(empty), 'PUT /patients/p1/evaluation-form': put.respond });
    render(<EvaluationForm patientId="p1" coachId="me" />);
    set(await screen.findByLabelText('Zusammenfassung'), 'Erstmals');
    fireEvent.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    await screen.findByRole('status');
    expect(put.ifMatch).toEqual([undefined]);
  });
});
