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
