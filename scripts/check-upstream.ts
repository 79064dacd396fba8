import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { API_FAMILIES, type ApiCall } from '../contract/catalog.ts';
import { issueFields, readingSchema } from '../client/api/reading.ts';
import { LoginTokenSchema } from '../contract/schemas/auth.ts';
import { SYNC_COLLECTIONS, syncRecordSchema } from '../contract/schemas/sync-db.ts';
import { compileTranslations, type Translations } from '../server/mapping/calls.ts';
import { MappingError, parseMapping, readMapping, type UpstreamMapping } from '../server/mapping/mapping-file.ts';
import { queryToApi } from '../server/mapping/filter.ts';
import { toContract } from '../server/mapping/translate.ts';
import { answerSchema, failed, formatTable, loadSchemas, type Row } from './check-upstream-rows.ts';
import { type MappingJson, proposeMapping, type Sample } from './upstream-proposal.ts';

export { failed, formatTable, type Row, type Verdict } from './check-upstream-rows.ts';

/** GETs that change something on the server, or need what only a mail gives: never called by the check. */
const NOT_READ_ONLY = new Set(['/coaches/create-trial-access', '/patients/{id}/token/get-or-create-unused', '/coaches/{id}/verify-email']);
/**
 * Singular sub-resources whose 404 the client reads as "not created yet" (noneOn404 in client/api/patients.ts): a
 * LoopBack hasOne without a row answers so.
 */
const NONE_YET = new Set(['GET /patients/{id}/evaluation-form', 'GET /patients/{id}/primary-coach', 'GET /patients/{id}/token/get-or-create-unused']);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Query values as the client sends them, each JSON-encoded. */
const query = (values: Record<string, unknown>) => `?${new URLSearchParams(Object.entries(values).map(([k, value]) => [k, JSON.stringify(value)])).toString()}`;
const emptyRow = (call: string, status: string): Row => ({ call, status, understood: 'no', missing: [], defaulted: [], note: '' });

interface Answer {
  status: number;
  text: string;
  total: string | null;
}

