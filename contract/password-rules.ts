/*
 * The rules for a new password that the client checks before sending and the upstream enforces: a length, and no
 * part of the person's own name or address (NIST SP 800-63B 5.1.1.2: no "context-specific words"). The blocklist of
 * common passwords is the upstream's alone (server/upstream/features/auth/password-policy.ts): a few MB of lists.
 * No imports, so a screen that needs only the length pulls in nothing else.
 */

/** docs/product.md#constants. */
export const MIN_PASSWORD_LENGTH = 8;

/** What the upstream answers (400, at the password field) when it refuses a new password. */
export type PasswordRefusalCode = 'PASSWORD_TOO_COMMON' | 'PASSWORD_CONTAINS_PERSONAL_DATA';

/** What a password must not contain: the person's address (its local part) and names, as far as they are known. */
export interface PersonalData {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Parts of a name or address shorter than this ("Li", "an") would refuse far too much. */
const MIN_PERSONAL_PART = 3;

/**
 * A text as people type it on a keyboard without its letters: "jürgen" also as "juergen" and "jurgen", "weiß" as
 * "weiss", "hélène" as "helene". Any of these in a password counts as the name.
 */
export function spellings(lower: string): string[] {
  const transcribed = lower.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
  const plain = lower.replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
  return [lower, transcribed, plain];
}

/** The parts of the local part and the names that a password must not contain, lower-cased. */
function personalParts(person: PersonalData): string[] {
  const local = person.email?.split('@')[0] ?? '';
  const texts = [local, person.firstName ?? '', person.lastName ?? ''].flatMap((text) => spellings(text.toLowerCase()));
  const parts = texts.flatMap((text) => [text, ...text.split(/[^\p{L}\p{N}]+/u)]);
  return [...new Set(parts.filter((part) => [...part].length >= MIN_PERSONAL_PART))];
}

/** Does the password contain the address's local part or a part of a name (any case, any spelling of its letters)? */
export function containsPersonalData(password: string, person: PersonalData): boolean {
  const typed = spellings(password.toLowerCase());
  return personalParts(person).some((part) => typed.some((text) => text.includes(part)));
}
