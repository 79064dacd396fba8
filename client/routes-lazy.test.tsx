import { afterEach, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { Router } from 'wouter';
import { buildMe, json, mockFetch } from '../test/helpers/client-fetch.ts';
import type { Me } from '../contract/schemas/auth.ts';
import { AREA_NAMES } from './areas.ts';

// Which feature modules have been evaluated: a stand-in records itself when (and only when) it is imported.
const imported = vi.hoisted(() => new Set<string>());
vi.mock('./features/dashboard/index.tsx', () => (imported.add('dashboard'), { default: () => <h1>dashboard</h1> }));
vi.mock('./features/create-access/index.tsx', () => (imported.add('create-access'), { default: () => <h1>create-access</h1> }));
vi.mock('./features/patient/index.tsx', () => (imported.add('patient'), { default: () => <h1>patient</h1> }));
vi.mock('./features/admin/index.tsx', () => (imported.add('admin'), { default: () => <h1>admin</h1> }));
vi.mock('./features/settings/index.tsx', () => (imported.add('settings'), { default: () => <h1>settings</h1> }));
vi.mock('./features/information/index.tsx', () => (imported.add('information'), { default: () => <h1>information</h1> }));
vi.mock('./features/stats/index.tsx', () => (imported.add('stats'), { default: () => <h1>stats</h1> }));
vi.mock('./features/export/index.tsx', () => (imported.add('export'), { default: () => <h1>export</h1> }));
vi.mock('./features/news-dashboard/index.tsx', () => (imported.add('news-dashboard'), { default: () => <h1>news-dashboard</h1> }));
vi.mock('./features/print-patient/index.tsx', () => (imported.add('print-patient'), { default: () => <h1>print-patient</h1> }));
vi.mock('./features/print-access-code/index.tsx', () => (imported.add('print-access-code'), { default: () => <h1>print-access-code</h1> }));

afterEach(() => vi.unstubAllGlobals());

test('feature areas are loaded on demand: none with the route table, and only the visited one after a visit', async () => {
  const { AppRoutes } = await import('./routes.tsx');
  const { sessionChecked, token, user } = await import('./state/session.ts');
  expect([...imported]).toEqual([]);

  mockFetch({ 'GET /news': json([]), 'GET /system/settings': json({ enable_creating_new_patients: true, instance_name: 'CL' }) });
  localStorage.setItem('accessToken', 'tok');
  token.value = 'tok';
  user.value = buildMe() as Me;
  sessionChecked.value = true;
  history.replaceState(null, '', '/stats');
  render(
    <Router>
      <AppRoutes />
    </Router>,
  );
  expect(await screen.findByRole('heading', { name: 'stats' })).toBeTruthy();
  expect([...imported]).toEqual(['stats']);
  expect(AREA_NAMES.filter((area) => !imported.has(area))).toHaveLength(AREA_NAMES.length - 1);
});
