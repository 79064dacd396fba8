import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { apiError, json, mockFetch, type RecordedCall } from '../../../../test/helpers/client-fetch.ts';
import { clearDrafts } from '../../../lib/drafts.ts';
import { reloadWithinSession, signedInCoach } from '../../../../test/helpers/client-drafts.ts';
import { hasUnsavedChanges, resetUnsavedForTests } from '../../../lib/unsaved.ts';
import { MasterData } from './MasterData.tsx';
import { Appointments } from './Appointments.tsx';
import { EvaluationForm } from './EvaluationForm.tsx';

/*
 * Nothing typed is lost: each form keeps a draft per coach and record until the server confirms the save. A test
 * "reloads" by unmounting the form and rendering it again from scratch, with only the sealed drafts in localStorage
 * left and the session still live (reloadWithinSession).
 */
const V1 = '2026-11-20T09:00:00.000Z';
const V2 = '2026-11-20T09:05:00.000Z';
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
const referenceData = { 'GET /coaches': json([]), 'GET /diagnosis': json([]), 'GET /cost-rates': json([]) };
const set = (el: HTMLElement, value: string) => fireEvent.input(el, { target: { value } });
const drafts = () => Object.keys(localStorage).filter((k) => k.startsWith('draft:'));
const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

beforeEach(() => {
  resetUnsavedForTests();
  signedInCoach('me');
});
afterEach(() => vi.unstubAllGlobals());

describe('master data', () => {
  test('typed values come back after a reload, and a save then sends the version they were typed on', async () => {
    const calls: RecordedCall[] = [];
    mockFetch({ ...referenceData, 'PATCH /patients/p1': (call) => (calls.push(call), json({ ...anna, phone: '0931 4711', updatedAt: V2 })) });
    const first = render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Telefon'), '0931 4711');
    expect(hasUnsavedChanges()).toBe(true);
    // Preact runs the cleanup of a removed component's effects with the next flush.
    act(() => {
      first.unmount();
    });
    expect(hasUnsavedChanges()).toBe(false);
    await reloadWithinSession();

    // Reloaded: the patient as the server has it, the form open with what was typed.
    render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    expect(await screen.findByText('Nicht gespeicherte Änderungen wiederhergestellt.')).toBeTruthy();
    expect(((await screen.findByLabelText('Telefon')) as HTMLInputElement).value).toBe('0931 4711');
    expect(hasUnsavedChanges()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    await screen.findByText('Die Stammdaten wurden gespeichert.');
    expect(calls[0].headers['if-match']).toBe(`"${V1}"`);
    expect(calls[0].body).toMatchObject({ phone: '0931 4711' });
    expect(drafts()).toEqual([]);
    expect(hasUnsavedChanges()).toBe(false);
  });

  test("a failed save keeps the draft; a draft from before a colleague's change meets their version on save", async () => {
    const theirs = { ...anna, clinic: 'Reha-Klinik Damp', updatedAt: V2 };
    mockFetch({ ...referenceData, 'PATCH /patients/p1': apiError(503) });
    const first = render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Telefon'), '0931 4711');
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    await screen.findByText(/Nicht gespeichert/);
    await waitFor(() => expect(drafts()).toEqual(['draft:me:p1:master-data']));
    first.unmount();
    await reloadWithinSession();

    mockFetch({
      ...referenceData,
      'PATCH /patients/p1': json(
        { error: { statusCode: 412, message: 'changed', code: 'VERSION_MISMATCH', current: theirs } },
        { status: 412, headers: { ETag: `"${V2}"` } },
      ),
    });
    render(<MasterData patient={theirs} coachId="me" onSaved={() => undefined} />);
    expect(await screen.findByLabelText('Telefon')).toBeTruthy();
    expect(value('Telefon')).toBe('0931 4711');
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText('Reha-Klinik').nextElementSibling?.textContent).toBe('Reha-Klinik Damp');
    expect(value('Telefon')).toBe('0931 4711');
  });

  test('drafts belong to one coach; another coach at the same browser starts from the record', async () => {
    mockFetch(referenceData);
    const first = render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Telefon'), '0931 4711');
    first.unmount();
    await reloadWithinSession();
    signedInCoach('colleague');
    render(<MasterData patient={anna} coachId="colleague" onSaved={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Bearbeiten' })).toBeTruthy();
    expect(screen.queryByLabelText('Telefon')).toBeNull();
  });

  test("cancel drops the draft, and the session's end removes it", async () => {
    mockFetch(referenceData);
    render(<MasterData patient={anna} coachId="me" onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    set(await screen.findByLabelText('Telefon'), '0931 4711');
    await waitFor(() => expect(drafts()).toHaveLength(1));
    clearDrafts();
    expect(drafts()).toEqual([]);
    set(screen.getByLabelText('Telefon'), '0931 4712');
    fireEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(drafts()).toEqual([]);
    expect(hasUnsavedChanges()).toBe(false);
  });
});

test('the closing assessment survives switching tabs (the form leaves the screen and comes back)', async () => {
  const saved = {
    patientId: 'p1',
    goalAttainment: null,
    workAbility: null,
    returnToWorkDate: null,
    followUpRecommended: false,
    summary: '',
    updatedBy: null,
    updatedAt: null,
  };
  mockFetch({ 'GET /patients/p1/evaluation-form': json(saved) });
  const first = render(<EvaluationForm patientId="p1" coachId="me" />);
  set(await screen.findByLabelText('Zusammenfassung'), 'Ziele weitgehend erreicht.');
  fireEvent.click(screen.getByLabelText('Weitere Behandlung empfohlen', { exact: false }));
  first.unmount();
  await reloadWithinSession();
  render(<EvaluationForm patientId="p1" coachId="me" />);
  await waitFor(() => expect((screen.getByLabelText('Zusammenfassung') as HTMLTextAreaElement).value).toBe('Ziele weitgehend erreicht.'));
  expect((screen.getByLabelText('Weitere Behandlung empfohlen', { exact: false }) as HTMLInputElement).checked).toBe(true);
  expect(screen.getByText('Nicht gespeicherte Änderungen wiederhergestellt.')).toBeTruthy();
});

test('an appointment entered while the server is down survives a reload and is saved from there', async () => {
  mockFetch({ 'PUT /patients/p1/appointments': apiError(503) });
  const first = render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
  set(screen.getByLabelText('Beginn'), '2099-03-01T10:00');
  set(screen.getByLabelText('Notiz'), 'Rückfallprophylaxe');
  fireEvent.click(screen.getByRole('button', { name: 'Termin eintragen' }));
  await screen.findByRole('alert');
  first.unmount();
  await reloadWithinSession();

  const put: RecordedCall[] = [];
  mockFetch({ 'PUT /patients/p1/appointments': (call) => (put.push(call), json(call.body)) });
  render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
  expect(screen.getByText('Rückfallprophylaxe')).toBeTruthy();
  expect(screen.getByText(/noch nicht gespeichert/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Jetzt speichern' }));
  await waitFor(() => expect(drafts()).toEqual([]));
  expect(put[0].headers['if-match']).toBe(`"${V1}"`);
  expect(put[0].body).toEqual([expect.objectContaining({ note: 'Rückfallprophylaxe', durationMinutes: 30 })]);
});

test('an appointment half typed comes back after a reload', async () => {
  mockFetch({});
  const first = render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
  set(screen.getByLabelText('Notiz'), 'Angehörigengespräch');
  first.unmount();
  await reloadWithinSession();
  render(<Appointments patient={anna} coachId="me" onSaved={() => undefined} />);
  expect(value('Notiz')).toBe('Angehörigengespräch');
});
