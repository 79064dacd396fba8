import { afterEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { apiError, json, mockFetch } from '../../../../test/helpers/client-fetch.ts';
import { EvaluationForm } from './EvaluationForm.tsx';
import { AccessCode } from './AccessCode.tsx';
import { CareTeam } from './CareTeam.tsx';

// "None yet" is not an error: a 404 on a singular sub-resource shows the empty state, from which the coach creates it.

afterEach(() => vi.unstubAllGlobals());

test('a patient without an evaluation form (404) gets an empty form that the first PUT saves', async () => {
  const { calls } = mockFetch({
    'GET /patients/p1/evaluation-form': apiError(404, 'MODEL_NOT_FOUND', 'Unknown "EvaluationForm"'),
    'PUT /patients/p1/evaluation-form': (call) => json({ patientId: 'p1', ...(call.body as object), updatedBy: 'me', updatedAt: '2026-11-26T08:00:00.000Z' }),
  });
  render(<EvaluationForm patientId="p1" coachId="me" />);
  const summary = (await screen.findByLabelText('Zusammenfassung')) as HTMLTextAreaElement;
  expect(summary.value).toBe('');
  expect(screen.queryByRole('alert')).toBeNull();
  fireEvent.input(summary, { target: { value: 'Ziele erreicht.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
  expect(await screen.findByText('Die Bewertung wurde gespeichert.')).toBeTruthy();
  const put = calls.find((c) => c.method === 'PUT')!;
  expect(put.body).toMatchObject({ summary: 'Ziele erreicht.', goalAttainment: null, followUpRecommended: false });
  expect(put.headers['if-match']).toBeUndefined();
});

test('no unused access code (404) offers to create one', async () => {
  const { calls } = mockFetch({
    'GET /patients/p1/token/get-or-create-unused': apiError(404),
    'POST /patientTokens': json({ id: 9, code: 'K7QMR3TXW', expiresAt: '2027-02-24T00:00:00.000Z' }),
  });
  render(<AccessCode patientId="p1" />);
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode anzeigen' }));
  expect(await screen.findByText('Für diesen Patienten gibt es noch keinen unbenutzten Zugangscode.')).toBeTruthy();
  expect(screen.queryByRole('alert')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode erstellen' }));
  await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ patientId: 'p1' }));
  expect(await screen.findByText('Gültig bis', { exact: false })).toBeTruthy();
});

test('no primary coach (404) reads as unassigned, not as an error', async () => {
  mockFetch({ 'GET /patients/p1/primary-coach': apiError(404), 'GET /patients/p1/coaches': json([]), 'GET /coaches': json([]) });
  render(<CareTeam patientId="p1" />);
  await waitFor(() => expect(screen.queryByText(/Wird geladen/)).toBeNull());
  expect(screen.queryByRole('alert')).toBeNull();
});
