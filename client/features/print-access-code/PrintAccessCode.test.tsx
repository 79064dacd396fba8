import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { user } from '../../state/session.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { apiFailure, buildAppSettings, buildCoach } from '../../../test/helpers/screen-records.ts';
import type { PatientToken } from '../../../contract/schemas/patient-tokens.ts';
import { encode } from 'uqr';
import PrintAccessCodePage from './index.tsx';

vi.mock('../../api/patients.ts', () => ({ getPatient: vi.fn(), getPrimaryCoach: vi.fn() }));
vi.mock('../../api/patient-tokens.ts', () => ({ listPatientTokens: vi.fn() }));
const { getPatient, getPrimaryCoach } = vi.mocked(await import('../../api/patients.ts'));
const { listPatientTokens } = vi.mocked(await import('../../api/patient-tokens.ts'));
vi.mock('../../api/coaches.ts', () => ({ getCoach: vi.fn() }));
vi.mock('../../api/app-settings.ts', () => ({ getAppSettings: vi.fn() }));
const { getCoach } = vi.mocked(await import('../../api/coaches.ts'));
const { getAppSettings } = vi.mocked(await import('../../api/app-settings.ts'));

const token = (code: string, patientId: string | null): PatientToken => ({
  id: 't1',
  code,
  coachId: 'me',
  patientId,
  expiresAt: '2027-02-20T10:00:00.000Z',
  usedAt: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  label: null,
});
/** The token list answers these tokens to whatever is asked. */
const tokensKnown = (...tokens: PatientToken[]) => listPatientTokens.mockResolvedValue({ data: tokens, total: tokens.length });
const open = (path: string) => {
  history.replaceState(null, '', path);
  return render(<PrintAccessCodePage />);
};

beforeEach(() => {
  vi.resetAllMocks();
  user.value = buildMe({ id: 'me', email: 'clara@example.org', firstName: 'Clara', lastName: 'Coach' });
  tokensKnown();
  getPatient.mockRejectedValue(apiFailure(404));
  getPrimaryCoach.mockRejectedValue(apiFailure(404));
  getCoach.mockRejectedValue(new Error('403'));
  getAppSettings.mockResolvedValue({ data: buildAppSettings(), total: null });
});

test('the sheet shows the confirmed code in blocks, its expiry, German instructions and a print button', async () => {
  tokensKnown(token('K7QM-3RTX-9HPA-W', 'p1'));
  getPatient.mockResolvedValue({ data: { firstName: 'Anna', lastName: 'Müller' } as never, total: null });
  getPrimaryCoach.mockResolvedValue({
    data: { id: 'me', firstName: 'Clara', lastName: 'Coach', title: '', email: 'clara@example.org', phone: '0931 123' },
    total: null,
  });
  const print = vi.fn();
  Object.defineProperty(window, 'print', { value: print, configurable: true });
  open('/print/access-code?code=K7QM-3RTX-9HPA-W&patientId=p1');
  expect(await screen.findByText('3RTX')).toBeTruthy();
  expect(screen.getByRole('heading', { level: 1, name: 'Ihr Zugangscode' })).toBeTruthy();
  expect(screen.getByText(/Der Code gilt bis zum 20. Februar 2027/)).toBeTruthy();
  expect(screen.getByText(/Öffnen Sie die App und wählen Sie „Zugangscode eingeben“/)).toBeTruthy();
  expect(screen.getByText('für Anna Müller')).toBeTruthy();
  expect(screen.getByText(/Telefon: 0931 123/)).toBeTruthy();
  expect(listPatientTokens).toHaveBeenCalledWith({ where: { code: 'K7QM-3RTX-9HPA-W' }, limit: 1 }, expect.anything());
  fireEvent.click(screen.getByRole('button', { name: 'Drucken' }));
  expect(print).toHaveBeenCalled();
});

