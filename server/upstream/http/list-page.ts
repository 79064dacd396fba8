import { orderColumn } from '../lib/sort-key.ts';
import { type ParsedFilter, whereExpression } from './filter.ts';
import type { AnyQuery, Row } from '../resource/definition.ts';

/**
 * One page of a list call, the one implementation for every list the upstream answers: the filter's `where` on
 * top of the caller's scope, the total before limit and skip (for X-Total-Count), the filter's order or the list's
 * default (names by their German sort key, lib/sort-key.ts), the id as the last tie-breaker so pages never overlap.
 */
export async function listPage(
  scoped: AnyQuery,
  table: string,
  filter: ParsedFilter,
  defaultOrder: readonly { field: string; direction: 'asc' | 'desc' }[],
): Promise<{ rows: Row[]; total: number }> {
  const base = filter.where ? scoped.where((eb) => whereExpression(eb, filter.where!, table)) : scoped;
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
  let query = base.selectAll(table as never);
  const order = filter.order.length ? filter.order : defaultOrder;
  for (const o of order) query = query.orderBy(`${table}.${orderColumn(table, o.field)}`, o.direction);
  if (!order.some((o) => o.field === 'id')) query = query.orderBy(`${table}.id`, 'asc');
  query = query.limit(filter.limit ?? 2 ** 31 - 1).offset(filter.skip);
  return { rows: (await query.execute()) as Row[], total: Number(counted?.count ?? 0) };
}
