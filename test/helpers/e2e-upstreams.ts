import { describe } from 'vitest';
import type { Page } from 'playwright-core';
import { journeyOn, stack, type JourneyTarget, type ProvokedFailure } from './e2e-browser.ts';
import { DEMO, DEMO_PASSWORD, resetLinkFromOutbox } from './e2e-api.ts';
import { LB3_ACCOUNTS, LB3_PASSWORD } from './lb3-upstream/seed.ts';
import type { Mail } from './lb3-upstream/app.ts';

/**
 * One journey file, two upstreams: every browser journey of docs/product.md sections 2-8 runs once against the gateway
 * in front of the built-in upstream and once against the gateway in front of the LoopBack 3 test upstream, whose
 * own field names the gateway translates with its mapping.json. A journey gets the upstream's accounts and its way of
 * reading mails; nothing else differs.
 */
export interface E2eUpstream {
  /** Short name, used in test titles and artifact folders. */
  name: string;
  origin: () => string;
  accounts: { admin: string; coach: string; health: string; locked: string };
  password: string;
  /** The reset link of the newest mail to `to` sent after `since` (epoch ms). */
  resetLink(to: string, since: number): Promise<string>;
  /**
   * Calls beyond docs/product.md#calls it does not have (the client asks once and leaves out what needs them), "none
   * yet" 404s, and answers of its own shape that the client reports once.
   */
  absent: ProvokedFailure[];
  /** It keeps an audit log (GET /v2/audit-log): the record's "Verlauf" and the versions of a note exist. */
  auditLog: boolean;
  /**
   * It stores an access code's label, and its demo data give the coach a phone and the app settings a download link
   * (the printed sheet's contact line and QR code).
   */
  accessCodeExtras: boolean;
}

/** Where a journey on this upstream runs: its gateway and the calls it lacks. */
export const targetOf = (upstream: E2eUpstream): JourneyTarget => ({ origin: upstream.origin(), absent: upstream.absent });

const builtIn: E2eUpstream = {
  name: 'built-in upstream',
  origin: () => stack().baseUrl,
  accounts: DEMO,
  password: DEMO_PASSWORD,
  resetLink: (to, since) => resetLinkFromOutbox(stack().dataDir, to, since),
  absent: [],
  auditLog: true,
  accessCodeExtras: true,
};

const loopback: E2eUpstream = {
  name: 'LoopBack 3 upstream',
  origin: () => stack().lb3BaseUrl,
  accounts: LB3_ACCOUNTS,
  password: LB3_PASSWORD,
  // LoopBack has no audit log: the patient page asks GET /v2/audit-log once and gets 404.
  absent: [
    { url: /\/v2\/audit-log(\?|$)/, status: 404, method: 'GET' },
    // A patient without an evaluation form: a hasOne without a row (the tab shows an empty form).
    { url: /\/v2\/patients\/[^/]+\/evaluation-form$/, status: 404, method: 'GET' },
    // Appointments are answered with the patient: the client reads them from it again and reports the shape once.
    { url: /\/v2\/patients\/[^/]+\/appointments$/, status: 200, method: 'PUT', report: /Unusable answer to PUT \/v2\/patients\/\{id\}\/appointments/ },
  ],
  auditLog: false,
  accessCodeExtras: false,
  async resetLink(to, since) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const mails = (await (await fetch(`${stack().lb3Url}/__test__/outbox`)).json()) as Mail[];
      const mail = mails.filter((m) => m.to === to && m.at >= since - 1000).at(-1);
      if (mail) return mail.link;
      if (Date.now() > deadline) throw new Error(`no reset mail to ${to} in the LoopBack upstream's outbox`);
      // The mail is written when the upstream handles the request; asking again is the only signal.
      await new Promise((r) => setTimeout(r, 100));
    }
  },
};

export const UPSTREAMS = [builtIn, loopback];

/** `describe` once per upstream; `journey` is the journey fixture bound to that upstream's gateway. */
export function forEachUpstream(define: (upstream: E2eUpstream, journey: ReturnType<typeof journeyOn>) => void): void {
  for (const upstream of UPSTREAMS) {
    describe(`against the ${upstream.name}`, () =>
      define(
        upstream,
        journeyOn(() => targetOf(upstream), `${upstream.name} `),
      ));
  }
}

/**
 * How many patients an administrator can list: X-Total-Count where the upstream sends it, otherwise the
 * length of one list of up to 1000 rows (enough for both test instances).
 */
export async function countPatients(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const response = await fetch(`/v2/patients?filter=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`, {
      headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}` },
    });
    const header = response.headers.get('x-total-count');
    return header === null ? ((await response.json()) as unknown[]).length : Number(header);
  });
}
