import { draftStorageKey } from '../../../../lib/drafts.ts';
import { formatDate } from '../../../../lib/i18n.ts';

/**
 * localStorage key of one coach's draft of a new comment on one patient (or of an edit of one comment). Per coach:
 * a colleague at the same browser never sees it; the session's end removes it (client/lib/drafts.ts).
 */
export const draftKey = (coachId: string, patientId: string, commentId?: string) =>
  draftStorageKey(coachId, patientId, commentId ? `comment:${encodeURIComponent(commentId)}` : 'comment');

export const dateTime = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });
