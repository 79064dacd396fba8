/* What the parts of the LoopBack 3 test upstream share: its models, its mail outbox and its request log. */

export interface Mail {
  to: string;
  link: string;
  at: number;
}

export interface Lb3Options {
  /** "today" of the seeded data and the statistics; defaults to the real clock. */
  now?: () => Date;
  /** Tests of an upstream that answers differently: changes the JSON answer of a /v2 path before it is sent. */
  rewrite?: (path: string, body: unknown) => unknown;
}

export interface Lb3 {
  /** Every LoopBack model by name (Coach, Patient, CoachToken, Role, …). */
  models: Record<string, any>;
  outbox: Mail[];
  /** Every /v2 request as "METHOD /path", for tests that check what a client sent. */
  requests: string[];
  now: () => Date;
}

/** Every stored row of the data models (not the tokens), for tests that check nothing was written. */
export async function snapshot(lb: Lb3): Promise<string> {
  const names = Object.keys(lb.models).filter((name) => lb.models[name].getDataSource?.() && !/Token$|^(ACL|Role|RoleMapping|AccessToken|User)$/.test(name));
  const rows = await Promise.all(names.map(async (name) => [name, await lb.models[name].find()]));
  return JSON.stringify(Object.fromEntries(rows));
}

/** The day of a date as YYYY-MM-DD. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** An error as LoopBack's remote methods throw them: the REST layer answers { error: { statusCode, name, message } }. */
export const httpError = (statusCode: number, message: string, code?: string) => Object.assign(new Error(message), { statusCode, code });

export const optionsArg = { arg: 'options', type: 'object', http: 'optionsFromRequest' };
export const bodyArg = { arg: 'data', type: 'object', http: { source: 'body' } };
export const reqArg = { arg: 'req', type: 'object', http: { source: 'req' } };
export const pathArg = (arg: string, type = 'number') => ({ arg, type, required: true, http: { source: 'path' } });
export const filterArg = { arg: 'filter', type: 'object', http: { source: 'query' } };
export const root = (type = 'object') => ({ arg: 'result', type, root: true });
