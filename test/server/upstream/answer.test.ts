import express from 'express';
import request from 'supertest';
import * as v from 'valibot';
import { expect, test } from 'vitest';
import { sendAnswer } from '../../../server/upstream/http/answer.ts';

const Schema = v.object({ id: v.string(), email: v.pipe(v.string(), v.email()) });

function appSending(value: unknown) {
  const errors: Error[] = [];
  const app = express();
  app.get('/x', (_req, res) => sendAnswer(res, Schema, value as never));
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    errors.push(error);
    res.status(500).end();
  });
  return { app, errors };
}

test('sends an answer that fits its schema', async () => {
  const { app } = appSending({ id: '1', email: 'a@example.org' });
  const res = await request(app).get('/x');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: '1', email: 'a@example.org' });
});

test('fails an answer that drifted from its schema with an error naming the field but not its value', async () => {
  const { app, errors } = appSending({ id: '1', email: 'erika.muster-at-example' });
  expect((await request(app).get('/x')).status).toBe(500);
  expect(errors[0].message).toContain('email');
  expect(errors[0].message).not.toContain('erika');
});

// Only the client reads leniently (client/data/reading.ts); the built-in upstream keeps the strict contract.
test('still refuses to send an answer in the lenient shapes the client would accept (numeric ids, minimal user)', async () => {
  const { LoginResponseSchema } = await import('../../../contract/schemas/auth.ts');
  const errors: Error[] = [];
  const app = express();
  app.get('/login', (_req, res) =>
    sendAnswer(res, LoginResponseSchema, {
      id: 'tok',
      ttl: 1,
      created: '2026-01-01T00:00:00.000Z',
      userId: 7,
      user: { id: 7, email: 'a@example.org', isUserLocked: false, isAdmin: false, isSuperAdmin: false, isHealthManager: false },
    } as never),
  );
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    errors.push(error);
    res.status(500).end();
  });
  expect((await request(app).get('/login')).status).toBe(500);
  expect(errors[0].message).toMatch(/userId.*user\.id|user\.id.*userId/);
  expect(errors[0].message).toContain('user.firstName');
});

test('still refuses a request body with a numeric id', async () => {
  const { validate } = await import('../../../server/upstream/http/validate.ts');
  const { CommentCreateSchema } = await import('../../../contract/schemas/comments.ts');
  expect(() => validate(CommentCreateSchema, { patientId: 3, text: 'Hallo' })).toThrow();
  expect(validate(CommentCreateSchema, { patientId: '3', text: 'Hallo' })).toEqual({ patientId: '3', text: 'Hallo' });
});

test("the built-in upstream never reads with the client's lenient reading", async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = join(import.meta.dirname, '../../../server');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(20);
  for (const file of files) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/api\/reading\.ts/);
});
