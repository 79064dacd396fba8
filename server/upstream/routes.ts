import type { Router } from 'express';
import type { Upstream } from './context.ts';
import type { ResourceDefinition } from './resource/definition.ts';
import { resourceRoutes } from './resource/resource-routes.ts';
import { accessCodeRoutes } from './features/access-codes/routes.ts';
import { patientTokensResource } from './features/access-codes/resource.ts';
import { auditLogRoutes } from './features/audit/routes.ts';
import { authRoutes, passwordRoutes } from './features/auth/routes.ts';
import { coachesResource } from './features/coaches/resource.ts';
import { coachRoutes } from './features/coaches/routes.ts';
import { commentsResource, externalCommentsResource } from './features/comments/resource.ts';
import { newsRoutes } from './features/news/routes.ts';
import { careTeamRoutes } from './features/patients/care-team-routes.ts';
import { coachPatientRoutes } from './features/patients/coach-routes.ts';
import { deviceRoutes } from './features/patients/device-routes.ts';
import { patientRecordRoutes } from './features/patients/record-routes.ts';
import { patientsResource } from './features/patients/resource.ts';
import { costRatesResource, devicesResource, diagnosisResource, replicationEndpointResource, surveysResource } from './features/reference-data/resources.ts';
import { appSettingsRoutes } from './features/settings/app-settings-routes.ts';
import { systemRoutes } from './features/settings/routes.ts';
import { statisticsRoutes } from './features/statistics/routes.ts';
import { syncedPatientsResource } from './features/sync-data/resource.ts';
import { syncDataRoutes } from './features/sync-data/routes.ts';

/** Every table served by the generic resource (resource/resource-routes.ts): list, read and, unless read-only, write. */
export const standardResources: ResourceDefinition[] = [
  coachesResource,
  patientsResource,
  commentsResource,
  externalCommentsResource,
  syncedPatientsResource,
  costRatesResource,
  devicesResource,
  diagnosisResource,
  replicationEndpointResource,
  surveysResource,
  patientTokensResource,
];

const resource = (def: ResourceDefinition) => (ctx: Upstream) => resourceRoutes(ctx, def);

/**
 * Every router of the upstream, mounted under /v2 in this order; none mounts another. A router is a function
 * (ctx) => Router whose paths are written in full ('/news/:id/read/:coachId'). The order matters only where a
 * resource's item path would take a fixed path of the same length: /coaches/isCoachLocked comes before
 * GET /coaches/:id, so coachRoutes and coachPatientRoutes stand before the resources.
 */
export const routers: ((ctx: Upstream) => Router)[] = [
  authRoutes,
  passwordRoutes,
  coachRoutes,
  coachPatientRoutes,
  careTeamRoutes,
  accessCodeRoutes,
  ...standardResources.map(resource),
  newsRoutes,
  systemRoutes,
  appSettingsRoutes,
  statisticsRoutes,
  deviceRoutes,
  patientRecordRoutes,
  syncDataRoutes,
  auditLogRoutes,
];
