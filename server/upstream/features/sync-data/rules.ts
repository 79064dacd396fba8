import type { SyncRecordTable } from '../../db/family-types.ts';
import { dayOf } from '../../lib/days.ts';
import type { SyncCollection, SyncData, SyncRecord } from '../../../../contract/schemas/sync-db.ts';

/**
 * Collections the patient's app writes. Only these move the patient's lastDataAt ("last synchronised
 * data" on the dashboard); plans a coach writes (events, templates, survey assignments, timeframes)
 * say nothing about whether the patient is still using the app.
 */
export const PATIENT_COLLECTIONS: ReadonlySet<SyncCollection> = new Set([
  'day-evaluation',
  'day-stats',
  'form',
  'internal',
  'life-section',
  'settings',
  'survey-result',
  'timeframe-evaluation',
]);

export const FILTER_FIELDS = { id: 'string', date: 'date', updatedAt: 'date' } as const;

/**
 * A page of a collection when the filter names no limit. The patient's app reads a whole collection at once and
 * 1000 records are about three years of daily entries; X-Total-Count says when there are more, so nothing is cut
 * without the reader knowing.
 */
export const DEFAULT_PAGE_SIZE = 1000;

/** The columns copied out of `data` so filters and statistics stay plain SQL. */
export function derivedColumns(collection: SyncCollection, data: Record<string, unknown>) {
  const day = (value: unknown) => (typeof value === 'string' ? dayOf(value) : null);
  let date: string | null = null;
  if (collection === 'day-evaluation' || collection === 'day-stats' || collection === 'timeframe-evaluation') date = data.date as string;
  else if (collection === 'event') date = day(data.start);
  else if (collection === 'timeframe') date = data.start as string;
  else if (collection === 'survey-result') date = day(data.completedAt);
  else if (collection === 'survey') date = day(data.assignedAt);
  const isEvent = collection === 'event';
  return {
    date,
    type: isEvent || collection === 'event-template' ? (data.type as string) : null,
    done: isEvent ? (data.done ? (1 as const) : (0 as const)) : null,
    minutes: isEvent ? (data.durationMinutes as number) : null,
  };
}

/** One record as it is stored: the data as JSON text beside the columns derived from it. */
export function toStoredRecord(patientId: string, collection: SyncCollection, id: string, data: Record<string, unknown>, updatedAt: string): SyncRecordTable {
  return { patientId, collection, id, ...derivedColumns(collection, data), data: JSON.stringify(data), updatedAt };
}

export function toSyncRecord<C extends SyncCollection>(row: Pick<SyncRecordTable, 'id' | 'patientId' | 'date' | 'updatedAt' | 'data'>): SyncRecord<C> {
  return { id: row.id, patientId: row.patientId, date: row.date, updatedAt: row.updatedAt, data: JSON.parse(row.data) as SyncData<C> };
}
