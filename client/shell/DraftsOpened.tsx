import type { ReactNode } from 'react';
import { openDrafts } from '../state/sealed-drafts.ts';

/**
 * Screens wait (suspend to the nearest loading state) until the coach's stored drafts are opened
 * (state/sealed-drafts.ts), so every form finds its draft when it mounts, as it did when drafts were plain text.
 * With nothing to open there is no wait at all.
 */
export function DraftsOpened({ children }: { children: ReactNode }) {
  const opening = openDrafts();
  if (opening) throw opening;
  return <>{children}</>;
}
