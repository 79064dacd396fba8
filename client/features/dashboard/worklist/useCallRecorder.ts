import { useEffect, useRef, useState } from 'react';
import { useForm } from '../../../data/useForm.ts';
import { errorText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { onReconnect, online } from '../../../lib/connection.ts';
import { draftStorageKey } from '../../../lib/drafts.ts';
import { t } from '../../../lib/i18n.ts';
import { FollowUpNotKept, recordCall, setFollowUp, undoCall, type Call } from './calls.ts';

/** How long "Rückgängig" is offered after a call was stored. */
export const UNDO_MS = 10_000;

/** A call on its way to the API, kept in the browser until the API confirmed it. */
export interface PendingCall {
  call: Call;
  /** The follow-up day set with the call, or '' for none. */
  followUp: string;
}

/** A stored call, as the row shows it. */
export interface RecordedCall extends PendingCall {
  note: string;
  /** The follow-up day the API kept ('' when none, or when setting it failed). */
  followUpKept: string;
}

/** The call was recorded, but its follow-up day could not be set (the row says so). */
class FollowUpNotSet extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super('The follow-up day was not set');
    this.reason = reason;
  }
}

const noAnswer = (error: unknown) => (error as { status?: unknown } | null)?.status === 0;

function describe(cause: unknown): string {
  if (cause instanceof FollowUpNotKept) return t('dashboard.worklist.followUpNotKept');
  if (cause instanceof FollowUpNotSet) return `${t('dashboard.worklist.followUpFailed')} ${errorText(cause.reason)}`;
  if (noAnswer(cause)) return t('dashboard.worklist.pending');
  return `${t('dashboard.worklist.failed')} ${errorText(cause)}`;
}

interface Options {
  patientId: string;
  coachId: string;
  /** The follow-up day the patient had before, put back when a call with a follow-up day is undone. */
  previousFollowUp: string | null;
  note: string;
  clearNote: () => void;
  restoreNote: (note: string) => void;
}

/**
 * Sends a call and keeps it until the API confirmed it: a call that fails (offline, a server error) stays pending in
 * the browser, with its id and time, and is sent again on "Erneut versuchen" or as soon as the connection is back.
 * Sending it again replaces the same event, so a call is never counted twice. After a stored call, "Rückgängig"
 * is offered for UNDO_MS.
 */
export function useCallRecorder({ patientId, coachId, previousFollowUp, note, clearNote, restoreNote }: Options) {
  const editor = useForm<PendingCall>({ draft: coachId ? draftStorageKey(coachId, patientId, 'pending-call') : null });
  const [pending, setPending] = useState<PendingCall | null>(editor.restored);
  const [recorded, setRecorded] = useState<RecordedCall | null>(null);
  const [undoable, setUndoable] = useState(false);
  const action = useMutation(describe);
  const noteRef = useRef(note);
  noteRef.current = note;

  const keepFollowUp = (day: string) =>
    setFollowUp(patientId, day).catch((cause: unknown) => {
      throw cause instanceof FollowUpNotKept ? cause : new FollowUpNotSet(cause);
    });

  const send = (next: PendingCall) =>
    action.run(async () => {
      const sentNote = noteRef.current;
      await recordCall(patientId, coachId, next.call, sentNote);
      editor.clearDraft();
      setPending(null);
      clearNote();
      const done: RecordedCall = { ...next, note: sentNote, followUpKept: '' };
      setRecorded(done);
      setUndoable(true);
      if (!next.followUp) return;
      await keepFollowUp(next.followUp);
      setRecorded({ ...done, followUpKept: next.followUp });
    });

  const start = (next: PendingCall) => {
    editor.keep(next);
    setPending(next);
    return send(next);
  };

  const sendRef = useRef(send);
  sendRef.current = send;
  // A pending call goes out again as soon as the server answers again.
  useEffect(() => (pending ? onReconnect(() => void sendRef.current(pending)) : undefined), [pending]);
  // The row came back (a reload, the dashboard reloading its lists) with a call still pending: while the line is
  // up, that return went unheard, so send it now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the call restored when the row appears
  useEffect(() => {
    if (editor.restored && online.value) void sendRef.current(editor.restored);
  }, []);

  useEffect(() => {
    if (!undoable) return;
    const timer = setTimeout(() => setUndoable(false), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undoable]);

  const undoing = useMutation((cause) => `${t('dashboard.worklist.undoFailed')} ${errorText(cause)}`);
  const undo = () =>
    undoing.run(async () => {
      if (!recorded) return;
      // The follow-up day first: should that fail, the call is still recorded and the row says so.
      if (recorded.followUpKept) await setFollowUp(patientId, previousFollowUp);
      await undoCall(patientId, coachId, recorded.call);
      setRecorded(null);
      setUndoable(false);
      restoreNote(recorded.note);
    });

  return {
    busy: action.busy || undoing.busy,
    error: action.error ?? undoing.error,
    fail: action.fail,
    pending,
    recorded,
    undoable,
    start,
    retry: () => (pending ? send(pending) : Promise.resolve(false)),
    undo,
  };
}
