import { describe, test, expect, vi, beforeEach } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/preact';
import { apiFailure, buildAppSettings, buildMaterial, ok } from '../../../test/helpers/screens2-fixtures.ts';

vi.mock('../../api/system.ts', () => ({ getTrainingMaterials: vi.fn() }));
vi.mock('../../api/app-settings.ts', () => ({
  getAppVersion: vi.fn(),
  getAppSettings: vi.fn(),
  assetUrl: (id: string) => `/v2/app-settings/asset/${encodeURIComponent(id)}`,
}));

const system = await import('../../api/system.ts');
const appSettings = await import('../../api/app-settings.ts');
const { default: InformationPage } = await import('./index.tsx');

beforeEach(() => {
  vi.mocked(system.getTrainingMaterials).mockReset().mockImplementation(() =>
    ok([
      buildMaterial(),
      buildMaterial({ id: 'tm-2', title: 'Einverständniserklärung', category: 'form', assetId: 'a 2', fileName: 'Einverstaendnis.docx', size: 40_000 }),
    ]),
  );
  vi.mocked(appSettings.getAppVersion).mockReset().mockImplementation(() => ok({ version: '2.4.1', name: 'coach-portal' }));
  vi.mocked(appSettings.getAppSettings).mockReset().mockImplementation(() => ok(buildAppSettings()));
});

describe('information page', () => {
  test('has the heading from the specification', () => {
    render(<InformationPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hilfe & Unterlagen & Infos');
  });

  test('offers each training material as a download from its asset link, grouped by kind', async () => {
    render(<InformationPage />);
    const manual = await screen.findByRole('link', { name: 'Handbuch für Coaches' });
    expect(manual.getAttribute('href')).toBe('/v2/app-settings/asset/asset-1');
    expect(manual.getAttribute('download')).toBe('Handbuch-Coaches.pdf');
    expect(screen.getByRole('link', { name: 'Einverständniserklärung' }).getAttribute('href')).toBe('/v2/app-settings/asset/a%202');
    expect(screen.getByRole('heading', { name: 'Handbücher' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Formulare' })).toBeTruthy();
    expect(screen.getByText(/PDF · 1,4 MB/)).toBeTruthy();
    expect(screen.getByText(/DOCX · 39 KB/)).toBeTruthy();
  });

  test('says so when there are no materials', async () => {
    vi.mocked(system.getTrainingMaterials).mockImplementation(() => ok([]));
    render(<InformationPage />);
    expect(await screen.findByText('Zurzeit sind keine Unterlagen hinterlegt.')).toBeTruthy();
  });

  test('a failed load of the materials can be retried', async () => {
    vi.mocked(system.getTrainingMaterials).mockImplementationOnce(() => Promise.reject(apiFailure(0, 'NETWORK_ERROR')));
    render(<InformationPage />);
    const retry = await screen.findAllByRole('button', { name: 'Erneut versuchen' });
    fireEvent.click(retry[0]);
    expect(await screen.findByRole('link', { name: 'Handbuch für Coaches' })).toBeTruthy();
  });

  test('shows help topics, the support contact and the version', async () => {
    render(<InformationPage />);
    expect(screen.getByText('Wer sieht meine Kommentare?')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'support@example.org' })).getAttribute('href')).toBe('mailto:support@example.org');
    expect(screen.getByRole('link', { name: '+49 30 1234-0' }).getAttribute('href')).toBe('tel:+493012340');
    expect(await screen.findByText('Version 2.4.1')).toBeTruthy();
  });
});
