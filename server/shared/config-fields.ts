import * as v from 'valibot';
import { MIN_PASSWORD_LENGTH } from '../../contract/password-rules.ts';

/*
 * The environment variables of both processes (server/config.ts for the gateway, server/upstream/config.ts for the
 * built-in upstream) are read with these field schemas, so a variable both know is checked the same way and a bad
 * value stops either process with the same one line: "<NAME> must be ..." naming the variable and what it expects.
 * Empty (or blank) values count as unset: `FOO=` in a compose file means "use the default".
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const parseUrl = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** A whole number from `min` to `max`; `fallback` when unset. */
export const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `${name} must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `${name} must be a whole number from ${min} to ${max}`),
  );

/** true/false (also 1/0, yes/no); `fallback` when unset. */
export const flag = (name: string, fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no'], `${name} must be true or false`),
    v.transform((value) => value === 'true' || value === '1' || value === 'yes'),
  );

/** An absolute http(s) URL. */
export const httpUrl = (name: string, example: string) =>
  v.pipe(
    v.string(),
    v.url(`${name} must be an absolute http(s) URL, for example ${example}`),
    v.check((value) => /^https?:$/.test(parseUrl(value)?.protocol ?? 'http:'), `${name} must use http or https`),
  );

/** smtp:// (STARTTLS) or smtps:// with credentials and port, as nodemailer takes it. */
export const smtpUrl = (name: string) =>
  v.pipe(v.string(), v.regex(/^smtps?:\/\/[^\s]+$/, `${name} must look like smtp://user:password@mail.example.org:587 or smtps://...`));

/** An email address, compared in lower case. */
export const emailAddress = (name: string) => v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(`${name} must be an email address`));

/** A password an operator sets (the first administrator): at least the length every password needs. */
export const operatorPassword = (name: string) =>
  v.pipe(v.string(), v.minLength(MIN_PASSWORD_LENGTH, `${name} must be at least ${MIN_PASSWORD_LENGTH} characters`));

export const logLevel = (name: string) => v.optional(v.picklist(LOG_LEVELS, `${name} must be one of ${LOG_LEVELS.join(', ')}`), 'info');

/** A configuration value that cannot be used; `message` names the variable and says what it expects. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/**
 * The environment read against `schema`, once: the output, or a ConfigError with the first problem. The value
 * given is repeated in the message only for the variables `shownValue` allows (never a secret).
 */
export function readEnv<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(
  schema: S,
  env: Record<string, string | undefined>,
  shownValue: (variable: string) => boolean = () => false,
): v.InferOutput<S> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.entries)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const variable = String(issue.path?.[0]?.key ?? 'environment');
  const shown = shownValue(variable) && input[variable] !== undefined ? ` (got ${JSON.stringify(input[variable])})` : '';
  throw new ConfigError(variable, `${issue.message}${shown}`);
}

/** Two variables that only make sense together (ADMIN_EMAIL and ADMIN_PASSWORD): both or neither. */
export function assertBothOrNeither(values: Record<string, unknown>, a: string, b: string): void {
  if ((values[a] === undefined) === (values[b] === undefined)) return;
  const missing = values[a] === undefined ? a : b;
  throw new ConfigError(missing, `${missing} must be set too: ${a} and ${b} go together`);
}
