import * as v from 'valibot';
import { IdSchema } from './common.ts';
import { MIN_PASSWORD_LENGTH } from '../password-rules.ts';

/** The signed-in coach as GET /auth/me returns it (docs/contract.md#shapes). */
export const MeSchema = v.object({
  id: IdSchema,
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  isUserLocked: v.boolean(),
  isAdmin: v.boolean(),
  isSuperAdmin: v.boolean(),
  isHealthManager: v.boolean(),
  emailVerified: v.boolean(),
  language: v.string(),
});
export type Me = v.InferOutput<typeof MeSchema>;

export const LoginBodySchema = v.object({ email: v.pipe(v.string(), v.trim(), v.email()), password: v.pipe(v.string(), v.minLength(1)) });
export type LoginBody = v.InferInput<typeof LoginBodySchema>;

export const LoginResponseSchema = v.object({ id: v.string(), ttl: v.number(), created: v.string(), userId: IdSchema, user: MeSchema });
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;
/**
 * What the client reads of the login answer: the access token. The signed-in coach is then fetched from
 * GET /auth/me (docs/product.md#states), so the answer's other fields are not read.
 */
export const LoginTokenSchema = v.pick(LoginResponseSchema, ['id']);

export const UpdatePasswordBodySchema = v.object({
  oldPassword: v.pipe(v.string(), v.minLength(1)),
  newPassword: v.pipe(v.string(), v.minLength(MIN_PASSWORD_LENGTH)),
});

export const SetPasswordBodySchema = v.object({ password: v.pipe(v.string(), v.minLength(MIN_PASSWORD_LENGTH)) });

export const ForgotPasswordBodySchema = v.object({ email: v.pipe(v.string(), v.trim(), v.email()) });
