import { expect } from 'vitest';
import express from 'express';
import request from 'supertest';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import type { TestUpstream } from '../../helpers/upstream-app.ts';
import { type StartUpstream, upstreamTest } from '../../helpers/upstream-test.ts';

// POST /auth/forgot-password answers 204 before it looks the address up: neither the answer nor its timing
// (a database lookup, a mail written or sent) tells whether an account has that address.

const test = upstreamTest();

/** What the upstream did before its answer was finished, and all it did in the end. */
interface Observed {
  /** The upstream asked (a fresh one per call). */
  t: TestUpstream;
  queriesBeforeAnswer: string[];
  mailsBeforeAnswer: number;
  queries: string[];
}

/** Asks for a reset of `email` and notes every query (by kind and table) and the outbox when the answer is finished. */
async function observeForgot(upstream: StartUpstream, email: string): Promise<Observed> {
  const queries: string[] = [];
  const named = (node: RootOperationNode) => `${node.kind} ${JSON.stringify(node).match(/"identifier":\{"kind":"IdentifierNode","name":"(\w+)"/)?.[1]}`;
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries.push(named(node));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const t = await upstream({ dbPlugin: recorder });
  const observed: Observed = { t, queriesBeforeAnswer: [], mailsBeforeAnswer: -1, queries };
  const watched = express();
  watched.use((_req, res, next) => {
    res.on('finish', () => {
      observed.queriesBeforeAnswer = [...queries];
      observed.mailsBeforeAnswer = t.outbox().length;
    });
    next();
  });
  watched.use(t.app);
  await request(watched).post('/v2/auth/forgot-password').send({ email }).expect(204);
  await t.settled();
  return observed;
}

test('the mail is written only after the answer is finished', async ({ upstream }) => {
  const observed = await observeForgot(upstream, 'coach@example.org');
  expect(observed.mailsBeforeAnswer).toBe(0);
  expect(observed.t.outbox()).toHaveLength(1);
  expect(observed.queries).toContain('SelectQueryNode coaches');
});

test('before answering, the database work is the same for an existing and an unknown address: none', async ({ upstream }) => {
  const known = await observeForgot(upstream, 'coach@example.org');
  const unknown = await observeForgot(upstream, 'niemand@example.org');
  expect(known.queriesBeforeAnswer).toEqual(unknown.queriesBeforeAnswer);
  expect(known.queriesBeforeAnswer).toEqual([]);
  // Afterwards the two differ (a reset token is stored for the account), unseen by the caller.
  expect(known.queries).not.toEqual(unknown.queries);
});

test('a failure after the answer is logged without the address', async ({ upstream }) => {
  const log = capturedLogger();
  // An outbox below a file cannot be written: the mail work fails after the 204.
  const t = await upstream({ logger: log.logger, outboxDir: '/dev/null/outbox' });
  await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
  await t.settled();
  expect(log.lines().map((line) => line.msg)).toContain('password reset mail failed after the answer');
  expect(log.raw.join('\n')).not.toContain('coach@example.org');
});
