import type { Router } from 'express';
import type { Upstream } from '../context.ts';
import { authRoutes } from './auth.ts';

/**
 * Every route family, mounted under /v2 in this order. A family is a function (ctx) => Router whose
 * paths are written in full ('/news/:id/read/:coachId'). To add one: create routes/<family>.ts and
 * add one line here.
 */
export const routeFamilies: ((ctx: Upstream) => Router)[] = [
  authRoutes,
];
