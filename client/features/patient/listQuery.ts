import type { ListFilter } from '../../../contract/schemas/common.ts';
import { ENDING_SOON_DAYS, isoDay } from '../../components/AftercareBadge.tsx';
import { patientSearchWhere } from '../../components/patient-search/search-where.ts';

/** What the patient list shows, as kept in the URL query so a reload or a shared link keeps it. */
export interface ListQuery {
  /** Name, pseudonym code or phone number, free text (the same search as "/" and the dashboard's). */
  q: string;
  /** Primary coach id; '' = all the caller may see. */
  coach: string;
  status: '' | 'planned' | 'active' | 'ending' | 'completed';
  last: '' | 'green' | 'yellow' | 'red' | 'grey';
  /** Column, '-' prefix for descending. */
  sort: string;
  /** 1-based page. */
  page: number;
  /** Rows per page. */
  size: PageSize;
}

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const PAGE_SIZE: PageSize = 25;
export const SORTABLE = ['lastName', 'patientCode', 'aftercareEnd', 'lastDataAt'] as const;
const STATUSES = ['planned', 'active', 'ending', 'completed'] as const;
const LASTS = ['green', 'yellow', 'red', 'grey'] as const;
export const DEFAULT_SORT = 'lastName';

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | '' {
  return value && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

/** Read the query from a URL search string; anything unknown falls back to the default. */
export function parseListQuery(search: string): ListQuery {
  const p = new URLSearchParams(search);
  const sort = p.get('sort') ?? '';
  const sortField = sort.replace(/^-/, '');
  const page = Number.parseInt(p.get('page') ?? '', 10);
  const size = Number(p.get('size'));
  return {
    q: (p.get('q') ?? '').slice(0, 100),
    coach: (p.get('coach') ?? '').slice(0, 100),
    status: pick(p.get('status'), STATUSES),
    last: pick(p.get('last'), LASTS),
    sort: (SORTABLE as readonly string[]).includes(sortField) ? sort : DEFAULT_SORT,
    page: Number.isFinite(page) && page > 0 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : PAGE_SIZE,
  };
}

/** The URL search string for a query; defaults are left out so plain links stay plain. */
export function listQueryToSearch(query: ListQuery): string {
  const p = new URLSearchParams();
  if (query.q.trim()) p.set('q', query.q.trim());
  if (query.coach) p.set('coach', query.coach);
  if (query.status) p.set('status', query.status);
  if (query.last) p.set('last', query.last);
  if (query.sort !== DEFAULT_SORT) p.set('sort', query.sort);
  if (query.page > 1) p.set('page', String(query.page));
  if (query.size !== PAGE_SIZE) p.set('size', String(query.size));
  const text = p.toString();
  return text ? `?${text}` : '';
}

const DAY = 86_400_000;

/** The docs/contract.md#lists list filter for one page of the query. */
export function toListFilter(query: ListQuery, now: Date = new Date()): ListFilter {
  const and: Record<string, unknown>[] = [];
  // Every word must match the first name, last name, code or phone: "anna mü" finds Anna Müller.
  const search = patientSearchWhere(query.q);
  if (search) and.push(...((search.and as Record<string, unknown>[] | undefined) ?? [search]));
  if (query.coach) and.push({ primaryCoachId: query.coach });
  const today = isoDay(now);
  if (query.status === 'planned') and.push({ aftercareStart: { gt: today } });
  if (query.status === 'active') and.push({ aftercareStart: { lte: today } }, { aftercareEnd: { gte: today } });
  if (query.status === 'ending') {
    and.push({ aftercareStart: { lte: today } }, { aftercareEnd: { between: [today, isoDay(new Date(now.getTime() + ENDING_SOON_DAYS * DAY))] } });
  }
  if (query.status === 'completed') and.push({ aftercareEnd: { lt: today } });
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  if (query.last === 'green') and.push({ lastDataAt: { gte: ago(2) } });
  if (query.last === 'yellow') and.push({ lastDataAt: { lt: ago(2), gte: ago(7) } });
  if (query.last === 'red') and.push({ lastDataAt: { lt: ago(7), gte: ago(30) } });
  if (query.last === 'grey') and.push({ or: [{ lastDataAt: null }, { lastDataAt: { lt: ago(30) } }] });

  const desc = query.sort.startsWith('-');
  const field = query.sort.replace(/^-/, '');
  const dir = desc ? 'DESC' : 'ASC';
  const order = field === 'lastName' ? [`lastName ${dir}`, `firstName ${dir}`, 'id ASC'] : [`${field} ${dir}`, 'lastName ASC', 'id ASC'];
  return { ...(and.length ? { where: and.length === 1 ? and[0] : { and } } : {}), order, limit: query.size, skip: (query.page - 1) * query.size };
}
