import { describe, test, expect, vi, beforeEach } from 'vitest';
import { screen, fireEvent, waitFor, within } from '@testing-library/preact';
import { apiFailure, buildDevice, buildEndpoint, ok, ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';

vi.mock('../../api/devices.ts', () => ({ listDevices: vi.fn(), createDevice: vi.fn(), updateDevice: vi.fn(), deleteDevice: vi.fn() }));
vi.mock('../../api/replication-endpoints.ts', () => ({
  listReplicationEndpoints: vi.fn(),
  createReplicationEndpoint: vi.fn(),
  updateReplicationEndpoint: vi.fn(),
  deleteReplicationEndpoint: vi.fn(),
}));
vi.mock('../../api/surveys.ts', () => ({ listSurveys: vi.fn(), createSurvey: vi.fn(), updateSurvey: vi.fn(), deleteSurvey: vi.fn() }));
vi.mock('../../api/cost-rates.ts', () => ({ listCostRates: vi.fn(), createCostRate: vi.fn(), updateCostRate: vi.fn(), deleteCostRate: vi.fn() }));
vi.mock('../../api/diagnosis.ts', () => ({ listDiagnoses: vi.fn(), createDiagnosis: vi.fn(), updateDiagnosis: vi.fn(), deleteDiagnosis: vi.fn() }));

const devices = await import('../../api/devices.ts');
const endpoints = await import('../../api/replication-endpoints.ts');
const surveys = await import('../../api/surveys.ts');
const costRates = await import('../../api/cost-rates.ts');
const diagnoses = await import('../../api/diagnosis.ts');
const { user } = await import('../../state/session.ts');
const { default: AdminPage } = await import('./index.tsx');
const { parseEuroCents } = await import('./reference/cost-rates.tsx');

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText(new RegExp(`^${label}( \\*)?$`)) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.input(field(label), { target: { value } });

beforeEach(() => {
  vi.mocked(devices.listDevices)
    .mockReset()
    .mockImplementation(() => ok([buildDevice(), buildDevice({ id: 'd-2', name: 'Omron M500', type: 'blood-pressure-monitor', serialNumber: 'OM-7' })]));
  vi.mocked(devices.createDevice)
    .mockReset()
    .mockImplementation((body) => ok(buildDevice({ id: 'd-3', ...body } as never)));
  vi.mocked(devices.deleteDevice)
    .mockReset()
    .mockImplementation(() => ok(undefined));
  vi.mocked(endpoints.listReplicationEndpoints)
    .mockReset()
    .mockImplementation(() =>
      ok([buildEndpoint(), buildEndpoint({ id: 'r-2', name: 'Backup', protocol: 'http', host: 'backup.example.org', port: 8080, path: '' })]),
    );
  vi.mocked(endpoints.createReplicationEndpoint)
    .mockReset()
    .mockImplementation(() => ok(buildEndpoint()));
  vi.mocked(surveys.createSurvey)
    .mockReset()
    .mockImplementation(() => ok({} as never));
  vi.mocked(surveys.listSurveys)
    .mockReset()
    .mockImplementation(() => ok([]));
  vi.mocked(costRates.listCostRates)
    .mockReset()
    .mockImplementation(() => ok([{ id: 'k-1', name: 'IRENA Gruppe', amountCents: 3550, unit: 'session', createdAt: '', updatedAt: '' }]));
  vi.mocked(diagnoses.listDiagnoses)
    .mockReset()
    .mockImplementation(() => Promise.reject(apiFailure(503)));
  user.value = buildMe({ ...ANNA_BERG, isAdmin: true });
  document.head.querySelector('meta[name="app-title"]')?.remove();
});

describe('reference data', () => {
  test('devices: lists, creates and deletes after confirmation', async () => {
    renderAt('/admin/devices', <AdminPage />);
    expect(await screen.findByText('Omron M500')).toBeTruthy();
    expect(screen.getByText('Blutdruckmessgerät')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Gerät anlegen' }));
    type('Bezeichnung', 'Withings Body');
    fireEvent.input(within(dialog()).getByLabelText('Art'), { target: { value: 'scale' } });
    type('Seriennummer', 'WB-1');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Gerät anlegen' }));
    await waitFor(() => expect(devices.createDevice).toHaveBeenCalledWith({ name: 'Withings Body', type: 'scale', serialNumber: 'WB-1' }));
    expect(await screen.findByText('Das Gerät wurde angelegt.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Löschen: Omron M500 (OM-7)' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(devices.deleteDevice).toHaveBeenCalledWith('d-2'));
  });

  test('a required field left empty is named and nothing is sent', async () => {
    renderAt('/admin/devices', <AdminPage />);
    await screen.findByText('Omron M500');
    fireEvent.click(screen.getByRole('button', { name: 'Gerät anlegen' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Gerät anlegen' }));
    expect(within(dialog()).getAllByText('Dieses Feld ist ein Pflichtfeld.')).toHaveLength(2);
    expect(devices.createDevice).not.toHaveBeenCalled();
  });

  test('replication endpoints show "product | name" and the URL, the current host when none is set', async () => {
    renderAt('/admin/replication', <AdminPage />);
    expect(await screen.findByText('CL | Hauptserver')).toBeTruthy();
    expect(screen.getByText('CL | Backup')).toBeTruthy();
    expect(screen.getByText(`https://${window.location.hostname}${window.location.port ? `:${window.location.port}` : ''}/replicate`)).toBeTruthy();
    expect(screen.getByText('http://backup.example.org:8080')).toBeTruthy();
  });

  test('a new endpoint without host or port is sent with nulls', async () => {
    renderAt('/admin/replication', <AdminPage />);
    await screen.findByText('CL | Hauptserver');
    fireEvent.click(screen.getByRole('button', { name: 'Endpunkt anlegen' }));
    type('Name des Endpunkts', 'Klinik Nord');
    type('Port', '70000');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Endpunkt anlegen' }));
    expect(within(dialog()).getByText('Bitte eine Portnummer von 1 bis 65535 eingeben.')).toBeTruthy();
    type('Port', '');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Endpunkt anlegen' }));
    await waitFor(() =>
      expect(endpoints.createReplicationEndpoint).toHaveBeenCalledWith({ name: 'Klinik Nord', protocol: 'https', host: null, port: null, path: '' }),
    );
  });

  test('surveys are created with their questions', async () => {
    renderAt('/admin/surveys', <AdminPage />);
    expect(await screen.findByText('Es sind noch keine Fragebögen angelegt.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fragebogen anlegen' }));
    type('Titel', 'Stimmung');
    type('Fragetext', 'Wie geht es Ihnen heute?');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Frage hinzufügen' }));
    const texts = within(dialog()).getAllByLabelText(/^Fragetext/);
    fireEvent.input(texts[1], { target: { value: 'Was hat geholfen?' } });
    fireEvent.input(within(dialog()).getAllByLabelText('Antwortart')[1], { target: { value: 'text' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Fragebogen anlegen' }));
    await waitFor(() => expect(surveys.createSurvey).toHaveBeenCalled());
    expect(vi.mocked(surveys.createSurvey).mock.calls[0][0]).toEqual({
      title: 'Stimmung',
      description: '',
      active: true,
      questions: [
        { id: 'q1', text: 'Wie geht es Ihnen heute?', type: 'scale', min: 1, max: 5 },
        { id: 'q2', text: 'Was hat geholfen?', type: 'text' },
      ],
    });
  });

  test('cost rates show euros and take amounts with a decimal comma', async () => {
    renderAt('/admin/cost-rates', <AdminPage />);
    expect(await screen.findByText(/35,50\s€/)).toBeTruthy();
    expect(parseEuroCents('35,50')).toBe(3550);
    expect(parseEuroCents('1.234,5')).toBe(123450);
    expect(parseEuroCents('12.5')).toBe(1250);
    expect(parseEuroCents('zwölf')).toBeNull();
  });

  test('a failed load offers a retry', async () => {
    renderAt('/admin/diagnoses', <AdminPage />);
    expect(await screen.findByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).not.toMatch(/undefined|\{/);
  });
});
