import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { PatientSearchBox } from '../../components/patient-search/PatientSearchBox.tsx';
import { user } from '../../state/session.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { buildPatient } from '../../../test/helpers/screen-records.ts';
import { PatientList } from './PatientList.tsx';

vi.mock('../../api/patients.ts', async (original) => ({ ...(await original<typeof import('../../api/patients.ts')>()), listPatients: vi.fn() }));
vi.mock('../../api/coaches.ts', () => ({ listCoaches: vi.fn() }));
const { listPatients } = vi.mocked(await import('../../api/patients.ts'));
const { listCoaches } = vi.mocked(await import('../../api/coaches.ts'));

// Two patients of one name, as in the demo: only the date of birth tells them apart.
const twoUteWebers = () => [
  buildPatient({ id: 'u1', firstName: 'Ute', lastName: 'Weber', patientCode: 'KM-2345', birthDate: '1961-03-12' }),
  buildPatient({ id: 'u2', firstName: 'Ute', lastName: 'Weber', patientCode: 'PX-6789', birthDate: '1979-10-02' }),
];
const age = (birthDate: string) => {
  const [y, m, d] = birthDate.split('-').map(Number);
  const now = new Date();
  return now.getFullYear() - y - (now.getMonth() + 1 < m || (now.getMonth() + 1 === m && now.getDate() < d) ? 1 : 0);
};

beforeEach(() => {
  vi.resetAllMocks();
  user.value = buildMe({ id: 'coach-1' });
  listCoaches.mockResolvedValue({ data: [], total: 0 });
  history.replaceState(null, '', '/patient');
});

test('the search results tell two patients of one name apart by date of birth and age', async () => {
  listPatients.mockResolvedValue({ data: twoUteWebers(), total: 2 });
  render(<PatientSearchBox id="search" />);
  fireEvent.input(screen.getByLabelText('Name, Patientencode oder Telefon'), { target: { value: 'weber' } });
  const results = await screen.findByRole('list', { name: 'Suchergebnisse' });
  const links = within(results).getAllByRole('link');
  expect(links[0].textContent).toContain(`12.03.1961 (${age('1961-03-12')})`);
  expect(links[1].textContent).toContain(`02.10.1979 (${age('1979-10-02')})`);
  expect(
    within(results)
      .getByRole('link', { name: /Weber, Ute Geboren 12\.03\.1961/ })
      .getAttribute('href'),
  ).toBe('/patient/u1');
});

test('the patient list shows the date of birth under each name', async () => {
  listPatients.mockResolvedValue({ data: twoUteWebers(), total: 2 });
  render(<PatientList />);
  const rows = (await screen.findAllByRole('link', { name: 'Weber, Ute' })).map((link) => link.closest('td')!);
  expect(rows.map((cell) => cell.textContent)).toEqual([
    `Weber, UteGeboren 12.03.1961 (${age('1961-03-12')})`,
    `Weber, UteGeboren 02.10.1979 (${age('1979-10-02')})`,
  ]);
});

test('a patient whose aftercare has ended shows a neutral badge in the list, not a red light', async () => {
  const longAgo = new Date(Date.now() - 20 * 86400_000).toISOString();
  listPatients.mockResolvedValue({
    data: [
      buildPatient({ id: 'e', lastName: 'Ende', aftercareStart: '2025-01-01', aftercareEnd: '2025-06-30', lastDataAt: longAgo }),
      buildPatient({ id: 'a', lastName: 'Aktiv', aftercareStart: '2025-01-01', aftercareEnd: '2099-06-30', lastDataAt: longAgo }),
    ],
    total: 2,
  });
  render(<PatientList />);
  const ended = (await screen.findByRole('link', { name: 'Ende, Jonas' })).closest('tr')!;
  const active = screen.getByRole('link', { name: 'Aktiv, Jonas' }).closest('tr')!;
  expect(within(ended).getByText('(Nachsorge beendet)', { exact: false })).toBeTruthy();
  expect(ended.querySelector('.freshness-red')).toBeNull();
  expect(within(active).getByText('(Seit über 7 Tagen keine Daten)', { exact: false })).toBeTruthy();
});
