import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { user } from '../../state/session.ts';
import { encode } from 'uqr';
import { buildAppSettings, buildCoach } from '../../../test/helpers/screen-records.ts';
import PrintAccessCodePage from './index.tsx';

vi.mock('../../api/patients.ts', () => ({ getPatient: vi.fn(), getPrimaryCoach: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
const { getPatient, getPrimaryCoach } = vi.mocked(await import('../../api/patients.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));
vi.mock('../../api/coaches.ts', () => ({ getCoach: vi.fn() }));
vi.mock('../../api/app-settings.ts', () => ({ getAppSettings: vi.fn() }));
const { getCoach } = vi.mocked(await import('../../api/coaches.ts'));
const { getAppSettings } = vi.mocked(await import('../../api/app-settings.ts'));

beforeEach(() => {
  vi.resetAllMocks();
  user.value = {
    id: 'me',
    email: 'clara@example.org',
    firstName: 'Clara',
    lastName: 'Coach',
    isUserLocked: false,
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    emailVerified: true,
    language: 'de',
  };
  listPatientTokens.mockResolvedValue({ data: [], total: 0 });
  getCoach.mockRejectedValue(new Error('403'));
  getAppSettings.mockResolvedValue({ data: buildAppSettings(), total: null });
});

test('the sheet shows the code in blocks, German instructions and a print button', async () => {
  history.replaceState(null, '', '/print/access-code?code=K7QM-3RTX-9HPA-W&patientId=p1');
  getPatient.mockResolvedValue({ data: { firstName: 'Anna', lastName: 'Müller' } as never, total: null });
  getPrimaryCoach.mockResolvedValue({
    data: { id: 'me', firstName: 'Clara', lastName: 'Coach', title: '', email: 'clara@example.org', phone: '0931 123' },
    total: null,
  });
  const print = vi.fn();
  Object.defineProperty(window, 'print', { value: print, configurable: true });
  render(<PrintAccessCodePage />);
  expect(screen.getByRole('heading', { level: 1, name: 'Ihr Zugangscode' })).toBeTruthy();
  expect(screen.getByText('3RTX')).toBeTruthy();
  expect(screen.getByText(/Öffnen Sie die App und wählen Sie „Zugangscode eingeben“/)).toBeTruthy();
  expect(await screen.findByText('für Anna Müller')).toBeTruthy();
  expect(await screen.findByText(/Telefon: 0931 123/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Drucken' }));
  expect(print).toHaveBeenCalled();
});

test('without a code the page explains where to open it from', () => {
  history.replaceState(null, '', '/print/access-code');
  render(<PrintAccessCodePage />);
  expect(screen.getByRole('alert').textContent).toContain('kein Zugangscode');
});

test('the sheet still prints when name and coach cannot be read', async () => {
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH&patientId=p1');
  getPatient.mockRejectedValue(new Error('403'));
  getPrimaryCoach.mockRejectedValue(new Error('403'));
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Ihr Coach: Clara Coach/)).toBeTruthy();
  expect(screen.getByText('EFGH')).toBeTruthy();
  expect(screen.queryByText(/für /)).toBeNull();
});

/** The dark squares the sheet's QR code draws, one "M x y" per module. */
const qrModules = (svg: Element) => (svg.querySelector('path')?.getAttribute('d')?.match(/M/g) ?? []).length;

test('the sheet carries a QR code of the app download link from the app settings, and the link as text', async () => {
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH');
  const url = 'https://apps.example.org/nachsorge?ref=print';
  getAppSettings.mockResolvedValue({ data: buildAppSettings({ appDownloadUrl: url }), total: null });
  render(<PrintAccessCodePage />);
  const qr = await screen.findByRole('img', { name: 'QR-Code mit der Adresse zum Herunterladen der App' });
  expect(screen.getByText(url)).toBeTruthy();
  // The squares are those of this link's QR code (another text gives another pattern).
  const expected = encode(url, { ecc: 'M', border: 2 });
  expect(qr.getAttribute('viewBox')).toBe(`0 0 ${expected.size} ${expected.size}`);
  expect(qrModules(qr)).toBe(expected.data.flat().filter(Boolean).length);
  expect(qrModules(qr)).not.toBe(encode('https://example.org/app', { ecc: 'M', border: 2 }).data.flat().filter(Boolean).length);
});

test('without a download link in the app settings the sheet has no QR code', async () => {
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH');
  getAppSettings.mockResolvedValue({ data: buildAppSettings({ appDownloadUrl: ' ' }), total: null });
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Ihr Coach: Clara Coach/)).toBeTruthy();
  expect(screen.queryByRole('img')).toBeNull();
});

test('a code made for no patient yet carries the phone of the coach who prints it', async () => {
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH');
  getCoach.mockResolvedValue({ data: buildCoach({ id: 'me', firstName: 'Clara', lastName: 'Coach', phone: '0931 777 12' }), total: null });
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Telefon: 0931 777 12/)).toBeTruthy();
  expect(getCoach).toHaveBeenCalledWith('me', expect.anything());
});
