import type { ListScope } from '../http/list-page.ts';
import type { Request } from 'express';
import type * as v from 'valibot';
import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { Upstream } from '../context.ts';
import type { Database } from '../db/index.ts';
import type { AuditEntity } from '../features/audit/record.ts';
import type { SessionCoach } from '../http/auth.ts';
import type { FieldMap } from '../http/filter.ts';
import type { SoftDelete } from './soft-delete.ts';

/* What a resource of resource-routes.ts is made of: its table, schemas, field map, access rule and hooks. */

export type Row = Record<string, unknown> & { id: string };
export type Op = 'create' | 'update' | 'delete';
// biome-ignore lint/suspicious/noExplicitAny:a query over any resource table, as the generic resource routes build it
export type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Who may read and write which rows of a resource. Every method may throw 403 itself. */
export interface AccessRule {
  /** Narrows list queries to the rows the coach may see. */
  scopeList(ctx: Upstream, coach: SessionCoach, query: AnyQuery): AnyQuery;
  canRead(ctx: Upstream, coach: SessionCoach, row: Row): Promise<boolean> | boolean;
  /** `row` is the stored row (update/delete) or the row about to be inserted (create). */
  canWrite(ctx: Upstream, coach: SessionCoach, row: Row, op: Op): Promise<boolean> | boolean;
  /**
   * Optional early answer for rules that do not depend on the row: checked before the body is validated
   * or the row loaded, so a caller without the right gets 403, never a 422 or 404 that hints at data.
   */
  canAttempt?(coach: SessionCoach, op: Op, id: string | undefined): boolean;
  /** What scopeList leaves this coach of the table (http/list-page.ts ListScope); unknown when absent. */
  scopeOf?(coach: SessionCoach): ListScope;
}

export interface WriteContext {
  ctx: Upstream;
  coach: SessionCoach;
  now: string;
  req: Request;
  /** The stored row for update/patch; undefined on create. */
  existing?: Row;
}

/** One stored write: the row before (update, delete) and after (create, update). */
export interface WriteChange {
  action: 'create' | 'update' | 'delete';
  before?: Row;
  after?: Row;
}

export interface ResourceDefinition {
  /** Collection path under /v2, e.g. '/devices'. */
  path: string;
  table: keyof Database & string;
  /** Stored fields that may appear in filter where/order, with their kind. */
  fields: FieldMap;
  /** Absent schemas make the resource read-only (GET list and GET id only). */
  createSchema?: v.GenericSchema;
  updateSchema?: v.GenericSchema;
  patchSchema?: v.GenericSchema;
  /** Answer schema of one item; every answer is checked against it before it leaves. */
  outputSchema: v.GenericSchema;
  access: AccessRule;
  /** Parsed input -> stored columns (encode JSON, add server fields). Runs for create, update and patch. */
  toRow(input: Record<string, unknown>, write: WriteContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Stored rows -> answers (decode JSON, join names). Batch so lists need one extra query, not one per row. */
  toOutput(rows: Row[], ctx: Upstream): Promise<unknown[]> | unknown[];
  /** Checks across fields and references after merging (422 via validationFailed). */
  check?(row: Row, write: WriteContext): Promise<void> | void;
  /** Runs inside the write's transaction: what must be stored together with the change or not at all. */
  onWrite?(change: WriteChange, trx: Transaction<Database>, write: WriteContext): Promise<void>;
  /** Runs after the write committed, before the answer: effects outside the database, such as mails. */
  afterWrite?(change: WriteChange, write: WriteContext): Promise<void>;
  /** Message for a UNIQUE violation, naming the field. */
  uniqueField?: string;
  /** What the audit log calls these records, and the patient a row belongs to (null: none). Without it, writes are not logged. */
  audit?: { entity: AuditEntity; patientIdOf(row: Row): string | null };
  /** DELETE marks the row deleted instead of removing it (soft-delete.ts). */
  softDelete?: SoftDelete;
  /** Default order when the filter has none (id is always the last tie-breaker). */
  defaultOrder?: { field: string; direction: 'asc' | 'desc' } | { field: string; direction: 'asc' | 'desc' }[];
}
