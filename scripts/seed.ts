import '../server/upstream/quiet-sqlite-warning.ts';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/upstream/config.ts';
import { openStorage, privateFolder } from '../server/upstream/db/index.ts';
import { prepareData } from '../server/upstream/seed/index.ts';
import { seedScale } from '../server/upstream/seed/scale.ts';

/*
 * `npm run seed -- --patients 100000`: the database the upstream would use (DATA_DIR, or DATABASE_URL) gets the demo
 * instance, if it is empty, plus N generated patients with coaches, care teams, notes and app data. For trying
 * and measuring an instance of a real size; run it once per database (a second run would collide with the first).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { patients: { type: 'string', default: '0' } } });
  const patients = Number(values.patients);
  if (!Number.isInteger(patients) || patients < 0 || patients > 1_000_000) {
    console.error('--patients must be a whole number from 0 to 1000000');
    process.exit(1);
  }
  const config = loadConfig({ ...process.env, DEMO_DATA: 'true' });
  if (config.dataDir !== ':memory:' && !config.databaseUrl) privateFolder(config.dataDir);
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, postgresSchema: 'url' });
  try {
    const started = Date.now();
    await prepareData(storage.db, { demoData: true, adminEmail: config.adminEmail, adminPassword: config.adminPassword });
    if (await storage.db.selectFrom('coaches').select('id').where('id', '=', 'scale-coach-0001').executeTakeFirst()) {
      throw new Error('this database was seeded with generated patients already; seed an empty one');
    }
    const result = patients > 0 ? await seedScale(storage.db, { patients }) : undefined;
    const where = config.databaseUrl ? 'DATABASE_URL' : config.dataDir;
    console.log(`seeded ${where} (${storage.dialect}) in ${Date.now() - started} ms: demo instance${result ? `, ${JSON.stringify(result)}` : ''}`);
  } finally {
    await storage.close();
  }
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
