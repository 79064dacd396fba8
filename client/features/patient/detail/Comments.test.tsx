import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { ApiError } from '../../../data/http.ts';
import type { Comment } from '../../../../contract/schemas/comments.ts';
import { Comments, draftKey } from './Comments.tsx';
import { mockFetch } from '../../../../test/helpers/client-fetch.ts';
import { draftsBeforeReload, offeredAfterReload, reloadWithinSession, signedInCoach } from '../../../../test/helpers/client-drafts.ts';

vi.mock('../../../api/comments.ts', () => ({ listComments: vi.fn(), createComment: vi.fn(), updateComment: vi.fn(), deleteComment: vi.fn() }));
const api = await import('../../../api/comments.ts');
const listComments = vi.mocked(api.listComments);
const createComment = vi.mocked(api.createComment);
const updateComment = vi.mocked(api.updateComment);
const deleteComment = vi.mocked(api.deleteComment);

const comment = (over: Partial<Comment> = {}): Comment => ({
  id: 'c1',
  patientId: 'p1',
  authorId: 'me',
  authorName: 'Clara Coach',
  text: 'Telefonat geführt, stabil.',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
  deletedAt: null,
  deletedBy: null,
  deletedByName: null,
  ...over,
});

beforeEach(() => {
  vi.resetAllMocks();
  listComments.mockResolvedValue({ data: [], total: 0 });
  // The comment calls are mocked above; fetch only hands out the session's draft key.
  mockFetch({});
  signedInCoach('me');
});

const box = () => screen.getByLabelText('Neuer Kommentar') as HTMLTextAreaElement;
const type = (el: HTMLTextAreaElement, text: string) => fireEvent.input(el, { target: { value: text } });

test('a failed save keeps the text in the box and in storage, says so and saves on retry', async () => {
  createComment.mockRejectedValueOnce(new ApiError(503, 'HTTP_503', 'down'));
  render(<Comments patientId="p1" userId="me" />);
  await screen.findByText('Noch keine Kommentare.');
  type(box(), 'Rückruf vereinbart');
  fireEvent.click(screen.getByRole('button', { name: 'Kommentar speichern' }));

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Der Kommentar wurde nicht gespeichert');
  expect(box().value).toBe('Rückruf vereinbart');
  expect(await offeredAfterReload(draftKey('me', 'p1'))).toBe('Rückruf vereinbart');

  createComment.mockResolvedValueOnce({ data: comment({ id: 'c9', text: 'Rückruf vereinbart' }), total: null });
  fireEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
  await screen.findByText('Rückruf vereinbart', { selector: 'p' });
  expect(box().value).toBe('');
  expect(localStorage.getItem(draftKey('me', 'p1'))).toBeNull();
  expect(createComment).toHaveBeenLastCalledWith({ patientId: 'p1', text: 'Rückruf vereinbart' });
});

test('the box is not cleared while the save is still on its way', async () => {
  let resolve!: (value: { data: Comment; total: null }) => void;
  createComment.mockReturnValueOnce(
    new Promise((r) => {
      resolve = r;
    }),
  );
  render(<Comments patientId="p1" userId="me" />);
  await screen.findByText('Noch keine Kommentare.');
  type(box(), 'Zwischenstand');
  fireEvent.click(screen.getByRole('button', { name: 'Kommentar speichern' }));
  await waitFor(() => expect(createComment).toHaveBeenCalled());
  expect(box().value).toBe('Zwischenstand');
  expect(await offeredAfterReload(draftKey('me', 'p1'))).toBe('Zwischenstand');
  resolve({ data: comment({ id: 'c2', text: 'Zwischenstand' }), total: null });
  await waitFor(() => expect(box().value).toBe(''));
});

test('after a reload the unsaved draft is back in the box', async () => {
  await draftsBeforeReload({ [draftKey('me', 'p1')]: 'Angefangener Text vor dem Neuladen' });
  render(<Comments patientId="p1" userId="me" />);
  expect(box().value).toBe('Angefangener Text vor dem Neuladen');
  expect(screen.getByText(/Ihr nicht gespeicherter Entwurf wurde wiederhergestellt/)).toBeTruthy();
  createComment.mockResolvedValueOnce({ data: comment({ id: 'c3', text: 'Angefangener Text vor dem Neuladen' }), total: null });
  fireEvent.click(screen.getByRole('button', { name: 'Kommentar speichern' }));
  await waitFor(() => expect(box().value).toBe(''));
  type(box(), 'Nächster Kommentar');
  expect(screen.queryByText(/Entwurf wurde wiederhergestellt/)).toBeNull();
});

