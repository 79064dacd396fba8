/**
 * The fields of `after` that differ from `before` (compared as JSON, so lists and objects count as one field):
 * the body of a PATCH. A form sends only what the person changed, so an API whose records have more fields than
 * the form shows (a password, a code, fields of its own) keeps them, and two people editing different fields of
 * the same record do not undo each other's change.
 */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = after[key];
  }
  return changed;
}
