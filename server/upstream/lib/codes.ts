import { randomInt } from 'node:crypto';

/**
 * Codes that are read out on the phone (access codes, recovery keys): no look-alike characters
 * (0/O, 1/I/L are left out), grouped as ABCD-EFGH-JK where the last character is a check character.
 * 31 symbols is a prime, so a weighted sum modulo 31 catches every single wrong character and every
 * swap of two neighbours - the typical mistakes when dictating.
 */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const BODY_LENGTH = 9;

function checkCharacter(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += (i + 1) * CODE_ALPHABET.indexOf(body[i]);
  return CODE_ALPHABET[sum % CODE_ALPHABET.length];
}

function format(raw: string): string {
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

/** A new code like `K7QM-X3PA-9R`. `randomIndex(n)` returns 0..n-1 (crypto by default; seeded in demo data). */
export function generateCode(randomIndex: (n: number) => number = (n) => randomInt(n)): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += CODE_ALPHABET[randomIndex(CODE_ALPHABET.length)];
  return format(body + checkCharacter(body));
}

/**
 * The canonical form of a typed code (any case, spaces or dashes anywhere), or null when it has the
 * wrong length, a character outside the alphabet, or a wrong check character.
 */
export function normalizeCode(input: string): string | null {
  const raw = input.toUpperCase().replace(/[\s-]/g, '');
  if (raw.length !== BODY_LENGTH + 1) return null;
  for (const ch of raw) if (!CODE_ALPHABET.includes(ch)) return null;
  if (checkCharacter(raw.slice(0, BODY_LENGTH)) !== raw[BODY_LENGTH]) return null;
  return format(raw);
}

export const isValidCode = (input: string): boolean => normalizeCode(input) !== null;

/** Access codes and recovery keys expire after 90 days. */
export const CODE_VALID_DAYS = 90;

/** The latest moment a code made at `createdAt` may expire (ISO). */
export const latestExpiry = (createdAt: string) => new Date(Date.parse(createdAt) + CODE_VALID_DAYS * 86400_000).toISOString();

const LETTERS = CODE_ALPHABET.replace(/[0-9]/g, '');
/** Pseudonym like "NK-4821": two letters, four digits, no look-alike characters (read out on the phone). */
export function generatePatientCode(randomIndex: (n: number) => number = (n) => randomInt(n)): string {
  let code = `${LETTERS[randomIndex(LETTERS.length)] + LETTERS[randomIndex(LETTERS.length)]}-`;
  for (let i = 0; i < 4; i++) code += String(2 + randomIndex(8));
  return code;
}
