import { expect, test } from 'vitest';
import { listQueryToSearch, parseListQuery, toListFilter, PAGE_SIZE } from './listQuery.ts';

const now = new Date('2026-11-22T12:00:00Z');

test('a query survives the round trip through the URL', () => {
  const search = '?q=M%C3%BCller&coach=c2&status=ending&last=red&sort=-lastDataAt&page=3&size=50';
  const query = parseListQuery(search);
  expect(query).toEqual({ q: 'Müller', coach: 'c2', status: 'ending', last: 'red', sort: '-lastDataAt', page: 3, size: 50 });
  expect(listQueryToSearch(query)).toBe(search);
});

test('unknown or broken URL values fall back to the defaults', () => {
  expect(parseListQuery('?status=deleted&last=blue&sort=password&page=-4&size=1000')).toEqual({
    q: '',
    coach: '',
    status: '',
    last: '',
    sort: 'lastName',
    page: 1,
    size: 25,
  });
  expect(listQueryToSearch(parseListQuery(''))).toBe('');
});

test('the page becomes limit and skip', () => {
  const filter = toListFilter(parseListQuery('?page=3'), now);
  expect(filter.limit).toBe(PAGE_SIZE);
  expect(filter.skip).toBe(2 * PAGE_SIZE);
  expect(filter.where).toBeUndefined();
});

test('the page size (25, 50 or 100) and the page become limit and skip', () => {
  expect(toListFilter(parseListQuery('?page=2&size=100'), now)).toMatchObject({ limit: 100, skip: 100 });
  expect(toListFilter(parseListQuery('?size=50'), now)).toMatchObject({ limit: 50, skip: 0 });
  expect(listQueryToSearch({ ...parseListQuery(''), size: 25 })).toBe('');
});

test('each search word must match first name, last name, code or, with a digit, the phone', () => {
  const filter = toListFilter(parseListQuery('?q=anna%200171'), now);
  const [anna, digits] = (filter.where as { and: { or: Record<string, { like: string }>[] }[] }).and;
  const fields = (part: { or: Record<string, { like: string }>[] }) => [...new Set(part.or.map((c) => Object.keys(c)[0]))];
  expect(fields(anna)).toEqual(['firstName', 'lastName', 'patientCode']);
  expect(fields(digits)).toEqual(['firstName', 'lastName', 'patientCode', 'phone']);
  expect(anna.or).toContainEqual({ lastName: { like: '%anna%' } });
  expect(digits.or).toContainEqual({ phone: { like: '%0171%' } });
});

test('the last-data filter uses the same day limits as the traffic light', () => {
  expect(toListFilter(parseListQuery('?last=yellow'), now).where).toEqual({ lastDataAt: { lt: '2026-11-20T12:00:00.000Z', gte: '2026-11-15T12:00:00.000Z' } });
  expect(toListFilter(parseListQuery('?last=grey'), now).where).toEqual({ or: [{ lastDataAt: null }, { lastDataAt: { lt: '2026-10-23T12:00:00.000Z' } }] });
});

test('aftercare status and coach become date and equality conditions', () => {
  const where = toListFilter(parseListQuery('?status=active&coach=c1'), now).where;
  expect(where).toEqual({ and: [{ primaryCoachId: 'c1' }, { aftercareStart: { lte: '2026-11-22' } }, { aftercareEnd: { gte: '2026-11-22' } }] });
});

test('sorting by name descending sorts last name, then first name', () => {
  expect(toListFilter(parseListQuery('?sort=-lastName'), now).order).toEqual(['lastName DESC', 'firstName DESC', 'id ASC']);
});
