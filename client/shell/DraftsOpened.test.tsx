import { Suspense } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { useForm } from '../data/useForm.ts';
import { draftStorageKey } from '../lib/drafts.ts';
import { flushDrafts, keepDraft, reloadDraftsForTests } from '../state/sealed-drafts.ts';
import { mockFetch } from '../../test/helpers/client-fetch.ts';
import { signedInCoach } from '../../test/helpers/client-drafts.ts';
import { DraftsOpened } from './DraftsOpened.tsx';

/* After a reload the shell opens the coach's sealed drafts before any screen mounts, so each form finds its own. */
const note = draftStorageKey('me', 'p1', 'comment');

function CommentBox() {
  const form = useForm<string>({ draft: note });
  return <textarea aria-label="Neuer Kommentar" value={form.value ?? ''} readOnly />;
}
const screenInShell = () =>
  render(
    <Suspense fallback={<p>Wird geladen</p>}>
      <DraftsOpened>
        <CommentBox />
      </DraftsOpened>
    </Suspense>,
  );

afterEach(() => vi.unstubAllGlobals());

test('after a reload the screen waits for the sealed drafts, then the form finds its draft as it mounts', async () => {
  mockFetch({});
  signedInCoach('me');
  keepDraft(note, 'Rückruf vereinbart');
  await flushDrafts();
  reloadDraftsForTests();
  screenInShell();
  expect(screen.getByText('Wird geladen')).toBeTruthy();
  expect(((await screen.findByLabelText('Neuer Kommentar')) as HTMLTextAreaElement).value).toBe('Rückruf vereinbart');
});

test('without a stored draft the screen shows at once, and no key is asked for', () => {
  const { calls } = mockFetch({});
  signedInCoach('me');
  screenInShell();
  expect((screen.getByLabelText('Neuer Kommentar') as HTMLTextAreaElement).value).toBe('');
  expect(calls).toEqual([]);
});