test('while the code is being checked the sheet shows no code and no print button', async () => {
  listPatientTokens.mockReturnValue(new Promise(() => {}));
  open('/print/access-code?code=K7QM-3RTX-9HPA-W');
  expect(screen.getByRole('status').textContent).toBe('Der Zugangscode wird geprüft …');
  expect(screen.queryByText('3RTX')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Drucken' })).toBeNull();
});

test.each([
  ['a code the server does not know', '/print/access-code?code=FAKE-CODE-1234', []],
  ['a known code of another patient', '/print/access-code?code=K7QM-3RTX&patientId=p1', [token('K7QM-3RTX', 'p2')]],
  ['a code that only resembles a known one', '/print/access-code?code=k7qm-3rtx', [token('K7QM-3RTX', null)]],
])('%s is not printed: a message stands in its place, under nobody’s name', async (_case, path, tokens) => {
  tokensKnown(...tokens);
  getPrimaryCoach.mockResolvedValue({ data: { id: 'me', firstName: 'Clara', lastName: 'Coach', title: '', email: 'c@x.org', phone: '1' }, total: null });
  const { container } = open(path);
  expect((await screen.findByRole('alert')).textContent).toContain('nicht bekannt oder gehört nicht zu diesem Patienten');
  expect(container.textContent).not.toMatch(/3RTX|FAKE|1234/i);
  expect(container.textContent).not.toContain('Clara Coach');
  expect(screen.queryByRole('button', { name: 'Drucken' })).toBeNull();
});

test('a check that fails shows no code and offers to check again', async () => {
  listPatientTokens.mockRejectedValueOnce(apiFailure(503));
  open('/print/access-code?code=K7QM-3RTX');
  expect((await screen.findByRole('alert')).textContent).toContain('konnte nicht geprüft werden');
  expect(screen.queryByText('3RTX')).toBeNull();
  tokensKnown(token('K7QM-3RTX', null));
  fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
  expect(await screen.findByText('3RTX')).toBeTruthy();
});

test('without a code the page explains where to open it from', () => {
  open('/print/access-code');
  expect(screen.getByRole('alert').textContent).toContain('kein Zugangscode');
});

test('the sheet still prints when name and coach cannot be read', async () => {
  tokensKnown(token('ABCD-EFGH', 'p1'));
  getPatient.mockRejectedValue(new Error('403'));
  getPrimaryCoach.mockRejectedValue(new Error('403'));
  open('/print/access-code?code=ABCD-EFGH&patientId=p1');
  expect(await screen.findByText(/Ihr Coach: Clara Coach/)).toBeTruthy();
  expect(screen.getByText('EFGH')).toBeTruthy();
  expect(screen.queryByText(/^für /)).toBeNull();
});

/** The dark squares the sheet's QR code draws, one "M x y" per module. */
const qrModules = (svg: Element) => (svg.querySelector('path')?.getAttribute('d')?.match(/M/g) ?? []).length;

test('the sheet carries a QR code of the app download link from the app settings, and the link as text', async () => {
  tokensKnown(token('ABCD-EFGH', null));
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
  tokensKnown(token('ABCD-EFGH', null));
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH');
  getAppSettings.mockResolvedValue({ data: buildAppSettings({ appDownloadUrl: ' ' }), total: null });
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Ihr Coach: Clara Coach/)).toBeTruthy();
  expect(screen.queryByRole('img')).toBeNull();
});

test('a code made for no patient yet carries the phone of the coach who prints it', async () => {
  tokensKnown(token('ABCD-EFGH', null));
  history.replaceState(null, '', '/print/access-code?code=ABCD-EFGH');
  getCoach.mockResolvedValue({ data: buildCoach({ id: 'me', firstName: 'Clara', lastName: 'Coach', phone: '0931 777 12' }), total: null });
  render(<PrintAccessCodePage />);
  expect(await screen.findByText(/Telefon: 0931 777 12/)).toBeTruthy();
  expect(getCoach).toHaveBeenCalledWith('me', expect.anything());
});
