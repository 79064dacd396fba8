import { useCallback, useRef, useState } from 'react';
import type * as v from 'valibot';
import { conflictOf, versionTag } from './versions.ts';

export interface Conflict<T> {
  /** The record as the server has it now. */
  current: T;
  /** Its version; a save that keeps the person's text sends this, so it overwrites on purpose. */
  tag: string | null;
}

/** Thrown by save() after a 412 that changed something the person can see; the hook's `conflict` holds it too. */
export class ConflictError<T = unknown> extends Error {
  /** As an API error's status, so errorText() words it like a 412. */
  readonly status = 412;
  readonly conflict: Conflict<T>;
  constructor(conflict: Conflict<T>) {
    super('The record was changed by someone else');
    this.name = 'ConflictError';
    this.conflict = conflict;
  }
}

/** For useMutation: a conflict is shown by the ConflictNotice with the other version, not as an error text. */
export const exceptConflicts = (failure: unknown): unknown => (failure instanceof ConflictError ? null : failure);

/**
 * One write with optimistic concurrency, the version-conflict part of useForm (data/useForm.ts). `save(base, write)` sends If-Match with the version of `base` (the record
 * the person started editing); a 412 whose current record differs from `base` in what the form shows becomes
 * `conflict` (the form keeps what was typed and shows the other change with <ConflictNotice>). Saving again then
 * sends the current version: the person has seen the other change and keeps theirs. A 412 that changed nothing
 * the form shows (a version that moved for another reason) is retried once with the new version, unnoticed.
 */
export function useVersionedSave<S extends v.GenericSchema>(schema: S | undefined, sameForForm: (a: v.InferOutput<S>, b: v.InferOutput<S>) => boolean) {
  type T = v.InferOutput<S>;
  const [conflict, setConflict] = useState<Conflict<T> | null>(null);
  const conflictRef = useRef<Conflict<T> | null>(null);
  const update = (next: Conflict<T> | null) => {
    conflictRef.current = next;
    setConflict(next);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: update only sets state and reads a ref, so it is stable for the hook's life
  const save = useCallback(
    async <R>(base: T | null, write: (ifMatch: string | null) => Promise<R>, etag?: string | null): Promise<R> => {
      const seen = conflictRef.current;
      const tag = seen ? seen.tag : versionTag(base as { updatedAt?: string | null } | null, etag);
      try {
        const result = await write(tag);
        update(null);
        return result;
      } catch (error) {
        // Without the record's schema (a form that creates, or writes no versioned record) a 412 is an error like any other.
        const found = schema ? conflictOf(error, schema) : null;
        if (!found) throw error;
        if (base !== null && !seen && sameForForm(base, found.current)) {
          const result = await write(found.tag);
          update(null);
          return result;
        }
        update(found);
        throw new ConflictError<T>(found);
      }
    },
    [schema, sameForForm],
  );

  /** The person took the other version (or cancelled): the next save starts from there. */
  // biome-ignore lint/correctness/useExhaustiveDependencies: update only sets state and reads a ref, so it is stable for the hook's life
  const dismiss = useCallback(() => update(null), []);
  return { conflict, save, dismiss };
}
