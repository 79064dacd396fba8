import { afterEach, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { json, mockFetch } from '../../../test/helpers/client-fetch.ts';
import { SummaryTiles } from './SummaryTiles.tsx';

// A figure the API does not give is unavailable ("–" with the reason on hover), never 0 ("no patients").

afterEach(() => vi.unstubAllGlobals());

test('a count the answer lacks shows "–" with the reason, the others their number', async () => {
  // An API that counts patients but knows nothing of "without data for 7 days" nor of flows in the period.
  mockFetch({ 'GET /statistics/patient-statistics': json({ from: '2026-11-01', to: '2026-11-26', total: 12, planned: 2, active: 8, completed: 2 }) });
  render(<SummaryTiles period={{ from: '2026-11-01', to: '2026-11-26' }} today="2026-11-26" headingId="h" heading="Patienten" />);
  const missing = await screen.findByText('In Nachsorge, seit 7 Tagen ohne Daten');
  const value = missing.parentElement!.querySelector('.stats-card-value')!;
  expect(value.textContent).toContain('–');
  expect(value.textContent).not.toContain('0');
  expect(value.querySelector('[title]')?.getAttribute('title')).toBe('Diese Zahl liefert die Schnittstelle nicht.');
  expect(missing.parentElement!.className).not.toContain('warning');
  const given = screen.getByText('In Nachsorge').parentElement!.querySelector('.stats-card-value')!;
  expect(given.textContent).toBe('8');
  expect(given.querySelector('[title]')).toBeNull();
});
