import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ApiError } from '../../../data/http.ts';
import { buildPatientToken } from '../../../../test/helpers/screen-records.ts';
import { AccessCode } from './AccessCode.tsx';
import { Devices } from './Devices.tsx';
import { RecoveryKeys } from './RecoveryKeys.tsx';

vi.mock('../../../api/patients.ts', () => ({
  getOrCreateUnusedToken: vi.fn(),
  listPuks: vi.fn(),
  createPuk: vi.fn(),
  listPatientDevices: vi.fn(),
  linkPatientDevice: vi.fn(),
  unlinkPatientDevice: vi.fn(),
}));
vi.mock('../../../api/devices.ts', () => ({ listDevices: vi.fn() }));
const api = vi.mocked(await import('../../../api/patients.ts'));
const { listDevices } = vi.mocked(await import('../../../api/devices.ts'));

beforeEach(() => vi.resetAllMocks());

test('the access code is only fetched on request (get-or-create makes one) and links to its print sheet', async () => {
  api.getOrCreateUnusedToken.mockResolvedValue({ data: buildPatientToken({ patientId: 'p1' }), total: null });
  render(<AccessCode patientId="p1" />);
  expect(api.getOrCreateUnusedToken).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Zugangscode anzeigen' }));
  expect(await screen.findByText('3RTX')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Zum Ausdrucken' }).getAttribute('href')).toBe('/print/access-code?code=K7QM-3RTX-9HPA-W&patientId=p1');
});

test('a new recovery key appears at the top; a failed one says so', async () => {
  api.listPuks.mockResolvedValue({ data: [], total: 0 });
  render(<RecoveryKeys patientId="p1" />);
  expect(await screen.findByText('Noch keine PUKs erstellt.')).toBeTruthy();
  api.createPuk.mockRejectedValueOnce(new ApiError(403, 'FORBIDDEN', 'x'));
  fireEvent.click(screen.getByRole('button', { name: 'Neuen PUK erstellen' }));
  expect((await screen.findByRole('alert')).textContent).toContain('Der PUK wurde nicht erstellt.');
  api.createPuk.mockResolvedValueOnce({
    data: { id: 'k1', patientId: 'p1', code: 'ABCD-EFGH', createdAt: '2026-11-22T12:00:00.000Z', usedAt: null },
    total: null,
  });
  fireEvent.click(screen.getByRole('button', { name: 'Neuen PUK erstellen' }));
  expect(await screen.findByText('EFGH')).toBeTruthy();
  expect(screen.getByText(/noch nicht benutzt/)).toBeTruthy();
});

test('a linked device can be removed', async () => {
  const device = { id: 'd1', name: 'Garmin vívosmart', type: 'activity-tracker' as const, serialNumber: 'GV-1', createdAt: '', updatedAt: '' };
  api.listPatientDevices.mockResolvedValueOnce({ data: [device], total: 1 });
  listDevices.mockResolvedValue({ data: [device], total: 1 });
  api.unlinkPatientDevice.mockResolvedValueOnce({ data: undefined, total: null });
  render(<Devices patientId="p1" />);
  const item = (await screen.findByText('Garmin vívosmart')).closest('li')!;
  api.listPatientDevices.mockResolvedValueOnce({ data: [], total: 0 });
  fireEvent.click(within(item).getByRole('button', { name: 'Gerät Garmin vívosmart entfernen' }));
  expect(await screen.findByText('Keine Geräte verknüpft.')).toBeTruthy();
  expect(api.unlinkPatientDevice).toHaveBeenCalledWith('p1', 'd1');
});
