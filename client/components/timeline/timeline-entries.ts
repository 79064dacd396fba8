import type { AuditEntry } from '../../../contract/schemas/audit-log.ts';
import { formatDate, t } from '../../lib/i18n.ts';
import { callKind, eventTitle } from './call-kind.ts';
import { actorOf, describeEntry, type HistoryLine, type HistoryNames } from './history-text.ts';
import type { TimelineKind, TimelinePage, TimelineRecords } from './timeline-load.ts';

/** One line of the timeline, in the current language. */
export interface TimelineEntry {
  key: string;
  kind: TimelineKind;
  /** When it happened (ISO); the list is newest first by this. */
  at: string;
  title: string;
  /** Who wrote or did it, when known. */
  who: string | null;
  /** Short facts after the title: an outcome, a length, a source. */
  facts: string[];
  /** Free text: the note of a call or an appointment, a comment. */
  text: string;
  /** The changed fields of a recorded change. */
  lines: HistoryLine[];
}

const entry = (e: Omit<TimelineEntry, 'facts' | 'text' | 'lines' | 'who'> & Partial<TimelineEntry>): TimelineEntry => ({
  who: null,
  facts: [],
  text: '',
  lines: [],
  ...e,
});

function callEntries(records: TimelineRecords, names: HistoryNames): TimelineEntry[] {
  return records.calls.map((call) => {
    const kind = callKind(call);
    // Old records have no kind: a held call is one with done set.
    const reached = kind ? kind === 'call-reached' : call.data.done;
    const minutes = call.data.durationMinutes;
    const coach = call.data.coachId ? (names.coaches.get(call.data.coachId) ?? t('timeline.unknownCoach')) : null;
    return entry({
      key: `call:${call.id}`,
      kind: 'call',
      at: call.data.start,
      title: eventTitle(call),
      who: coach,
      facts: [
        // A kind's title names the outcome already; an old record's title may not.
        ...(kind ? [] : [t(reached ? 'timeline.call.reached' : 'timeline.call.notReached')]),
        ...(reached ? [minutes > 0 ? t('timeline.minutes', { n: minutes }) : t('timeline.call.noLength')] : []),
      ],
      text: call.data.notes,
    });
  });
}

function changeEntry(change: AuditEntry, names: HistoryNames): TimelineEntry {
  const { title, lines } = describeEntry(change, names);
  return entry({ key: `change:${change.id}`, kind: 'change', at: change.at, title, who: actorOf(change), lines });
}

/** Every loaded record as entries, newest first. */
export function timelineEntries(records: TimelineRecords, names: HistoryNames): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...records.comments.map((c) =>
      entry({
        key: `comment:${c.id}`,
        kind: 'comment',
        at: c.createdAt,
        title: t('timeline.comment'),
        who: c.authorName,
        // An edited note says so; its earlier versions are under the note on the comments tab.
        facts:
          c.updatedAt && c.updatedAt !== c.createdAt
            ? [t('timeline.edited', { date: formatDate(c.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) })]
            : [],
        text: c.text,
      }),
    ),
    ...callEntries(records, names),
    ...records.appointments.map((a) =>
      entry({
        key: `appointment:${a.id}`,
        kind: 'appointment',
        at: a.startsAt,
        title: t(`patient.appointments.type.${a.type}`),
        facts: [t('timeline.minutes', { n: a.durationMinutes })],
        text: a.note,
      }),
    ),
    ...records.external.map((c) =>
      entry({ key: `external:${c.id}`, kind: 'external', at: c.createdAt, title: t(`patient.external.source.${c.source}`), who: c.author, text: c.text }),
    ),
    ...records.codes.flatMap((code) => [
      entry({
        key: `code:${code.id}`,
        kind: 'code',
        at: code.createdAt,
        title: t('timeline.code.created'),
        facts: [t('timeline.code.validUntil', { date: formatDate(code.expiresAt) })],
      }),
      ...(code.usedAt ? [entry({ key: `code-used:${code.id}`, kind: 'code', at: code.usedAt, title: t('timeline.code.used') })] : []),
    ]),
    ...records.changes.map((c) => changeEntry(c, names)),
  ];
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.key.localeCompare(b.key));
}

/**
 * The entries of the chosen kinds that can be shown in order: down to the newest edge among those kinds that have
 * more to load (an older entry might still be missing there); all of them once every chosen kind is loaded to its end.
 */
export function visibleEntries(
  entries: TimelineEntry[],
  page: Pick<TimelinePage, 'edges'>,
  kinds: ReadonlySet<TimelineKind>,
): { shown: TimelineEntry[]; more: boolean } {
  const edges = [...kinds].map((kind) => page.edges[kind]).filter((edge): edge is string => !!edge);
  const edge = edges.length ? Math.max(...edges.map((e) => Date.parse(e))) : Number.NEGATIVE_INFINITY;
  return { shown: entries.filter((e) => kinds.has(e.kind) && Date.parse(e.at) >= edge), more: edges.length > 0 };
}
