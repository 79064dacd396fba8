import type { SessionCoach } from '../http/auth.ts';
import type { AnyQuery } from './definition.ts';

/**
 * Soft deletion for a resource (comments): DELETE stamps `at` and `by` instead of removing the row, so what was
 * written stays in the record. A deleted row is gone for writes (404) and for everyone `visibleTo` refuses; those
 * it admits read it by id, and in lists when the filter names the `at` column (e.g. `{ deletedAt: { neq: null } }`),
 * so every list that does not ask, for them too, shows live rows only.
 */
export interface SoftDelete {
  at: string;
  by: string;
  visibleTo(coach: SessionCoach): boolean;
}

/** True when `where` has a condition on `field` anywhere (inside and/or too). */
export function mentions(where: unknown, field: string): boolean {
  if (Array.isArray(where)) return where.some((part) => mentions(part, field));
  if (where === null || typeof where !== 'object') return false;
  return Object.entries(where).some(([key, value]) => key === field || ((key === 'and' || key === 'or') && mentions(value, field)));
}

export function isGone(soft: SoftDelete | undefined, row: Record<string, unknown>): boolean {
  return !!soft && row[soft.at] !== null && row[soft.at] !== undefined;
}

/** Narrows a list to live rows unless the caller may see deleted ones and asked for them. */
export function hideGone(soft: SoftDelete | undefined, table: string, coach: SessionCoach, query: AnyQuery, where: unknown): AnyQuery {
  if (!soft || (soft.visibleTo(coach) && mentions(where, soft.at))) return query;
  return query.where(`${table}.${soft.at}`, 'is', null);
}
