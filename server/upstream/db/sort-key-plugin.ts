import {
  ColumnNode,
  ColumnUpdateNode,
  DefaultInsertValueNode,
  InsertQueryNode,
  PrimitiveValueListNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { KEYED_COLUMNS, type KeyedColumn } from '../lib/sort-key.ts';

/**
 * Keeps the stored sort and search keys (lib/sort-key.ts) in step with the names, on every write: an INSERT or
 * UPDATE of patients or coaches that sets a name (or phone) also sets its key column, computed here from the
 * value. One place for every route, the seed and the tests' fixtures, so no write path can forget it. A write
 * that sets a keyed column to an SQL expression instead of a value is refused: its key could not be computed.
 */
export class SortKeyPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (InsertQueryNode.is(node)) return keyInsert(node);
    if (UpdateQueryNode.is(node)) return keyUpdate(node);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

function tableName(node: OperationNode | undefined): string | undefined {
  return node && TableNode.is(node) ? node.table.identifier.name : undefined;
}

function columnName(node: OperationNode): string | undefined {
  return ColumnNode.is(node) ? node.column.name : undefined;
}

function keyOf(keyed: KeyedColumn, value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`sort keys: ${where} must be written as a text value`);
  return keyed.key(value);
}

/** The key columns a write needs: [source column index, key column, its index or -1]. */
function plan(table: string | undefined, columns: readonly string[]) {
  const keyed = table && Object.hasOwn(KEYED_COLUMNS, table) ? KEYED_COLUMNS[table] : undefined;
  if (!keyed) return [];
  return columns.flatMap((name, index) =>
    Object.hasOwn(keyed, name) ? keyed[name].map((k) => ({ source: index, keyed: k, target: columns.indexOf(k.column) })) : [],
  );
}

function keyInsert(node: InsertQueryNode): InsertQueryNode {
  const table = tableName(node.into);
  const columns = (node.columns ?? []).map((c) => c.column.name);
  const steps = plan(table, columns);
  if (steps.length === 0 || !node.values || !ValuesNode.is(node.values)) return node;
  const added = steps.filter((s) => s.target < 0).map((s) => s.keyed.column);
  const allColumns = [...columns, ...added];
  const rows = node.values.values.map((row) => {
    const primitive = PrimitiveValueListNode.is(row);
    const cells: unknown[] = primitive ? [...row.values] : [...(row as ValueListNode).values];
    const valueAt = (i: number): unknown => {
      const cell = cells[i];
      if (primitive) return cell;
      if (ValueNode.is(cell as OperationNode)) return (cell as ValueNode).value;
      if (DefaultInsertValueNode.is(cell as OperationNode)) return null;
      throw new Error(`sort keys: ${table}.${columns[i]} must be written as a text value`);
    };
    for (const step of steps) {
      const key = keyOf(step.keyed, valueAt(step.source), `${table}.${columns[step.source]}`);
      const index = step.target >= 0 ? step.target : allColumns.indexOf(step.keyed.column);
      cells[index] = primitive ? key : ValueNode.create(key);
    }
    return primitive ? PrimitiveValueListNode.create(cells) : ValueListNode.create(cells as OperationNode[]);
  });
  return InsertQueryNode.cloneWith(node, { columns: allColumns.map((name) => ColumnNode.create(name)), values: ValuesNode.create(rows) });
}

function keyUpdate(node: UpdateQueryNode): UpdateQueryNode {
  const table = tableName(node.table);
  const updates = node.updates ?? [];
  const steps = plan(
    table,
    updates.map((u) => columnName(u.column) ?? ''),
  );
  if (steps.length === 0) return node;
  const next = [...updates];
  for (const step of steps) {
    const value = updates[step.source].value;
    if (!ValueNode.is(value)) throw new Error(`sort keys: ${table}.${columnName(updates[step.source].column)} must be written as a text value`);
    const update = ColumnUpdateNode.create(ColumnNode.create(step.keyed.column), ValueNode.create(keyOf(step.keyed, value.value, String(table))));
    const existing = next.findIndex((u) => columnName(u.column) === step.keyed.column);
    if (existing >= 0) next[existing] = update;
    else next.push(update);
  }
  return Object.freeze({ ...node, updates: Object.freeze(next) });
}
