import { listComments } from '../../api/comments.ts';
import { listExternalComments } from '../../api/external-comments.ts';
import { listPatients } from '../../api/patients.ts';
import { countRows, listPage, type ListCount } from '../../data/paging.ts';
import type { Comment } from '../../../contract/schemas/comments.ts';
import type { ListFilter } from '../../../contract/schemas/common.ts';
import type { ExternalComment } from '../../../contract/schemas/external-comments.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import { byAttention, freshness, type Freshness } from '../../domain/freshness.ts';
import { ATTENTION_SHOWN, ENDING_SHOWN, activeWhere, attentionFilter, caseloadFilter, endingSoonFilter, endsSoon, levelWhere } from './queries.ts';
import { waitingForFollowUp } from './worklist/calls.ts';

/**
 * The dashboard's data in at most 4 /v2 calls (its request budget, docs/product.md#dashboard), all of them docs/product.md#calls list calls:
 *
 * 1. GET /patients: every patient in aftercare today (one page, CASELOAD_PAGE rows). The counts per traffic
 *    light, the patients needing attention and those whose aftercare ends soon are all read from it.
 * 2. GET /comments: the five newest. 3. GET /externalComments: the NOTES_READ newest; the feed shows five, "Mein
 *    Tag" looks in all of them for notes from the app that the coach has not seen yet (my-day/signals.ts). The
 *    caseload and the feeds ask for it with the same URL at the same moment: data/request-cache.ts sends it once.
 * 4. GET /patients?filter={where: {id: {inq: [...]}}}: the names of the patients those comments are about,
 *    one call for both lists, left out when there are no comments.
 *
 * Once these are shown, "Mein Tag" reads the day evaluations of the patients with recent data, one call each and
 * at most my-day/worsening.ts CHECKED of them, kept until their app sends new data.
 *
 * A caseload larger than one page (an administrator of a big instance) is counted the way the screen did
 * before, with one limit-0 call per figure, and its lists come from their own calls: right, just not cheap.
 */

export const LEVELS: Freshness[] = ['red', 'yellow', 'grey', 'green'];

export interface Caseload {
  /** The NOTES_READ newest external comments (empty when they could not be read): "Mein Tag" flags new app notes. */
  recentExternal: ExternalComment[];
  /** The patients read: the whole caseload when `total` is exact, else its first page ("Mein Tag" reads their appointments). */
  patients: Patient[];
  /** Patients in aftercare today (exact, or "more than" when a big caseload's upstream does not count). */
  total: ListCount;
  levels: Record<Freshness, ListCount>;
  /**
   * Active patients without data for more than 2 days, red first (at most ATTENTION_SHOWN), except those whose
   * follow-up day (Wiedervorlage, set from the worklist) lies ahead.
   */
  attention: Patient[];
  attentionTotal: ListCount;
  /** Aftercare ending within ENDING_SOON_DAYS, soonest first (at most ENDING_SHOWN). */
  ending: Patient[];
  endingTotal: ListCount;
}

/** Without X-Total-Count a tile counts up to this many and then says "mehr als 99" (client/data/paging.ts). */
const COUNT_CAP = 99;
const count = (where: Record<string, unknown>, signal: AbortSignal) => countRows((range) => listPatients({ where, ...range }, signal), COUNT_CAP);
const exact = (count: number): ListCount => ({ count, exact: true });

export async function loadCaseload(now: Date, signal: AbortSignal): Promise<Caseload> {
  // Asked now, with the patients; without them the dashboard still shows, only without the new-note flag.
  const notes = recentExternal(signal).then(
    (answer) => answer.data,
    () => [],
  );
  return { ...(await loadPatients(now, signal)), recentExternal: await notes };
}

async function loadPatients(now: Date, signal: AbortSignal): Promise<Omit<Caseload, 'recentExternal'>> {
  const filter = caseloadFilter(now);
  // One row more than the page: without X-Total-Count that row tells whether the caseload is complete.
  const { data: active, total } = await listPage((range) => listPatients({ ...filter, ...range }, signal), filter.limit!);
  const complete = total !== null && active.length >= total;
  if (complete) {
    const levels = { red: 0, yellow: 0, grey: 0, green: 0 } as Record<Freshness, number>;
    for (const p of active) levels[freshness(p.lastDataAt, now)]++;
    const stale = byAttention(
      active.filter((p) => freshness(p.lastDataAt, now) !== 'green' && !waitingForFollowUp(p, now)),
      (p) => p.lastDataAt,
      now,
    );
    const ending = active.filter((p) => endsSoon(p, now)).sort((a, b) => a.aftercareEnd.localeCompare(b.aftercareEnd) || a.lastName.localeCompare(b.lastName));
    return {
      patients: active,
      total: exact(active.length),
      levels: Object.fromEntries(LEVELS.map((level) => [level, exact(levels[level])])) as Record<Freshness, ListCount>,
      attention: stale.slice(0, ATTENTION_SHOWN),
      attentionTotal: exact(stale.length),
      ending: ending.slice(0, ENDING_SHOWN),
      endingTotal: exact(ending.length),
    };
  }
  const where = activeWhere(now);
  const attentionQuery = attentionFilter(now);
  const endingQuery = endingSoonFilter(now, ENDING_SHOWN);
  const [levelCounts, attention, ending] = await Promise.all([
    Promise.all(LEVELS.map((level) => count({ and: [where, levelWhere(level, now)] }, signal))),
    listPage((range) => listPatients({ ...attentionQuery, ...range }, signal), attentionQuery.limit!),
    listPage((range) => listPatients({ ...endingQuery, ...range }, signal), endingQuery.limit!),
  ]);
  return {
    patients: active,
    total: total === null ? { count: active.length, exact: false } : exact(total),
    levels: Object.fromEntries(LEVELS.map((level, i) => [level, levelCounts[i]])) as Record<Freshness, ListCount>,
    // The follow-up day is left out here, not in the query: an API whose patients have no such field still answers.
    attention: byAttention(
      attention.data.filter((p) => !waitingForFollowUp(p, now)),
      (p) => p.lastDataAt,
      now,
    ).slice(0, ATTENTION_SHOWN),
    attentionTotal:
      attention.total === null
        ? { count: attention.data.length, exact: false }
        : exact(attention.total - attention.data.filter((p) => waitingForFollowUp(p, now)).length),
    ending: ending.data,
    endingTotal: ending.total === null ? { count: ending.data.length, exact: false } : exact(ending.total),
  };
}

export interface Feeds {
  comments: Comment[];
  external: ExternalComment[];
  /** The patients the comments are about, by id (names for the links). */
  patients: Map<string, Patient>;
}

const FEED_SIZE = 5;
/** External comments read in the feed's call: enough for a week of app notes of a caseload, still one small answer. */
export const NOTES_READ = 40;
const newest = (limit: number): ListFilter => ({ order: 'createdAt DESC', limit });
const recentExternal = (signal: AbortSignal) => listExternalComments(newest(NOTES_READ), signal);

export async function loadFeeds(signal: AbortSignal): Promise<Feeds> {
  const [comments, recent] = await Promise.all([listComments(newest(FEED_SIZE), signal), recentExternal(signal)]);
  const external = recent.data.slice(0, FEED_SIZE);
  const ids = [...new Set([...comments.data, ...external].map((c) => c.patientId))];
  const patients = ids.length === 0 ? [] : (await listPatients({ where: { id: { inq: ids } }, limit: ids.length }, signal)).data;
  return { comments: comments.data, external, patients: new Map(patients.map((p) => [p.id, p])) };
}
