import { describe, test, expect, vi, beforeEach } from 'vitest';
import { cleanup, render, screen, fireEvent, within } from '@testing-library/preact';
import { inArea, renderAt } from '../../../test/helpers/screen-render.tsx';
import { buildMe } from '../../../test/helpers/client-fetch.ts';
import type { Me } from '../../../contract/schemas/auth.ts';
import { apiFailure, buildAppSettings, buildMaterial, ok } from '../../../test/helpers/screen-records.ts';

vi.mock('../../api/system.ts', () => ({ getTrainingMaterials: vi.fn() }));
vi.mock('../../api/app-settings.ts', () => ({
  getAppVersion: vi.fn(),
  getAppSettings: vi.fn(),
  assetUrl: (id: string) => `/v2/app-settings/asset/${encodeURIComponent(id)}`,
}));

const system = await import('../../api/system.ts');
const appSettings = await import('../../api/app-settings.ts');
const { default: InformationPage } = await import('./index.tsx');
const { user } = await import('../../state/session.ts');
const { systemSettings } = await import('../../state/settings.ts');

beforeEach(() => {
  vi.mocked(system.getTrainingMaterials)
    .mockReset()
    .mockImplementation(() =>
      ok([
        buildMaterial(),
        buildMaterial({ id: 'tm-2', title: 'Einverständniserklärung', category: 'form', assetId: 'a 2', fileName: 'Einverstaendnis.docx', size: 40_000 }),
      ]),
    );
  vi.mocked(appSettings.getAppVersion)
    .mockReset()
    .mockImplementation(() => ok({ version: '2.4.1', name: 'coach-portal' }));
  vi.mocked(appSettings.getAppSettings)
    .mockReset()
    .mockImplementation(() => ok(buildAppSettings()));
});

describe('information page', () => {
  test('has the heading from the specification', () => {
    render(inArea(<InformationPage />));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hilfe & Unterlagen & Infos');
  });

  test('offers each training material as a download from its asset link, grouped by kind', async () => {
    render(inArea(<InformationPage />));
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
    render(inArea(<InformationPage />));
    expect(await screen.findByText('Zurzeit sind keine Unterlagen hinterlegt.')).toBeTruthy();
  });

  test('a failed load of the materials can be retried', async () => {
    vi.mocked(system.getTrainingMaterials).mockImplementationOnce(() => Promise.reject(apiFailure(0, 'NETWORK_ERROR')));
    render(inArea(<InformationPage />));
    const retry = await screen.findAllByRole('button', { name: 'Erneut versuchen' });
    fireEvent.click(retry[0]);
    expect(await screen.findByRole('link', { name: 'Handbuch für Coaches' })).toBeTruthy();
  });

  test('shows help topics, the support contact and the version', async () => {
    render(inArea(<InformationPage />));
    expect(screen.getByText('Wer sieht meine Kommentare?')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'support@example.org' })).getAttribute('href')).toBe('mailto:support@example.org');
    expect(screen.getByRole('link', { name: '+49 30 1234-0' }).getAttribute('href')).toBe('tel:+493012340');
    expect(await screen.findByText('Version 2.4.1')).toBeTruthy();
  });
});

describe('the coach guide', () => {
  beforeEach(() => {
    user.value = buildMe({ id: 'coach-1' }) as Me;
    systemSettings.value = null;
  });

  test('the help page lists its chapters as pages of the app, and still lists the training materials', async () => {
    renderAt('/information', <InformationPage />);
    const contents = screen.getByRole('navigation', { name: 'Kapitel des Leitfadens' });
    expect(
      within(contents)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Patientin oder Patient finden', '/information/guide/find-patient'],
      ['Die Farben bei „Letzte Daten“ lesen', '/information/guide/freshness'],
      ['Einen Anruf erfassen', '/information/guide/record-call'],
      ['Einen Zugangscode erstellen', '/information/guide/access-code'],
      ['Daten nach Excel exportieren', '/information/guide/export'],
      ['Den Tag auf dem Dashboard planen', '/information/guide/my-day'],
    ]);
    expect(await screen.findByRole('link', { name: 'Handbuch für Coaches' })).toBeTruthy();
  });

  test('a chapter is a page with its steps, naming menus and buttons as the screens do, and leads on', () => {
    renderAt('/information/guide/access-code', <InformationPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Einen Zugangscode erstellen' })).toBeTruthy();
    const steps = screen.getAllByRole('listitem');
    expect(steps[0].textContent).toBe('Wählen Sie im Menü „New User“.');
    expect(steps[1].textContent).toContain('„Zugangscode erstellen“');
    expect(screen.getByRole('link', { name: 'Nächstes Kapitel: Daten nach Excel exportieren' }).getAttribute('href')).toBe('/information/guide/export');
    expect(screen.getByRole('link', { name: 'Vorheriges Kapitel: Einen Anruf erfassen' })).toBeTruthy();
  });

  test('the "Mein Tag" chapter explains when a patient is flagged, with the names the dashboard uses', () => {
    renderAt('/information/guide/my-day', <InformationPage />);
    const main = screen.getByRole('heading', { level: 1, name: 'Den Tag auf dem Dashboard planen' }).closest('article, section, main')!;
    expect(main.textContent).toContain('„Neue Notiz in der App“');
    expect(main.textContent).toContain('mindestens 1 Punkt unter');
    expect(main.textContent).toContain('„Brauchen Aufmerksamkeit“');
  });

  test('the freshness chapter shows the four levels as the lists show them', () => {
    renderAt('/information/guide/freshness', <InformationPage />);
    for (const text of ['Daten aktuell (bis 2 Tage)', 'Seit über 2 Tagen keine Daten', 'Seit über 7 Tagen keine Daten', 'Seit über 30 Tagen oder nie Daten']) {
      expect(screen.getByText(text)).toBeTruthy();
    }
  });

  test('the export chapter says what this account may export, by the rule the sidebar uses', () => {
    renderAt('/information/guide/export', <InformationPage />);
    expect(screen.getByText('Mit Ihrem Konto können Sie exportieren: Patientinnen und Patienten, Kommentare.')).toBeTruthy();
    expect(screen.getAllByRole('listitem')[0].textContent).toBe('Öffnen Sie im Menü „Verwaltung“ den Punkt „Export“.');
    cleanup();
    user.value = buildMe({ id: 'hm', isHealthManager: true }) as Me;
    renderAt('/information/guide/export', <InformationPage />);
    expect(screen.getByText(/exportieren: Patientinnen und Patienten, Statistik je Patientin und Patient, Kommentare, Tageswerte\./)).toBeTruthy();
  });

  test('without the right to export there is no export chapter and no export answer', async () => {
    user.value = buildMe({ isUserLocked: true }) as Me;
    renderAt('/information', <InformationPage />);
    expect(screen.queryByRole('link', { name: 'Daten nach Excel exportieren' })).toBeNull();
    expect(screen.queryByText('Wie öffne ich einen Export in Excel?')).toBeNull();
    cleanup();
    renderAt('/information/guide/export', <InformationPage />);
    expect(screen.getByText('Dieses Kapitel gibt es nicht.')).toBeTruthy();
  });
});
