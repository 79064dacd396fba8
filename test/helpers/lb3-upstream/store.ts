/*
 * In-memory models the way LoopBack 3's memory connector keeps them: numeric ids counted up per model,
 * whatever properties a client sends are stored (the models are not strict), and list filters
 * { where, order, limit, skip } are evaluated like the connector does. Written from docs/product.md and the LoopBack
 * filter syntax only; nothing here knows the built-in upstream.
 */

export type Row = Record<string, unknown> & { id: number };
export type Where = Record<string, unknown>;
export interface Filter {
  where?: Where;
  order?: string | string[];
  limit?: number;
  skip?: number;
}

/** LoopBack compares a query value with a property of the stored type: "3" finds id 3. */
function coerce(stored: unknown, value: unknown): unknown {
  if (typeof stored === 'number' && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return value;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

/** SQL LIKE as the memory connector turns it into a regular expression: % any run, _ one character. */
function likeToRegExp(pattern: string, flags: string): RegExp {
  const source = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${source}$`, flags);
}

function test(value: unknown, condition: unknown): boolean {
  if (condition === null) return value === null || value === undefined;
  if (typeof condition !== 'object' || Array.isArray(condition)) return compare(value, coerce(value, condition)) === 0;
  return Object.entries(condition as Record<string, unknown>).every(([op, raw]) => {
    const operand = Array.isArray(raw) ? raw.map((item) => coerce(value, item)) : coerce(value, raw);
    switch (op) {
      case 'gt':
        return value != null && compare(value, operand) > 0;
      case 'gte':
        return value != null && compare(value, operand) >= 0;
      case 'lt':
        return value != null && compare(value, operand) < 0;
      case 'lte':
        return value != null && compare(value, operand) <= 0;
      case 'between':
        return value != null && compare(value, (operand as unknown[])[0]) >= 0 && compare(value, (operand as unknown[])[1]) <= 0;
      case 'inq':
        return (operand as unknown[]).some((item) => compare(value, item) === 0);
      case 'nin':
        return !(operand as unknown[]).some((item) => compare(value, item) === 0);
      case 'neq':
        return compare(value, operand) !== 0;
      case 'like':
        return typeof value === 'string' && likeToRegExp(String(raw), '').test(value);
      case 'nlike':
        return typeof value === 'string' && !likeToRegExp(String(raw), '').test(value);
      case 'ilike':
        return typeof value === 'string' && likeToRegExp(String(raw), 'i').test(value);
      default:
        throw Object.assign(new Error(`Invalid operator ${op}`), { statusCode: 400 });
    }
  });
}

export function matches(row: Row, where: Where | undefined): boolean {
  if (!where) return true;
  return Object.entries(where).every(([key, condition]) => {
    if (key === 'and') return (condition as Where[]).every((part) => matches(row, part));
    if (key === 'or') return (condition as Where[]).some((part) => matches(row, part));
    return test(row[key], condition);
  });
}

export function applyFilter(rows: Row[], filter: Filter = {}): Row[] {
  let result = rows.filter((row) => matches(row, filter.where));
  const order = typeof filter.order === 'string' ? [filter.order] : (filter.order ?? []);
  if (order.length) {
    const keys = order.map((part) => {
      const [field, dir = 'ASC'] = part.trim().split(/\s+/);
      return { field, sign: dir.toUpperCase() === 'DESC' ? -1 : 1 };
    });
    result = [...result].sort((a, b) => {
      for (const { field, sign } of keys) {
        const c = compare(a[field], b[field]);
        if (c !== 0) return c * sign;
      }
      return 0;
    });
  }
  // The memory connector slices only when skip or limit is truthy: { limit: 0 } answers every row.
  if (filter.skip || filter.limit) {
    const skip = filter.skip ?? 0;
    result = result.slice(skip, skip + (filter.limit || result.length));
  }
  return result;
}

/** One model's rows. */
export class Model {
  readonly name: string;
  private rows: Row[] = [];
  private next = 1;
  constructor(name: string) {
    this.name = name;
  }
  create(data: Record<string, unknown>): Row {
    const row = { ...data, id: this.next++ } as Row;
    this.rows.push(row);
    return row;
  }
  find(filter?: Filter): Row[] {
    return applyFilter(this.rows, filter);
  }
  findById(id: unknown): Row | undefined {
    return this.rows.find((row) => String(row.id) === String(id));
  }
  /** PUT: every property replaced (the id stays). */
  replace(id: unknown, data: Record<string, unknown>): Row | undefined {
    const index = this.rows.findIndex((row) => String(row.id) === String(id));
    if (index < 0) return undefined;
    this.rows[index] = { ...data, id: this.rows[index].id } as Row;
    return this.rows[index];
  }
  /** PATCH: the given properties changed. */
  update(id: unknown, data: Record<string, unknown>): Row | undefined {
    const row = this.findById(id);
    if (row) Object.assign(row, { ...data, id: row.id });
    return row;
  }
  remove(id: unknown): number {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => String(row.id) !== String(id));
    return before - this.rows.length;
  }
}
