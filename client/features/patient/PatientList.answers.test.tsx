import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { json, mockFetch } from '../../../test/helpers/client-fetch.ts';
import { reportError } from '../../lib/error-reporting.ts';
import { user } from '../../state/session.ts';
import { PatientList } from './PatientList.tsx';

// Through the real API layer: what a screen does with answers of an upstream that is not the built-in one.
vi.mock('../../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));

beforeEach(() => {
  history.replaceState(null, '', '/patient');
  user.value = {
    id: '2',
    email: 'coach@example.org',
    firstName: '',
    lastName: '',
    isUserLocked: false,
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    emailVerified: false,
    language: '',
  };
});
afterEach(() => vi.unstubAllGlobals());

test('lists LoopBack answers: numeric ids become links, a coach without names is offered by email', async () => {
  mockFetch({
    'GET /patients': json([
      { id: 11, firstName: 'Karin', lastName: 'Krause', patientCode: 'LB-111' },
      { id: 12, patientCode: 'LB-112' },
    ]),
    'GET /coaches': json([
      { id: 2, email: 'coach@example.org' },
      { id: 5, email: 'nora@example.org' },
    ]),
  });
  render(<PatientList />);
  expect((await screen.findByRole('link', { name: 'Krause, Karin' })).getAttribute('href')).toBe('/patient/11');
  expect(screen.getByRole('link', { name: 'LB-112' }).getAttribute('href')).toBe('/patient/12');
  expect(screen.getByText('2 Patienten')).toBeTruthy();
  expect(await screen.findByRole('option', { name: 'nora@example.org' })).toBeTruthy();
});

test('an answer the list cannot use shows its error state, reported once however often it is retried', async () => {
  vi.mocked(reportError).mockClear();
  const { calls } = mockFetch({ 'GET /patients': json([{ firstName: 'ohne Id' }]), 'GET /coaches': json([]) });
  render(<PatientList />);
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Der Server hat eine unerwartete Antwort geschickt.');
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  await waitFor(() => expect(calls.filter((c) => c.path === '/v2/patients')).toHaveLength(2));
  await screen.findByRole('alert');
  expect(reportError).toHaveBeenCalledOnce();
  expect(String(vi.mocked(reportError).mock.calls[0][0])).not.toContain('ohne Id');
});
