import type { Router } from 'express';
import type { Upstream } from './context.ts';
import { authRoutes } from './features/auth/routes.ts';
import { coachRoutes } from './features/coaches/routes.ts';
import { resourceFamilies } from './features/reference-data/resources.ts';
import { newsRoutes } from './features/news/routes.ts';
import { systemRoutes } from './features/settings/routes.ts';
import { appSettingsRoutes } from './features/settings/app-settings-routes.ts';
import { statisticsRoutes } from './features/statistics/routes.ts';
import { patientExtrasRoutes } from './features/patients/care-team-routes.ts';
import { syncDbRoutes } from './features/sync-data/routes.ts';
import { auditLogRoutes } from './features/audit/routes.ts';

/**
 * Every route family, mounted under /v2 in this order. A family is a function (ctx) => Router whose
 * paths are written in full ('/news/:id/read/:coachId'). To add one: create routes/<family>.ts and
 * add one line here.
 */
export const routeFamilies: ((ctx: Upstream) => Router)[] = [
  authRoutes,
  coachRoutes,
  resourceFamilies,
  newsRoutes,
  systemRoutes,
  appSettingsRoutes,
  statisticsRoutes,
  patientExtrasRoutes,
  syncDbRoutes,
  auditLogRoutes,
];
