import { request } from '../data/http.ts';
import { NewsListSchema } from '../../contract/schemas/news.ts';

export const getNews = () => request('GET', '/news', { schema: NewsListSchema });
export const markNewsRead = (id: string, coachId: string) => request('POST', `/news/${encodeURIComponent(id)}/read/${encodeURIComponent(coachId)}`);
export const markNewsUnread = (id: string, coachId: string) => request('POST', `/news/${encodeURIComponent(id)}/unread/${encodeURIComponent(coachId)}`);
