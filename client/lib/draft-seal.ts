/*
 * Sealing one draft (docs/drafts-and-sessions.md): AES-GCM under the session's draft key, a fresh random 12-byte IV
 * for every write, the storage key as additional data (a sealed draft copied under another record's key does not
 * open). What lands in localStorage is a small versioned envelope, {"v":1,"iv":…,"data":…} in base64url: without
 * the key it tells nothing about the draft but its length.
 */

const VERSION = 1;

export interface SealedDraft {
  v: typeof VERSION;
  iv: string;
  data: string;
}

/** The key as the gateway hands it out (base64url of 32 bytes), imported so that no script can read it back. */
export async function importDraftKey(base64url: string): Promise<CryptoKey> {
  const raw = fromBase64url(base64url);
  if (raw.length !== 32) throw new Error('The draft key must be 32 bytes');
  try {
    return await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  } finally {
    raw.fill(0);
  }
}

/** The envelope to store for `value` (any JSON) under `storageKey`. */
export async function seal(key: CryptoKey, storageKey: string, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(storageKey) }, key, plain);
  const envelope: SealedDraft = { v: VERSION, iv: toBase64url(iv), data: toBase64url(new Uint8Array(data)) };
  return JSON.stringify(envelope);
}

/** The stored text as an envelope of this version, or null (a plain draft from before sealing, or garbage). */
export function envelopeOf(stored: string): SealedDraft | null {
  try {
    const parsed = JSON.parse(stored) as Partial<SealedDraft> | null;
    return parsed?.v === VERSION && typeof parsed.iv === 'string' && typeof parsed.data === 'string' ? (parsed as SealedDraft) : null;
  } catch {
    return null;
  }
}

/** The draft inside an envelope; rejects when it was sealed under another key or storage key, or was altered. */
export async function unseal(key: CryptoKey, storageKey: string, envelope: SealedDraft): Promise<unknown> {
  const iv = fromBase64url(envelope.iv);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(storageKey) }, key, fromBase64url(envelope.data));
  return JSON.parse(new TextDecoder().decode(plain));
}

function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