/** One run of the check: the rows so far, the answers seen (for the proposed mapping), the token once signed in. */
class Check {
  rows: Row[] = [];
  samples: Sample[] = [];
  token = '';
  private readonly api: string;
  private readonly translations: Translations | undefined;
  constructor(api: string, translations: Translations | undefined) {
    this.api = api;
    this.translations = translations;
  }

  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    try {
      const response = await fetch(`${this.api}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      return { status: response.status, text: await response.text(), total: response.headers.get('x-total-count') };
    } catch {
      return { status: 0, text: '', total: null };
    }
  }

  /** The answer as the gateway would hand it on: in the contract's names when a mapping is given. */
  translated(method: string, path: string, json: unknown): unknown {
    const call = this.translations?.find(method, path.split('?')[0]);
    return call?.answer ? toContract(call.answer, json) : json;
  }

  /** The path with its query values in the API's names, as the gateway would send it. */
  requested(path: string): string {
    const [pathname, query] = path.split('?');
    const plan = query === undefined ? undefined : this.translations?.find('GET', pathname)?.query;
    return plan ? `${pathname}?${queryToApi(plan, query)}` : path;
  }

  /** Whether a status already decides the row (not allowed, absent, none yet, an error). */
  private judgeStatus(row: Row, label: string, status: number, optional: boolean): boolean {
    if (status === 401 || status === 403) {
      row.understood = 'not allowed';
      row.note = 'this account may not make the call; check with an administrator account';
    } else if (optional && (status === 404 || status === 405 || status === 501)) {
      row.understood = 'absent';
      row.note = 'not in docs/product.md: the screens that use it hide it';
    } else if (status === 404 && NONE_YET.has(label)) {
      row.understood = 'none yet';
      row.note = 'read as "none yet": the screen shows its empty state and creates it';
    } else if (status < 200 || status >= 300) row.note = status === 0 ? 'upstream not reachable' : 'the client needs this call';
    else return false;
    return true;
  }

  /** One GET, read as the client reads it; returns the parsed answer when understood. */
  async check(label: string, path: string, schema: v.GenericSchema | undefined, options: { list?: boolean; optional?: boolean; shape?: Sample } = {}) {
    const answer = await this.send('GET', this.requested(path));
    const row = emptyRow(label, answer.status === 0 ? 'no answer' : String(answer.status));
    this.rows.push(row);
    if (this.judgeStatus(row, label, answer.status, options.optional ?? false)) return undefined;
    if (!schema) {
      row.understood = 'yes';
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      row.note = 'the answer is not JSON';
      return undefined;
    }
    if (options.shape) this.samples.push({ ...options.shape, objects: Array.isArray(json) ? json : [json] });
    json = this.translated('GET', path, json);
    const read = v.safeParse(readingSchema(schema), json);
    if (!read.success) {
      row.missing = issueFields(read.issues);
      return undefined;
    }
    row.understood = 'yes';
    const complete = v.safeParse(readingSchema(schema, 'complete'), json);
    if (!complete.success) row.defaulted = issueFields(complete.issues);
    if (options.list && answer.total === null) row.note = 'no X-Total-Count: lists say "mehr als N"';
    return read.output;
  }

  /** POST /auth/login; keeps the token. False when sign-in failed (the row says why). */
  async signIn(email: string, password: string): Promise<boolean> {
    const login = await this.send('POST', '/auth/login', { email, password });
    const row = emptyRow('POST /auth/login', login.status === 0 ? 'no answer' : String(login.status));
    this.rows.push(row);
    if (login.status < 200 || login.status >= 300) {
      row.note = login.status === 401 ? 'wrong CHECK_EMAIL or CHECK_PASSWORD' : login.status === 403 ? 'the account is locked' : 'sign-in failed';
      return false;
    }
    let parsed: ReturnType<typeof v.safeParse<v.GenericSchema>> | null = null;
    try {
      parsed = v.safeParse(readingSchema(LoginTokenSchema), this.translated('POST', '/auth/login', JSON.parse(login.text)));
    } catch {
      row.note = 'the answer is not JSON';
      return false;
    }
    if (!parsed.success) {
      row.missing = issueFields(parsed.issues);
      return false;
    }
    row.understood = 'yes';
    this.token = (parsed.output as { id: string }).id;
    return true;
  }
}

/** A call about one item waits until a list has named one (the asset id comes late, from the training materials). */
const needsOf = (call: ApiCall) => /^\/([^/]+)\/\{id\}/.exec(call.path)?.[1] ?? (call.path.startsWith('/app-settings/asset/') ? 'asset' : undefined);
const firstId = (data: unknown, key = 'id') => (Array.isArray(data) && data.length ? String((data[0] as Record<string, unknown>)[key]) : undefined);

/** The query of a call as the client would send it. */
function queryOf(call: ApiCall): string {
  if (call.path.startsWith('/statistics/'))
    return query({ from: day(-89), to: day(0), ...(call.query === 'DetailStatisticsQuery' ? { limit: 25, skip: 0 } : {}) });
  return call.query === 'filter: ListFilter' ? query({ filter: { limit: 5 } }) : '';
}

/** Every read-only call of the catalogue but the sync collections; ids for the calls about one item come from the lists before them. */
async function checkCalls(run: Check, schemas: Map<string, v.GenericSchema>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const calls = API_FAMILIES.flatMap((family) => family.calls).filter(
    (call) => call.method === 'GET' && !NOT_READ_ONLY.has(call.path) && !call.path.includes('{collection}'),
  );
  const later: ApiCall[] = [];
  for (const [round, list] of [
    [0, calls],
    [1, later],
  ] as const) {
    for (const call of list) {
      const collection = /^\/([^/{]+)$/.exec(call.path)?.[1];
      const needs = needsOf(call);
      const id = needs && ids.get(needs);
      if (needs && !id) {
        if (round === 0) later.push(call);
        else run.rows.push({ call: `GET ${call.path}`, status: '–', understood: 'skipped', missing: [], defaulted: [], note: `no ${needs} to ask about` });
        continue;
      }
      const path = id ? call.path.replace('{id}', encodeURIComponent(id)) : call.path;
      const base = call.answer?.replace(/\[\]$/, '');
      const shape = base && schemas.get(base);
      const isList = call.answer?.endsWith('[]') ?? false;
      const data = await run.check(`GET ${call.path}`, path + queryOf(call), answerSchema(call, schemas), {
        list: isList,
        optional: call.optional === true,
        shape: base && shape ? { shape: base, schema: shape, objects: [] } : undefined,
      });
      if (collection && isList && firstId(data)) ids.set(collection, firstId(data)!);
      if (call.path === '/system/training-materials' && firstId(data, 'assetId')) ids.set('asset', firstId(data, 'assetId')!);
      if (call.path === '/app-settings') {
        const settings = data as { assets?: { id: string }[]; logoAssetId?: string | null } | undefined;
        const asset = settings?.assets?.[0]?.id ?? settings?.logoAssetId;
        if (asset) ids.set('asset', asset);
      }
    }
  }
  return ids;
}

async function checkCollections(run: Check, patient: string | undefined): Promise<void> {
  for (const name of SYNC_COLLECTIONS) {
    const label = `GET /patients/{id}/sync-db/${name}`;
    if (!patient) {
      run.rows.push({ call: label, status: '–', understood: 'skipped', missing: [], defaulted: [], note: 'no patient to ask about' });
      continue;
    }
    const base = `/patients/${encodeURIComponent(patient)}/sync-db/${name}`;
    const shape: Sample = { shape: 'SyncRecord', schema: syncRecordSchema(name), objects: [] };
    const records = await run.check(label, `${base}${query({ filter: { limit: 5 } })}`, v.array(syncRecordSchema(name)), { list: true, shape });
    const record = firstId(records);
    if (record) await run.check(`${label}/{id}`, `${base}/${encodeURIComponent(record)}`, syncRecordSchema(name), { shape });
  }
}

/**
 * Signs in, makes every read-only call, signs out. With a mapping, answers are read as the gateway would translate
 * them. `samples` are the answers as the API sent them, for proposeMapping.
 */
export async function checkUpstream(
  baseUrl: string,
  email: string,
  password: string,
  mapping?: UpstreamMapping,
): Promise<{ rows: Row[]; signedIn: boolean; samples: Sample[] }> {
  const run = new Check(`${baseUrl.replace(/\/+$/, '')}/v2`, mapping && compileTranslations(mapping));
  if (!(await run.signIn(email, password))) return { rows: run.rows, signedIn: false, samples: run.samples };
  const ids = await checkCalls(run, await loadSchemas());
  await checkCollections(run, ids.get('patients'));
  const logout = await run.send('POST', '/auth/logout');
  run.rows.push({ ...emptyRow('POST /auth/logout', String(logout.status)), understood: logout.status >= 200 && logout.status < 300 ? 'yes' : 'no' });
  return { rows: run.rows, signedIn: true, samples: run.samples };
}

interface Args {
  url: string | undefined;
  mappingFile: string | undefined;
  writeMapping: string | undefined;
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Args {
  const args: Args = { url: undefined, mappingFile: env.UPSTREAM_MAPPING || undefined, writeMapping: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--mapping') args.mappingFile = argv[++i];
    else if (argv[i] === '--write-mapping') args.writeMapping = argv[++i];
    else if (!argv[i].startsWith('-')) args.url ??= argv[i];
  }
  return args;
}

/** The mapping file checked with the gateway's own code, and its JSON (the base of a proposal); exits 2 when wrong. */
function loadMappingArg(file: string): { mapping: UpstreamMapping; json: MappingJson } {
  try {
    return { mapping: readMapping(file), json: JSON.parse(readFileSync(file, 'utf8')) as MappingJson };
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    console.error(`UPSTREAM_MAPPING ${file}: ${error.message}`);
    process.exit(2);
  }
}

/** Prints (and with --write-mapping writes) the proposed mapping when the answers suggest more than the given one. */
function reportProposal(samples: Sample[], base: MappingJson | undefined, writeTo: string | undefined): void {
  const { notes = [], ...proposal } = proposeMapping(samples, base);
  for (const note of notes) console.log(`Not mapped: ${note}`);
  if (JSON.stringify(proposal) === JSON.stringify(base ?? { entities: {} })) return;
  const text = `${JSON.stringify(proposal, null, 2)}\n`;
  try {
    parseMapping(text);
  } catch (error) {
    console.log(`\nA proposed mapping could not be made whole: ${(error as Error).message}`);
    return;
  }
  console.log(`\nSome fields look renamed. Proposed mapping (check it, then set UPSTREAM_MAPPING to its file; README, "The field mapping"):\n${text}`);
  if (writeTo) {
    writeFileSync(writeTo, text);
    console.log(`Written to ${writeTo}. Check again with: npm run check:upstream -- --mapping ${writeTo} <URL>`);
  }
}

/** A call the product cannot do without fails the check; "not allowed" and "skipped" only warn. */
async function main() {
  const args = parseArgs(process.argv.slice(2), process.env);
  const { CHECK_EMAIL: email, CHECK_PASSWORD: password } = process.env;
  if (!args.url || !/^https?:\/\//.test(args.url)) {
    console.error(
      'Usage: CHECK_EMAIL=... CHECK_PASSWORD=... npm run check:upstream -- [--mapping FILE] [--write-mapping FILE] <UPSTREAM_URL, e.g. http://api.internal:3000>',
    );
    process.exit(2);
  }
  if (!email || !password) {
    console.error('check:upstream needs a test account: set CHECK_EMAIL and CHECK_PASSWORD (an administrator account checks every call).');
    process.exit(2);
  }
  const given = args.mappingFile === undefined ? undefined : loadMappingArg(args.mappingFile);
  console.log(
    `Checking ${args.url.replace(/\/+$/, '')}/v2 as ${email}${given ? ` through the mapping ${args.mappingFile}` : ''}. It signs in and out (POST /auth/login, POST /auth/logout) and otherwise only reads (GET).\n`,
  );
  const { rows, signedIn, samples } = await checkUpstream(args.url, email, password, given?.mapping);
  console.log(formatTable(rows));
  const bad = failed(rows);
  const defaulted = rows.filter((row) => row.defaulted.length).length;
  console.log('');
  if (!signedIn) console.log('Sign-in failed: nothing else was checked.');
  if (defaulted) console.log(`${defaulted} answers lack optional fields: the client shows their documented defaults (README, "Using your own API").`);
  const limited = rows.filter((row) => row.understood === 'not allowed' || row.understood === 'skipped').length;
  if (limited) console.log(`${limited} calls were not checked (not allowed for this account, or nothing to ask about).`);
  console.log(
    bad.length
      ? `FAILED: ${bad.length} of ${rows.length} calls would fail in the product.`
      : `OK: every checked call the product needs works (${rows.length} calls).`,
  );
  reportProposal(samples, given?.json, args.writeMapping);
  process.exit(bad.length ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
