import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { json, mockFetch, type RecordedCall } from '../../../test/helpers/client-fetch.ts';
import { signedInCoach } from '../../../test/helpers/client-drafts.ts';
import { ANNA_BERG } from '../../../test/helpers/screen-records.ts';
import { renderAt } from '../../../test/helpers/screen-render.tsx';
import { anna, ben, dialog, type } from '../../../test/helpers/admin-coaches.ts';
import { reportError } from '../../lib/error-reporting.ts';

vi.mock('../../lib/error-reporting.ts', () => ({ reportError: vi.fn() }));
const { default: AdminPage } = await import('./index.tsx');

// The coach form through the real API layer: a PATCH with only what was changed, and a 2xx of another shape.

let stored = ben;
let patchAnswer: (call: RecordedCall) => Response;
let calls: RecordedCall[];
beforeEach(() => {
  stored = ben;
  vi.mocked(reportError).mockClear();
  ({ calls } = mockFetch({
    'GET /coaches': json([anna, stored]),
    'GET /coaches/coach-2': () => json(stored, { headers: { ETag: `"${stored.updatedAt}"` } }),
    'GET /coaches/coach-2/patients': json([]),
    'PATCH /coaches/coach-2': (call) => {
      stored = { ...stored, ...(call.body as object), updatedAt: '2026-11-21T10:00:00.000Z' };
      return patchAnswer(call);
    },
  }));
  signedInCoach('coach-1', { ...ANNA_BERG, isAdmin: true });
});
afterEach(() => vi.unstubAllGlobals());

const editPhone = async (phone: string) => {
  renderAt('/admin/coaches/coach-2', <AdminPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Bearbeiten' }));
  type(dialog(), 'Telefon', phone);
  fireEvent.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
};
const patches = () => calls.filter((c) => c.method === 'PATCH');

test('the coach form sends PATCH with only the changed fields, with If-Match', async () => {
  patchAnswer = () => json(stored);
  await editPhone('040 123 456');
  await waitFor(() => expect(patches()).toHaveLength(1));
  expect(patches()[0].body).toEqual({ phone: '040 123 456' });
  expect(patches()[0].headers['if-match']).toBeTruthy();
  expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('a 2xx with another body reads the coach again, shows the saved record and reports the shape once, without an error', async () => {
  patchAnswer = () => json({ count: 1 });
  await editPhone('040 987');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(calls.filter((c) => c.method === 'GET' && c.path === '/v2/coaches/coach-2').length).toBeGreaterThanOrEqual(2);
  expect(await screen.findAllByText(/040 987/)).not.toHaveLength(0);
  expect(document.body.textContent).not.toMatch(/nicht gespeichert/i);
  expect(reportError).toHaveBeenCalledOnce();
});
