import { expect, test } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { buildMe, json, mockFetch } from '../../../test/helpers/client-fetch.ts';
import { buildPatient } from '../../../test/helpers/screen-records.ts';
import { lastOpenedReader } from '../../lib/last-opened.ts';
import { user } from '../../state/session.ts';
import { PatientDetail } from './PatientDetail.tsx';

test('opening a patient counts as "last opened" for the dashboard\'s new-note flag, for this coach only', async () => {
  user.value = buildMe({ id: 'coach-1' });
  history.replaceState(null, '', '/patient/p1');
  mockFetch({ 'GET /patients/p1': json(buildPatient({ id: 'p1', firstName: 'Anna', lastName: 'Müller' })) });
  const before = Date.now();
  render(<PatientDetail id="p1" />);
  await screen.findByRole('heading', { name: 'Anna Müller' });
  expect(lastOpenedReader('coach-1')('p1')).toBeGreaterThanOrEqual(before);
  expect(lastOpenedReader('coach-2')('p1')).toBeNull();
});
