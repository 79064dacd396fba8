import { beforeEach, expect, test, vi } from 'vitest';
import { act, render, screen } from '@testing-library/preact';
import { user } from '../../state/session.ts';
import { systemSettings } from '../../state/settings.ts';
import PatientArea from './index.tsx';
import { buildMe } from '../../../test/helpers/client-fetch.ts';

// Who may create a patient (docs/product.md#roles): the "Patient anlegen" button and /patient/new.
vi.mock('../../api/patients.ts', async (original) => ({ ...(await original<typeof import('../../api/patients.ts')>()), listPatients: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
const { listPatients } = vi.mocked(await import('../../api/patients.ts'));
const { listCoaches } = vi.mocked(await import('../../api/coaches.ts'));
const me = buildMe({ id: 'me' });

beforeEach(() => {
  vi.resetAllMocks();
  user.value = me;
  systemSettings.value = null;
  listCoaches.mockResolvedValue({ data: [], total: 0 });
  history.replaceState(null, '', '/patient');
});

test('a coach sees "Patient anlegen" while settings load and when the system allows it', async () => {
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(<PatientArea />);
  expect(await screen.findByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
  await act(() => {
    systemSettings.value = { enable_creating_new_patients: true, instance_name: 'CL' };
  });
  expect(screen.getByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
});

test('a coach does not see "Patient anlegen" when the system setting forbids it', async () => {
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(<PatientArea />);
  await screen.findByText(/Noch keine Patienten/);
  expect(screen.queryByRole('button', { name: 'Patient anlegen' })).toBeNull();
});

test('an administrator always sees "Patient anlegen"', async () => {
  user.value = { ...me, isAdmin: true };
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(<PatientArea />);
  expect(await screen.findByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
});

test('opening /patient/new without permission explains it instead of showing the form', async () => {
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  history.replaceState(null, '', '/patient/new');
  render(<PatientArea />);
  expect(screen.getByRole('alert').textContent).toContain('nicht freigegeben');
  expect(screen.queryByLabelText('Vorname')).toBeNull();
});
