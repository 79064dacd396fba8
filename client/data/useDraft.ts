import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { markUnsaved } from '../lib/unsaved.ts';
import { dropDraft, keepDraft, storedDraft } from '../state/sealed-drafts.ts';

const read = <D>(key: string | null): D | null => (key ? storedDraft<D>(key) : null);
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * A form's draft under `key`, for useForm (data/useForm.ts): sealed in localStorage while the session lives
 * (state/sealed-drafts.ts), in the form's own shape (a text box keeps its text, a form its values and the version
 * they were typed on), and the form's place in the leave guard (lib/unsaved.ts): unsaved while the draft differs from
 * `pristine`, from the first keep() (or a draft found on opening) until clear().
 */
export function useDraft<D>(key: string | null, pristine?: D) {
  const [value, setValue] = useState<D | null>(() => read<D>(key));
  const [restored, setRestored] = useState<D | null>(value);
  // The leave guard knows this form by an id of its own: a form that goes away (its cleanup may run a frame later)
  // never unmarks the form that replaced it with the same draft.
  const id = `${useId()}:${key}`;
  const keyRef = useRef(key);
  if (keyRef.current !== key) {
    keyRef.current = key;
    const found = read<D>(key);
    setValue(found);
    setRestored(found);
  }
  // Drafts opened just after the form mounted (they open while the screen loads) still reach a form with nothing typed.
  useEffect(() => {
    setValue((typed) => typed ?? read<D>(key));
  }, [key]);
  const dirty = value !== null && (pristine === undefined || !same(value, pristine));
  useEffect(() => {
    markUnsaved(id, dirty);
    return () => markUnsaved(id, false);
  }, [id, dirty]);

  const keep = useCallback(
    (next: D) => {
      const empty = next === '';
      setValue(empty ? null : next);
      if (!key) return;
      if (empty) dropDraft(key);
      else keepDraft(key, next);
      markUnsaved(id, !empty && (pristine === undefined || !same(next, pristine)));
    },
    [key, id, pristine],
  );
  const clear = useCallback(() => {
    setValue(null);
    if (key) dropDraft(key);
    markUnsaved(id, false);
  }, [key, id]);
  return { value, restored, keep, clear };
}
