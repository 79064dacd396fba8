import { AREA_PATHS, type AreaName } from '../contract/pages.ts';

/**
 * The feature areas of the client, defined once: the route table (routes.tsx) matches each at its path, the area
 * loader (lib/areas.ts) fetches its files by its name, the build (scripts/build.ts) makes each `load` one chunk named
 * after its key, the gateway's tests and the journeys visit them. Plain data and lazy imports only, so node scripts
 * can import this module too.
 *
 * - path: where the area starts; everything below it (/patient/42) belongs to it as well;
 * - place: 'shell' inside the signed-in layout, 'print' signed in without the layout, 'open' without a session;
 * - admin: only for whoever may manage coaches (domain/permissions.ts);
 * - documents: text documents (lib/i18n.ts) fetched beside the code, because the first screen's dictionary has no
 *   bytes to spare for them.
 */
export interface AreaDefinition {
  path: string;
  place: 'shell' | 'print' | 'open';
  admin?: boolean;
  documents?: readonly ('help' | 'print')[];
  load: () => Promise<{ default: unknown }>;
}

export const AREAS = {
  dashboard: { path: AREA_PATHS.dashboard, place: 'shell', load: () => import('./features/dashboard/index.tsx') },
  'create-access': { path: AREA_PATHS['create-access'], place: 'shell', load: () => import('./features/create-access/index.tsx') },
  patient: { path: AREA_PATHS.patient, place: 'shell', load: () => import('./features/patient/index.tsx') },
  admin: { path: AREA_PATHS.admin, place: 'shell', admin: true, load: () => import('./features/admin/index.tsx') },
  settings: { path: AREA_PATHS.settings, place: 'shell', load: () => import('./features/settings/index.tsx') },
  information: { path: AREA_PATHS.information, place: 'shell', documents: ['help'], load: () => import('./features/information/index.tsx') },
  stats: { path: AREA_PATHS.stats, place: 'shell', load: () => import('./features/stats/index.tsx') },
  export: { path: AREA_PATHS.export, place: 'shell', load: () => import('./features/export/index.tsx') },
  'news-dashboard': { path: AREA_PATHS['news-dashboard'], place: 'shell', load: () => import('./features/news-dashboard/index.tsx') },
  'print-patient': { path: AREA_PATHS['print-patient'], place: 'print', documents: ['print'], load: () => import('./features/print-patient/index.tsx') },
  'print-access-code': {
    path: AREA_PATHS['print-access-code'],
    place: 'print',
    documents: ['print'],
    load: () => import('./features/print-access-code/index.tsx'),
  },
  'coach-reset-password': { path: AREA_PATHS['coach-reset-password'], place: 'open', load: () => import('./features/coach-reset-password/index.tsx') },
  'reset-password': { path: AREA_PATHS['reset-password'], place: 'open', load: () => import('./features/reset-password/index.tsx') },
} as const satisfies Record<AreaName, AreaDefinition>;

export type { AreaName };

/** The app module: the shell and what two or more areas share; every area runs on it. */
export const loadAppModule = () => import('./app.ts');

export const AREA_NAMES = Object.keys(AREAS) as AreaName[];

/** The area a path belongs to, or the dashboard for anything else (what the login screen fetches ahead). */
export function areaOf(path: string): AreaName {
  const pathname = path.split(/[?#]/)[0];
  return AREA_NAMES.find((name) => pathname === AREAS[name].path || pathname.startsWith(`${AREAS[name].path}/`)) ?? 'dashboard';
}
