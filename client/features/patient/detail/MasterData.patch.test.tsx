import { afterEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { json, mockFetch } from '../../../../test/helpers/client-fetch.ts';
import { buildPatient } from '../../../../test/helpers/screen-records.ts';
import { MasterData } from './MasterData.tsx';

afterEach(() => vi.unstubAllGlobals());

test('saving master data sends PATCH with only the changed fields', async () => {
  const patient = buildPatient({ id: 'p1', lastName: 'Müller', phone: '030 1' });
  const { calls } = mockFetch({
    'GET /coaches': json([]),
    'GET /diagnosis': json([]),
    'GET /cost-rates': json([]),
    'PATCH /patients/p1': (call) => json({ ...patient, ...(call.body as object) }),
  });
  render(<MasterData patient={patient} coachId="me" onSaved={() => undefined} />);
  fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
  fireEvent.input(await screen.findByLabelText('Nachname'), { target: { value: 'Müller-Lüdenscheidt' } });
  fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
  expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ lastName: 'Müller-Lüdenscheidt' });
});
