import { signal, computed, effect } from '@preact/signals-react';
import { getNews, markNewsRead, markNewsUnread } from '../api/news.ts';
import { isAbortError } from '../data/http.ts';
import type { NewsItem } from '../../contract/schemas/news.ts';
import { user } from './session.ts';

/** Every news item as GET /news answered, `read` for the signed-in coach. */
export const news = signal<NewsItem[]>([]);
/** Whether GET /news is on its way: screens that lay out around the news wait for it (no layout shift). */
export const newsLoading = signal(false);
/** Unread items in reverse order of the answer (docs/product.md#screens, news menu). */
export const unreadNews = computed(() => news.value.filter((item) => !item.read).reverse());

/** Per item, the change on its way to the server: the next one waits for it, so two quick clicks land in their order. */
const sending = new Map<string, Promise<unknown>>();

// Read state is per coach: when the session ends the list goes, so the next coach to sign in on this
// browser never sees the previous one's badge while their own news are loading.
effect(() => {
  if (user.value) return;
  news.value = [];
  sending.clear();
});

/**
 * Load the news; a failure goes to the console only (docs/product.md#errors). A load stopped because the session
 * ended (logout while it ran) is no failure: nothing is logged and the emptied list stays empty.
 */
export async function loadNews(): Promise<void> {
  newsLoading.value = true;
  try {
    const { data } = await getNews();
    news.value = data;
  } catch (error) {
    if (isAbortError(error)) return;
    console.error('Could not load news', error);
  } finally {
    newsLoading.value = false;
  }
}

function setRead(id: string, read: boolean): void {
  news.value = news.value.map((item) => (item.id === id ? { ...item, read } : item));
}

/**
 * Mark read/unread: every view reads the same signal, so all update at once. The change is shown
 * immediately and rolled back if the server refuses it (unless a later change of the item has been made since).
 * Changes of one item go to the server one after another: sent side by side, "unread" then "read" could arrive
 * the other way round and leave the item unread while the screen says read.
 */
async function changeRead(id: string, read: boolean): Promise<void> {
  const coachId = user.value?.id;
  if (!coachId) throw new Error('markRead/markUnread need a signed-in coach');
  const before = news.value.find((item) => item.id === id)?.read;
  setRead(id, read);
  const post = () => (read ? markNewsRead(id, coachId) : markNewsUnread(id, coachId));
  const previous = sending.get(id);
  const send = previous ? previous.catch(() => undefined).then(post) : post();
  sending.set(id, send);
  try {
    await send;
  } catch (error) {
    if (before !== undefined && sending.get(id) === send) setRead(id, before);
    throw error;
  } finally {
    if (sending.get(id) === send) sending.delete(id);
  }
}

export const markRead = (id: string) => changeRead(id, true);
export const markUnread = (id: string) => changeRead(id, false);
