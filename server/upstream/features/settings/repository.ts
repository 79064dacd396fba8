import type { Db } from '../../db/index.ts';

/* The instance's settings (one JSON value per key) and its training materials. */

/** Reads one JSON setting, or the fallback when the key is missing or unreadable. */
export async function readSetting<T>(db: Db, key: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (!row) return fallback;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return fallback;
  }
}

export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}

export async function trainingMaterials(db: Db) {
  return db.selectFrom('training_materials').selectAll().orderBy('position').orderBy('title').execute();
}
