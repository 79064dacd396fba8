import { importDraftKey } from './draft-seal.ts';

/**
 * What asking the gateway for the draft key (GET /session/draft-key) came to: the key, imported so that no script
 * can read it back; 'refused' (the token is not, or no longer, accepted: asking again with it cannot help); or
 * 'failed' (no answer, an unusable one, or a browser without WebCrypto: plain HTTP outside localhost), which a
 * later write may try again.
 */
export type DraftKeyAnswer = CryptoKey | 'refused' | 'failed';

export async function fetchDraftKey(token: string): Promise<DraftKeyAnswer> {
  if (!globalThis.crypto?.subtle) return 'failed';
  try {
    const answer = await fetch('/session/draft-key', {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (answer.status === 401) return 'refused';
    if (!answer.ok) return 'failed';
    const { key } = (await answer.json()) as { key?: unknown };
    return typeof key === 'string' ? await importDraftKey(key) : 'failed';
  } catch {
    return 'failed';
  }
}
