import { expect } from 'vitest';
import { apiInPage, signIn } from '../helpers/e2e-api.ts';
import { forEachUpstream } from '../helpers/e2e-upstreams.ts';

interface News {
  id: string | number;
  title: string;
  read: boolean;
}

forEachUpstream((upstream, journey) => {
  // The health manager's read state is used by no other journey.
  journey('shows the unread count as a badge, opens an item from the news menu and marks it read and unread', async ({ j }) => {
    const { page } = j;
    await page.goto('/login');
    await signIn(page, upstream.accounts.health, upstream.password);
    await page.waitForURL('**/dashboard');
    const news = await apiInPage<News[]>(page, 'GET', '/news');
    const unread = news.filter((n) => !n.read);
    expect(unread.length).toBeGreaterThan(1);

    const menuButton = (n: number) => page.getByRole('button', { name: `Sie haben ${n} ungelesene News` });
    await menuButton(unread.length).waitFor();
    expect((await menuButton(unread.length).innerText()).trim()).toBe(String(unread.length));
    await j.screen('dashboard with news badge');

    await menuButton(unread.length).click();
    const items = page.getByRole('menu', { name: `Sie haben ${unread.length} ungelesene News` }).getByRole('menuitem');
    // docs/product.md: unread news by title, in reverse order.
    expect(await items.allInnerTexts()).toEqual(unread.map((n) => n.title).reverse());
    await j.screen('news menu open');

    const chosen = unread[unread.length - 1];
    await items.first().click();
    await page.waitForURL((url) => url.pathname === '/news-dashboard' && url.searchParams.get('id') === String(chosen.id));
    await menuButton(unread.length - 1).waitFor();
    await j.screen('news item opened');

    await page.getByRole('button', { name: `Als ungelesen markieren: ${chosen.title}` }).click();
    await menuButton(unread.length).waitFor();
    await j.screen('marked unread');
    await page.getByRole('button', { name: `Als gelesen markieren: ${chosen.title}` }).click();
    await menuButton(unread.length - 1).waitFor();
    // The badge changes at once; the server has it once both changes arrived, in the order they were made.
    await expect.poll(async () => (await apiInPage<News[]>(page, 'GET', '/news')).find((n) => n.id === chosen.id)?.read).toBe(true);

    // A link to one item, opened afresh: that item has the keyboard focus once the page shows.
    await page.goto(`/news-dashboard?id=${encodeURIComponent(chosen.id)}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-expanded'))).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(chosen.title);
  });
});
