import { expect, test } from 'vitest';
import { listQueryToSearch, parseListQuery, toListFilter, PAGE_SIZE } from './listQuery.ts';

const now = new Date('2026-11-22T12:00:00Z');

test('a query survives the round trip through the URL', () => {
  const search = '?q=M%C3%BCller&coach=c2&status=ending&last=red&sort=-lastDataAt&page=3';
  const query = parseListQuery(search);
  expect(query).toEqual({ q: 'Müller', coach: 'c2', status: 'ending', last: 'red', sort: '-lastDataAt', page: 3 });
  expect(listQueryToSearch(query)).toBe(search);
});

test('unknown or broken URL values fall back to the defaults', () => {
  expect(parseListQuery('?status=deleted&last=blue&sort=password&page=-4')).toEqual({
    q: '', coach: '', status: '', last: '', sort: 'lastName', page: 1,
  });
  expect(listQueryToSearch(parseListQuery(''))).toBe('');
});

test('the page becomes limit and skip', () => {
  const filter = toListFilter(parseListQuery('?page=3'), now);
  expect(filter.limit).toBe(PAGE_SIZE);
  expect(filter.skip).toBe(2 * PAGE_SIZE);
  expect(filter.where).toBeUndefined();
});

test('each search word must match first name, last name or code', () => {
  const filter = toListFilter(parseListQuery('?q=anna%20m%C3%BC'), now);
  expect(filter.where).toEqual({
    and: [
      { or: [{ firstName: { like: '%anna%' } }, { lastName: { like: '%anna%' } }, { patientCode: { like: '%anna%' } }] },
      { or: [{ firstName: { like: '%mü%' } }, { lastName: { like: '%mü%' } }, { patientCode: { like: '%mü%' } }] },
    ],
  });
});

test('the last-data filter uses the same day limits as the traffic light', () => {
  expect(toListFilter(parseListQuery('?last=yellow'), now).where).toEqual({
    lastDataAt: { lt: '2026-11-20T12:00:00.000Z', gte: '2026-11-15T12:00:00.000Z' },
  });
  expect(toListFilter(parseListQuery('?last=grey'), now).where).toEqual({
    or: [{ lastDataAt: null }, { lastDataAt: { lt: '2026-10-23T12:00:00.000Z' } }],
  });
});

test('aftercare status and coach become date and equality conditions', () => {
  const where = toListFilter(parseListQuery('?status=active&coach=c1'), now).where;
  expect(where).toEqual({ and: [{ primaryCoachId: 'c1' }, { aftercareStart: { lte: '2026-11-22' } }, { aftercareEnd: { gte: '2026-11-22' } }] });
});

test('sorting by name descending sorts last name, then first name', () => {
  expect(toListFilter(parseListQuery('?sort=-lastName'), now).order).toEqual(['lastName DESC', 'firstName DESC', 'id ASC']);
});
