import { listAuditLog } from '../../api/audit-log.ts';
import { listComments } from '../../api/comments.ts';
import { listExternalComments } from '../../api/external-comments.ts';
import { ApiError, type ApiResult } from '../../data/http.ts';
import { listPage } from '../../data/paging.ts';
import { listPatientTokens } from '../../api/patient-tokens.ts';
import { listSyncRecords } from '../../api/sync-db.ts';
import type { AuditEntry } from '../../../contract/schemas/audit-log.ts';
import type { Comment } from '../../../contract/schemas/comments.ts';
import type { ExternalComment } from '../../../contract/schemas/external-comments.ts';
import type { PatientToken } from '../../../contract/schemas/patient-tokens.ts';
import type { Appointment } from '../../../contract/schemas/patients.ts';
import type { SyncRecord } from '../../../contract/schemas/sync-db.ts';
import { callKind, isCall } from './call-kind.ts';
import { HISTORY_ENTITIES } from './history-text.ts';

/*
 * The patient's timeline ("Chronik") is read from the lists the record's tabs read, each newest first and a page at
 * a time: comments, external comments, the coaching calls among the synchronised events, access codes, and, where
 * the API keeps one, the audit log ("Verlauf"). Appointments come with the patient. Nothing new is asked of the API.
 */

export const TIMELINE_KINDS = ['comment', 'call', 'appointment', 'external', 'code', 'change'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineRecords {
  comments: Comment[];
  calls: SyncRecord<'event'>[];
  appointments: Appointment[];
  external: ExternalComment[];
  codes: PatientToken[];
  changes: AuditEntry[];
}

export interface TimelinePage {
  records: TimelineRecords;
  /**
   * Per kind with more rows than loaded: the time of the oldest row loaded. Entries older than the newest of these
   * edges are held back until the next page, so the merged list never skips an entry of another kind.
   */
  edges: Partial<Record<TimelineKind, string>>;
  /** Kinds that could not be read (left out, and said so). */
  failed: TimelineKind[];
}

/** Kinds of change the timeline shows; access codes are entries of their own. */
const CHANGE_ENTITIES = HISTORY_ENTITIES.filter((entity) => entity !== 'patient-token');
/** An API without the audit log, or one that does not give it to this coach: no changes, and no failure. */
const NO_AUDIT_LOG = new Set([403, 404, 405, 501]);

interface Source<T> {
  rows: T[];
  edge?: string;
}

async function page<T>(load: (range: { limit: number; skip: number }) => Promise<ApiResult<T[]>>, limit: number, time: (row: T) => string): Promise<Source<T>> {
  const result = await listPage(load, limit);
  const more = result.total === null || result.total > result.data.length;
  const last = result.data.at(-1);
  return { rows: result.data, edge: more && last ? time(last) : undefined };
}

export interface TimelineQuery {
  patientId: string;
  appointments: Appointment[];
  /** Rows per list: grows by a page with each "load more". */
  limit: number;
  /** Whether to read the audit log (false where the API is known to have none). */
  changes: boolean;
}

export async function loadTimeline({ patientId, appointments, limit, changes }: TimelineQuery, signal?: AbortSignal): Promise<TimelinePage> {
  const newest = { order: 'createdAt DESC' };
  const where = { patientId };
  const sources = await Promise.allSettled([
    page(
      (r) => listComments({ where, ...newest, ...r }, signal),
      limit,
      (c) => c.createdAt,
    ),
    page(
      (r) => listSyncRecords(patientId, 'event', { order: ['date DESC', 'updatedAt DESC'], ...r }, signal),
      limit,
      (e) => e.data.start,
    ),
    page(
      (r) => listExternalComments({ where, ...newest, ...r }, signal),
      limit,
      (c) => c.createdAt,
    ),
    page(
      (r) => listPatientTokens({ where, ...newest, ...r }, signal),
      limit,
      (c) => c.createdAt,
    ),
    changes
      ? page(
          (r) => listAuditLog({ where: { patientId, entity: { inq: [...CHANGE_ENTITIES] } }, order: ['at DESC', 'id DESC'], ...r }, signal),
          limit,
          (c) => c.at,
        )
      : Promise.resolve<Source<AuditEntry>>({ rows: [] }),
  ]);
  const kinds: TimelineKind[] = ['comment', 'call', 'external', 'code', 'change'];
  const failed: TimelineKind[] = [];
  const edges: TimelinePage['edges'] = {};
  const rows = sources.map((source, i) => {
    if (source.status === 'fulfilled') {
      if (source.value.edge) edges[kinds[i]] = source.value.edge;
      return source.value.rows;
    }
    if (kinds[i] === 'change' && source.reason instanceof ApiError && NO_AUDIT_LOG.has(source.reason.status)) return [];
    failed.push(kinds[i]);
    return [];
  });
  // Nothing could be read at all (offline, signed out): a failure to show, not an empty timeline.
  if (failed.length === kinds.length - (changes ? 0 : 1)) throw (sources.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
  const [comments, events, external, codes, audit] = rows as [Comment[], SyncRecord<'event'>[], ExternalComment[], PatientToken[], AuditEntry[]];
  const calls = events.filter((e) => isCall(e) && callKind(e) !== 'call-withdrawn');
  return { records: { comments, calls, appointments, external, codes, changes: audit }, edges, failed };
}
