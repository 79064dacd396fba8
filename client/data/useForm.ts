import { useCallback } from 'react';
import type * as v from 'valibot';
import { useDraft } from './useDraft.ts';
import { type Conflict, useVersionedSave } from './useVersionedSave.ts';

export { ConflictError, exceptConflicts, type Conflict } from './useVersionedSave.ts';

const never = () => false;

export interface FormOptions<D, S extends v.GenericSchema> {
  /**
   * Where the form's draft lives (make it with draftStorageKey(): per coach, record and box; removed when the session
   * ends); null keeps none (no coach signed in, or a form with nothing worth keeping).
   */
  draft: string | null;
  /** What the record holds already (an edited comment's text): a draft equal to it is no unsaved change. */
  pristine?: D;
  /** The record's schema, for a save whose 412 answer carries the current record. */
  schema?: S;
  /** Whether two versions differ in nothing the form shows: a 412 over such a change is retried unnoticed. */
  sameForForm?: (a: v.InferOutput<S>, b: v.InferOutput<S>) => boolean;
}

/**
 * The one hook of a form that writes a record: what the person typed, kept as a sealed draft (a reload or a failed
 * save loses nothing); the leave guard, which asks before leaving while the draft holds a change; and the version
 * conflict, where a save names the version the form was opened on (If-Match) and a change by someone else in
 * between becomes `conflict` for <ConflictNotice>, with the typed values kept. Only a confirmed save or the person's
 * own discard removes the draft.
 */
export function useForm<D, S extends v.GenericSchema = v.GenericSchema>({ draft: key, pristine, schema, sameForForm = never }: FormOptions<D, S>) {
  type T = v.InferOutput<S>;
  const draft = useDraft<D>(key, pristine);
  const versioned = useVersionedSave(schema, sameForForm);
  const { clear } = draft;

  const save = useCallback(
    async <R>(base: T | null, write: (ifMatch: string | null) => Promise<R>, etag?: string | null): Promise<R> => {
      const result = await versioned.save(base, write, etag);
      clear();
      return result;
    },
    [versioned.save, clear],
  );
  const discard = useCallback(() => {
    clear();
    versioned.dismiss();
  }, [clear, versioned.dismiss]);

  return {
    /** The draft as the form holds it now (what was typed, or what the last visit left), or null. */
    value: draft.value,
    /** The draft found when the form opened: the values to open it with. */
    restored: draft.restored,
    /** Keeps what the form holds now; an empty text is no draft. */
    keep: draft.keep,
    /** The person dropped the change (cancel, took the other version): draft and conflict go. */
    discard,
    /** The draft alone goes (the form holds the record's own values again); a shown conflict stays. */
    clearDraft: clear,
    conflict: versioned.conflict as Conflict<T> | null,
    /** The person saw the other version and keeps theirs: the next save is based on it. */
    dismissConflict: versioned.dismiss,
    /**
     * Sends `write` based on `base` (If-Match from its version or `etag`); the draft goes once the server confirmed
     * it. Throws ConflictError after a 412 with a change the form shows; the draft stays.
     */
    save,
  };
}
