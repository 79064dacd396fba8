import type { ReactNode } from 'react';
import { DraftsOpened } from './DraftsOpened.tsx';
import Shell from './Shell.tsx';

/** The layout of every signed-in page: the shell, shown once the session's drafts are open; the page is `children`. */
export function SignedInLayout({ children }: { children?: ReactNode }) {
  return (
    <DraftsOpened>
      <Shell>{children}</Shell>
    </DraftsOpened>
  );
}