test("drafts are kept per coach and patient: another patient's or another coach's draft never shows", async () => {
  signedInCoach('colleague');
  await draftsBeforeReload({ [draftKey('colleague', 'p1')]: 'Notiz der Kollegin' });
  signedInCoach('me');
  await draftsBeforeReload({ [draftKey('me', 'p2')]: 'für jemand anderen' });
  render(<Comments patientId="p1" userId="me" />);
  expect(box().value).toBe('');
});

test("only one's own comments can be edited and deleted", async () => {
  listComments.mockResolvedValue({
    data: [comment(), comment({ id: 'c2', authorId: 'other', authorName: 'Bernd Kollege', text: 'Fremder Kommentar' })],
    total: 2,
  });
  render(<Comments patientId="p1" userId="me" />);
  const items = await screen.findAllByRole('listitem');
  expect(within(items[0]).getByRole('button', { name: 'Bearbeiten' })).toBeTruthy();
  expect(within(items[1]).queryByRole('button', { name: 'Bearbeiten' })).toBeNull();
  expect(within(items[1]).queryByRole('button', { name: 'Löschen' })).toBeNull();
});

test('a failed edit keeps the edited text and comes back after a reload', async () => {
  listComments.mockResolvedValue({ data: [comment()], total: 1 });
  updateComment.mockRejectedValueOnce(new ApiError(0, 'NETWORK_ERROR', 'offline'));
  const { unmount } = render(<Comments patientId="p1" userId="me" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
  const edit = screen.getByLabelText('Kommentar bearbeiten') as HTMLTextAreaElement;
  type(edit, 'Korrigierter Text');
  fireEvent.click(screen.getByRole('button', { name: 'Änderung speichern' }));
  expect((await screen.findByRole('alert')).textContent).toContain('Keine Verbindung zum Server');
  expect(edit.value).toBe('Korrigierter Text');

  unmount();
  await reloadWithinSession();
  render(<Comments patientId="p1" userId="me" />);
  const again = (await screen.findByLabelText('Kommentar bearbeiten')) as HTMLTextAreaElement;
  expect(again.value).toBe('Korrigierter Text');
});

test('deleting asks first and removes the comment once the server agreed', async () => {
  listComments.mockResolvedValue({ data: [comment()], total: 1 });
  deleteComment.mockResolvedValueOnce({ data: undefined, total: null });
  render(<Comments patientId="p1" userId="me" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Löschen' }));
  expect(deleteComment).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Endgültig löschen', hidden: true }));
  await waitFor(() => expect(screen.queryByText('Telefonat geführt, stabil.')).toBeNull());
  // Deleting names the version on screen, so a colleague's change in between is not deleted unseen.
  expect(deleteComment).toHaveBeenCalledWith('c1', '"2026-11-20T09:00:00.000Z"');
});

test('a failed list load offers a retry that loads again', async () => {
  listComments.mockRejectedValueOnce(new ApiError(500, 'HTTP_500', 'x'));
  render(<Comments patientId="p1" userId="me" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Erneut versuchen' }));
  await screen.findByText('Noch keine Kommentare.');
  expect(listComments).toHaveBeenCalledTimes(2);
});

test('older comments are loaded on request', async () => {
  listComments.mockResolvedValueOnce({ data: [comment()], total: 2 });
  render(<Comments patientId="p1" userId="me" />);
  expect(await screen.findByText('Die neuesten 1 von 2 Kommentaren werden angezeigt.')).toBeTruthy();
  listComments.mockResolvedValueOnce({ data: [comment(), comment({ id: 'c0', text: 'Ganz alter Kommentar' })], total: 2 });
  fireEvent.click(screen.getByRole('button', { name: 'Ältere Kommentare laden' }));
  expect(await screen.findByText('Ganz alter Kommentar')).toBeTruthy();
  expect(listComments.mock.calls.at(-1)![0]!.limit).toBe(101);
  expect(screen.queryByRole('button', { name: 'Ältere Kommentare laden' })).toBeNull();
});

test('without X-Total-Count the extra row tells that older comments exist ("mehr als")', async () => {
  const many = Array.from({ length: 51 }, (_, i) => comment({ id: `c${i}`, text: `Kommentar ${i}` }));
  listComments.mockResolvedValueOnce({ data: many, total: null });
  render(<Comments patientId="p1" userId="me" />);
  expect(await screen.findByText('Die neuesten 50 von mehr als 50 Kommentaren werden angezeigt.')).toBeTruthy();
  expect(screen.queryByText('Kommentar 50')).toBeNull();
  expect(listComments.mock.calls[0][0]!.limit).toBe(51);
  listComments.mockResolvedValueOnce({ data: many, total: null });
  fireEvent.click(screen.getByRole('button', { name: 'Ältere Kommentare laden' }));
  expect(await screen.findByText('Kommentar 50')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Ältere Kommentare laden' })).toBeNull();
});
