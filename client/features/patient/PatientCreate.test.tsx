import { beforeEach, expect, test, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { user } from '../../state/session.ts';
import { systemSettings } from '../../state/settings.ts';
import { inArea } from '../../../test/helpers/screen-render.tsx';
import PatientArea from './index.tsx';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { apiFailure, buildCoach } from '../../../test/helpers/screen-records.ts';

// Who may create a patient (docs/product.md#roles): the "Patient anlegen" button and /patient/new.
vi.mock('../../api/patients.ts', async (original) => ({
  ...(await original<typeof import('../../api/patients.ts')>()),
  listPatients: vi.fn(),
  createPatient: vi.fn(),
}));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
vi.mock('../../api/diagnosis.ts', () => ({ listDiagnoses: vi.fn(async () => ({ data: [], total: 0 })) }));
vi.mock('../../api/cost-rates.ts', () => ({ listCostRates: vi.fn(async () => ({ data: [], total: 0 })) }));
const { listPatients, createPatient } = vi.mocked(await import('../../api/patients.ts'));
const { listCoaches } = vi.mocked(await import('../../api/coaches.ts'));
const me = buildMe({ id: 'me' });

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  user.value = me;
  systemSettings.value = null;
  listCoaches.mockResolvedValue({ data: [buildCoach({ id: 'me' }), buildCoach({ id: 'c2', lastName: 'Kollege' })], total: 2 });
  history.replaceState(null, '', '/patient');
});

test('a coach sees "Patient anlegen" while settings load and when the system allows it', async () => {
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(inArea(<PatientArea />));
  expect(await screen.findByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
  await act(() => {
    systemSettings.value = { enable_creating_new_patients: true, instance_name: 'CL' };
  });
  expect(screen.getByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
});

test('a coach does not see "Patient anlegen" when the system setting forbids it', async () => {
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(inArea(<PatientArea />));
  await screen.findByText(/Noch keine Patienten/);
  expect(screen.queryByRole('button', { name: 'Patient anlegen' })).toBeNull();
});

test('an administrator always sees "Patient anlegen"', async () => {
  user.value = { ...me, isAdmin: true };
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  listPatients.mockResolvedValue({ data: [], total: 0 });
  render(inArea(<PatientArea />));
  expect(await screen.findByRole('button', { name: 'Patient anlegen' })).toBeTruthy();
});

test('opening /patient/new without permission explains it instead of showing the form', async () => {
  systemSettings.value = { enable_creating_new_patients: false, instance_name: 'CL' };
  history.replaceState(null, '', '/patient/new');
  render(inArea(<PatientArea />));
  expect(screen.getByRole('alert').textContent).toContain('nicht freigegeben');
  expect(screen.queryByLabelText('Vorname')).toBeNull();
});

const openNewPatientForm = async () => {
  history.replaceState(null, '', '/patient/new');
  render(inArea(<PatientArea />));
  return (await screen.findByLabelText('Vorname')) as HTMLInputElement;
};

test('only an administrator picks another primary coach for a new patient; a coach creates into their own caseload', async () => {
  await openNewPatientForm();
  expect(screen.queryByLabelText('Hauptverantwortlicher Coach')).toBeNull();
  cleanup();
  user.value = { ...me, isAdmin: true };
  await openNewPatientForm();
  expect(screen.getByLabelText('Hauptverantwortlicher Coach')).toBeTruthy();
});

test('too many new patients in a short time is said plainly, and the form keeps what was typed', async () => {
  createPatient.mockRejectedValue(apiFailure(429, 'RATE_LIMITED'));
  const firstName = await openNewPatientForm();
  const fill = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
  fill('Vorname', 'Eva');
  fill('Nachname', 'Lang');
  fill('Geburtsdatum', '1970-05-01');
  fill('Nachsorge ab', '2026-11-01');
  fill('Nachsorge bis', '2027-04-30');
  fireEvent.click(screen.getByRole('button', { name: 'Patient anlegen' }));
  await waitFor(() => expect(createPatient).toHaveBeenCalled());
  expect(createPatient.mock.calls[0][0]).toMatchObject({ firstName: 'Eva', primaryCoachId: 'me' });
  expect((await screen.findByRole('alert')).textContent).toContain('Zu viele neue Patienten in kurzer Zeit. Bitte versuchen Sie es in einigen Minuten erneut.');
  expect(firstName.value).toBe('Eva');
  expect((screen.getByLabelText('Nachsorge bis') as HTMLInputElement).value).toBe('2027-04-30');
});
