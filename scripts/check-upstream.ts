import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { API_FAMILIES, type ApiCall } from '../contract/catalog.ts';
import { issueFields, readingSchema } from '../client/data/reading.ts';
import { LoginTokenSchema } from '../contract/schemas/auth.ts';
import { SYNC_COLLECTIONS, syncRecordSchema } from '../contract/schemas/sync-db.ts';
import { answerSchema, failed, formatTable, loadSchemas, type Row } from './check-upstream-rows.ts';

export { failed, formatTable, type Row, type Verdict } from './check-upstream-rows.ts';

/** GETs that change something on the server, or need what only a mail gives: never called by the check. */
const NOT_READ_ONLY = new Set(['/coaches/create-trial-access', '/patients/{id}/token/get-or-create-unused', '/coaches/{id}/verify-email']);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Query values as the client sends them, each JSON-encoded. */
const query = (values: Record<string, unknown>) => `?${new URLSearchParams(Object.entries(values).map(([k, value]) => [k, JSON.stringify(value)])).toString()}`;

export async function checkUpstream(baseUrl: string, email: string, password: string): Promise<{ rows: Row[]; signedIn: boolean }> {
  const api = `${baseUrl.replace(/\/+$/, '')}/v2`;
  const schemas = await loadSchemas();
  const rows: Row[] = [];
  let token = '';
  const send = async (method: string, path: string, body?: unknown) => {
    try {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      return { status: response.status, text, total: response.headers.get('x-total-count') };
    } catch (error) {
      return { status: 0, text: '', total: null, error: (error as Error).message };
    }
  };
  /**
   * Singular sub-resources whose 404 the client reads as "not created yet" (noneOn404 in client/api/patients.ts): a
   * LoopBack hasOne without a row answers so.
   */
  const NONE_YET = new Set(['GET /patients/{id}/evaluation-form', 'GET /patients/{id}/primary-coach', 'GET /patients/{id}/token/get-or-create-unused']);
  /** One call, read as the client reads it; returns the parsed answer when understood. */
  const check = async (label: string, path: string, schema: v.GenericSchema | undefined, list = false, optional = false): Promise<unknown> => {
    const answer = await send('GET', path);
    const row: Row = { call: label, status: answer.status === 0 ? 'no answer' : String(answer.status), understood: 'no', missing: [], defaulted: [], note: '' };
    rows.push(row);
    if (answer.status === 401 || answer.status === 403) {
      row.understood = 'not allowed';
      row.note = 'this account may not make the call; check with an administrator account';
      return undefined;
    }
    if (optional && (answer.status === 404 || answer.status === 405 || answer.status === 501)) {
      row.understood = 'absent';
      row.note = 'not in docs/product.md: the screens that use it hide it';
      return undefined;
    }
    if (answer.status === 404 && NONE_YET.has(label)) {
      row.understood = 'none yet';
      row.note = 'read as "none yet": the screen shows its empty state and creates it';
      return undefined;
    }
    if (answer.status < 200 || answer.status >= 300) {
      row.note = answer.status === 0 ? 'upstream not reachable' : 'the client needs this call';
      return undefined;
    }
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
    const read = v.safeParse(readingSchema(schema), json);
    if (!read.success) {
      row.missing = issueFields(read.issues);
      return undefined;
    }
    row.understood = 'yes';
    const complete = v.safeParse(readingSchema(schema, 'complete'), json);
    if (!complete.success) row.defaulted = issueFields(complete.issues);
    if (list && answer.total === null) row.note = 'no X-Total-Count: lists say "mehr als N"';
    return read.output;
  };

  const login = await send('POST', '/auth/login', { email, password });
  const loginRow: Row = {
    call: 'POST /auth/login',
    status: login.status === 0 ? 'no answer' : String(login.status),
    understood: 'no',
    missing: [],
    defaulted: [],
    note: '',
  };
  rows.push(loginRow);
  if (login.status < 200 || login.status >= 300) {
    loginRow.note = login.status === 401 ? 'wrong CHECK_EMAIL or CHECK_PASSWORD' : login.status === 403 ? 'the account is locked' : 'sign-in failed';
    return { rows, signedIn: false };
  }
  const parsed = (() => {
    try {
      return v.safeParse(readingSchema(LoginTokenSchema), JSON.parse(login.text));
    } catch {
      return null;
    }
  })();
  if (!parsed?.success) {
    loginRow.missing = parsed ? issueFields(parsed.issues) : [];
    loginRow.note = parsed ? '' : 'the answer is not JSON';
    return { rows, signedIn: false };
  }
  loginRow.understood = 'yes';
  token = parsed.output.id;

  // Ids for the calls about one item come from the list answers before them.
  const ids = new Map<string, string>();
  const firstId = (data: unknown, key = 'id') => (Array.isArray(data) && data.length ? String((data[0] as Record<string, unknown>)[key]) : undefined);
  const period = { from: day(-89), to: day(0) };
  const calls = API_FAMILIES.flatMap((family) => family.calls).filter(
    (call) => call.method === 'GET' && !NOT_READ_ONLY.has(call.path) && !call.path.includes('{collection}'),
  );
  // A call about one item waits until a list has named one (the asset id comes late, from the training materials).
  const needsOf = (call: ApiCall) => /^\/([^/]+)\/\{id\}/.exec(call.path)?.[1] ?? (call.path.startsWith('/app-settings/asset/') ? 'asset' : undefined);
  const later: ApiCall[] = [];
  for (const [round, list] of [
    [0, calls],
    [1, later],
  ] as const) {
    for (const call of list) {
      const collection = /^\/([^/{]+)$/.exec(call.path)?.[1];
      const needs = needsOf(call);
      let path = call.path;
      if (needs) {
        const id = ids.get(needs);
        if (!id && round === 0) {
          later.push(call);
          continue;
        }
        if (!id) {
          rows.push({ call: `GET ${call.path}`, status: '–', understood: 'skipped', missing: [], defaulted: [], note: `no ${needs} to ask about` });
          continue;
        }
        path = call.path.replace('{id}', encodeURIComponent(id));
      }
      const schema = answerSchema(call, schemas);
      const isList = call.answer?.endsWith('[]') ?? false;
      const q = call.path.startsWith('/statistics/')
        ? query({ ...period, ...(call.query === 'DetailStatisticsQuery' ? { limit: 25, skip: 0 } : {}) })
        : call.query === 'filter: ListFilter'
          ? query({ filter: { limit: 5 } })
          : '';
      const data = await check(`GET ${call.path}`, path + q, schema, isList, call.optional === true);
      if (collection && isList) {
        const id = firstId(data);
        if (id) ids.set(collection, id);
      }
      if (call.path === '/system/training-materials') {
        const asset = firstId(data, 'assetId');
        if (asset) ids.set('asset', asset);
      }
      if (call.path === '/app-settings') {
        const settings = data as { assets?: { id: string }[]; logoAssetId?: string | null } | undefined;
        const asset = settings?.assets?.[0]?.id ?? settings?.logoAssetId;
        if (asset) ids.set('asset', asset);
      }
    }
  }
  const patient = ids.get('patients');
  for (const name of SYNC_COLLECTIONS) {
    const label = `GET /patients/{id}/sync-db/${name}`;
    if (!patient) {
      rows.push({ call: label, status: '–', understood: 'skipped', missing: [], defaulted: [], note: 'no patient to ask about' });
      continue;
    }
    const records = await check(
      label,
      `/patients/${encodeURIComponent(patient)}/sync-db/${name}${query({ filter: { limit: 5 } })}`,
      v.array(syncRecordSchema(name)),
      true,
    );
    const record = firstId(records);
    if (record) await check(`${label}/{id}`, `/patients/${encodeURIComponent(patient)}/sync-db/${name}/${encodeURIComponent(record)}`, syncRecordSchema(name));
  }
  const logout = await send('POST', '/auth/logout');
  rows.push({
    call: 'POST /auth/logout',
    status: String(logout.status),
    understood: logout.status >= 200 && logout.status < 300 ? 'yes' : 'no',
    missing: [],
    defaulted: [],
    note: '',
  });
  return { rows, signedIn: true };
}

/** A call the product cannot do without fails the check; "not allowed" and "skipped" only warn. */
async function main() {
  const url = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  const { CHECK_EMAIL: email, CHECK_PASSWORD: password } = process.env;
  if (!url || !/^https?:\/\//.test(url)) {
    console.error('Usage: CHECK_EMAIL=... CHECK_PASSWORD=... npm run check:upstream -- <UPSTREAM_URL, e.g. http://api.internal:3000>');
    process.exit(2);
  }
  if (!email || !password) {
    console.error('check:upstream needs a test account: set CHECK_EMAIL and CHECK_PASSWORD (an administrator account checks every call).');
    process.exit(2);
  }
  console.log(
    `Checking ${url.replace(/\/+$/, '')}/v2 as ${email}. It signs in and out (POST /auth/login, POST /auth/logout) and otherwise only reads (GET).\n`,
  );
  const { rows, signedIn } = await checkUpstream(url, email, password);
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
  process.exit(bad.length ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
