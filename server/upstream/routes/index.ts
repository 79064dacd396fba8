import type { Router } from 'express';
import type { Upstream } from '../context.ts';
import { authRoutes } from './auth.ts';
import { coachRoutes } from './coaches.ts';
import { resourceFamilies } from './resources.ts';
import { newsRoutes } from './news.ts';
import { systemRoutes } from './system.ts';
import { appSettingsRoutes } from './app-settings.ts';
import { statisticsRoutes } from './statistics.ts';
import { patientExtrasRoutes } from './patient-extras.ts';
import { syncDbRoutes } from './sync-db.ts';
import { auditLogRoutes } from './audit-log.ts';

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
