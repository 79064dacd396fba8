import * as v from 'valibot';
import { MIN_PASSWORD_LENGTH } from '../password-rules.ts';
import { IdSchema, textField } from './common.ts';
import { PatientTokenLabelSchema } from './patient-tokens.ts';

const LanguageSchema = v.picklist(['de', 'en', 'fr']);

/** A coach account as the admin screens see it (GET /coaches, /coaches/{id}). Never carries a password hash. */
export const CoachSchema = v.object({
  id: IdSchema,
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  /** Job title shown next to the name, e.g. "Dipl.-Psych." or "Sozialarbeiterin"; empty when none. */
  title: v.string(),
  /** Direct phone line for patients and colleagues; empty when none. */
  phone: v.string(),
  isAdmin: v.boolean(),
  isSuperAdmin: v.boolean(),
  isHealthManager: v.boolean(),
  /** Locked coaches cannot sign in (403 at login, 401 on every later call). */
  isUserLocked: v.boolean(),
  emailVerified: v.boolean(),
  /** A new address waiting for its confirmation link; null when none. */
  pendingEmail: v.optional(v.nullable(v.string()), null),
  /** Interface language the coach chose. */
  language: LanguageSchema,
  /** Trial accounts (GET /coaches/create-trial-access) expire; null for normal accounts. */
  trialEndsAt: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Coach = v.InferOutput<typeof CoachSchema>;
export const CoachListSchema = v.array(CoachSchema);

const coachFields = {
  email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254)),
  firstName: textField(100),
  lastName: textField(100),
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  phone: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(50)), ''),
  isAdmin: v.optional(v.boolean(), false),
  isHealthManager: v.optional(v.boolean(), false),
  isUserLocked: v.optional(v.boolean(), false),
  /** Super administrators manage administrators; only they may set it (left out of a write, it stays as it is). */
  isSuperAdmin: v.optional(v.boolean()),
  language: v.optional(LanguageSchema, 'de'),
};

/** POST /coaches (admins). Without a password the coach sets one through the reset mail. */
export const CoachCreateSchema = v.object({ ...coachFields, password: v.optional(v.pipe(v.string(), v.minLength(MIN_PASSWORD_LENGTH), v.maxLength(200))) });
export type CoachCreate = v.InferInput<typeof CoachCreateSchema>;
/**
 * PUT /coaches/{id}: every editable field; password changes go through the password calls only. A different
 * `email` (PUT or PATCH) is not stored at once: it waits in pendingEmail until the link mailed to it is opened.
 */
export const CoachUpdateSchema = v.object(coachFields);
export type CoachUpdate = v.InferInput<typeof CoachUpdateSchema>;
/** PATCH /coaches/{id}: any subset, e.g. `{ isUserLocked: true }` to lock. */
export const CoachPatchSchema = v.partial(
  v.object({
    email: coachFields.email,
    firstName: coachFields.firstName,
    lastName: coachFields.lastName,
    title: v.pipe(v.string(), v.trim(), v.maxLength(100)),
    phone: v.pipe(v.string(), v.trim(), v.maxLength(50)),
    isAdmin: v.boolean(),
    isHealthManager: v.boolean(),
    isUserLocked: v.boolean(),
    isSuperAdmin: v.boolean(),
    language: LanguageSchema,
  }),
);
export type CoachPatch = v.InferInput<typeof CoachPatchSchema>;

/** GET /coaches/isCoachLocked (docs/contract.md#shapes). */
export const CoachLockedSchema = v.object({ locked: v.boolean() });

/** POST /coaches/connect: an administrator joins a patient's care team by the patient's pseudonym code (no credential: others get 403). */
export const CoachConnectSchema = v.object({ patientCode: textField(40) });

/** POST /coaches/{id}/create-patient-token: an access code, optionally for an existing patient. */
export const CreatePatientTokenSchema = v.object({ patientId: v.optional(IdSchema), label: PatientTokenLabelSchema });

/** GET /coaches/{id}/verify-email?token="..." */
export const VerifyEmailQuerySchema = v.object({ token: v.pipe(v.string(), v.minLength(1)) });
