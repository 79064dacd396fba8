import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { badRequest } from '../../http/errors.ts';
import { containsPersonalData, type PasswordRefusalCode, type PersonalData } from '../../../../contract/password-rules.ts';

/*
 * NIST SP 800-63B (5.1.1.2): a new password is compared against values known to be commonly used, expected or
 * compromised: a list of common passwords and words, keyboard walks, sequences and repeats, and data of the
 * person themselves. The lists are zxcvbn-ts's (49k common passwords and keyboard graphs incl. qwertz and azerty,
 * German and French words and names). There is no composition rule beyond the length: a long passphrase of
 * ordinary words is a good password, one word alone or "Passwort1" is not.
 */

/** Patterns that, alone over the whole password, make it guessable from the first tries of an attacker's list. */
const GUESSABLE_PATTERNS = new Set(['dictionary', 'spatial', 'sequence', 'repeat']);
/**
 * Pattern matching grows with the square of the length and with every l33t reading of a symbol: only this many
 * leading characters are matched, with at most this many l33t substitutions, which keeps one check under about
 * 25 ms (a few ms for a usual password) even for the longest the schemas allow (200 characters). Unbounded, a
 * 64-character string of symbols took 130 ms of the event loop.
 */
const MATCHED_LENGTH = 64;
const L33T_SUBSTITUTIONS = 4;

interface Policy {
  zxcvbn: ZxcvbnFactory;
  /** Every list entry, lower-cased. */
  blocklist: Set<string>;
}

let policy: Promise<Policy> | undefined;

/** The lists are a few MB: loaded on the first password that is checked, once per process. */
function loadPolicy(): Promise<Policy> {
  policy ??= (async () => {
    const [{ ZxcvbnFactory }, common, de, fr] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-de'),
      import('@zxcvbn-ts/language-fr'),
    ]);
    const dictionary: Record<string, string[]> = { ...common.dictionary };
    for (const [name, words] of Object.entries(de.dictionary)) dictionary[`de-${name}`] = words;
    for (const [name, words] of Object.entries(fr.dictionary)) dictionary[`fr-${name}`] = words;
    const blocklist = new Set(Object.values(dictionary).flatMap((words) => words.map((word) => word.toLowerCase())));
    const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: common.adjacencyGraphs, maxLength: MATCHED_LENGTH, l33tMaxSubstitutions: L33T_SUBSTITUTIONS });
    return { zxcvbn, blocklist };
  })();
  return policy;
}

/** How many distinct entries the blocklist holds. */
export async function blocklistSize(): Promise<number> {
  return (await loadPolicy()).blocklist.size;
}

/**
 * "Passwort1!", "1Passwort", "!Passwort1" -> "passwort": the common word (or keyboard walk, as in "qwertz123")
 * behind the digits and marks people append or prepend to satisfy old composition rules.
 */
const withoutOuterDigitsAndMarks = (text: string) => text.replace(/^[\d\p{P}\p{S}\s]+|[\d\p{P}\p{S}\s]+$/gu, '');
/** "11111111!" -> "11111111": a repeat or sequence of digits with a mark for an old rule. */
const withoutOuterMarks = (text: string) => text.replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '');

/** True when one keyboard walk, sequence, repeat or list word (also reversed or in l33t) makes up the whole password. */
function isOnePattern(zxcvbn: ZxcvbnFactory, password: string): boolean {
  const matched = password.slice(0, MATCHED_LENGTH);
  const { sequence } = zxcvbn.check(matched);
  return sequence.length === 1 && GUESSABLE_PATTERNS.has(sequence[0].pattern) && sequence[0].i === 0 && sequence[0].j === matched.length - 1;
}

/** Why a password is refused, or undefined when it may be used. */
export async function passwordRefusal(password: string, person: PersonalData): Promise<PasswordRefusalCode | undefined> {
  const lower = password.toLowerCase();
  if (containsPersonalData(password, person)) return 'PASSWORD_CONTAINS_PERSONAL_DATA';
  const { zxcvbn, blocklist } = await loadPolicy();
  const core = withoutOuterDigitsAndMarks(password);
  if (blocklist.has(lower) || blocklist.has(core.toLowerCase())) return 'PASSWORD_TOO_COMMON';
  const cores = new Set([password, core, withoutOuterMarks(password)].filter((text) => text.length > 0));
  if ([...cores].some((text) => isOnePattern(zxcvbn, text))) return 'PASSWORD_TOO_COMMON';
  return undefined;
}

const MESSAGES: Record<PasswordRefusalCode, string> = {
  PASSWORD_TOO_COMMON: 'This password is too common or too easy to guess',
  PASSWORD_CONTAINS_PERSONAL_DATA: 'The password must not contain your name or email address',
};

/** 400 naming `path` (the password field of the call) when the password is refused. */
export async function assertPasswordAllowed(password: string, person: PersonalData, path: string): Promise<void> {
  const code = await passwordRefusal(password, person);
  if (code) throw badRequest(MESSAGES[code], [{ path, message: MESSAGES[code] }], code);
}
