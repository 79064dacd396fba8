import * as v from 'valibot';
import { IdSchema } from './common.ts';

/** A coach's note on a patient. Only its author (or an admin) may change or delete it. */
export const CommentSchema = v.object({
  id: IdSchema,
  patientId: IdSchema,
  authorId: IdSchema,
  /** Author's display name at the time of reading, so lists need no extra coach lookups. */
  authorName: v.string(),
  text: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
  /**
   * Set when the comment was deleted (DELETE keeps it in the record). Lists and reads answer deleted comments only
   * to administrators, by id or when the filter names deletedAt (`{ "where": { "deletedAt": { "neq": null } } }`).
   */
  deletedAt: v.nullable(v.string()),
  /** Who deleted it (a coach id), and that coach's name now; null while the comment is live. */
  deletedBy: v.nullable(IdSchema),
  deletedByName: v.nullable(v.string()),
});
export type Comment = v.InferOutput<typeof CommentSchema>;
export const CommentListSchema = v.array(CommentSchema);

const text = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(10000));
/** POST /comments: the author is the calling coach. */
export const CommentCreateSchema = v.object({ patientId: IdSchema, text });
export type CommentCreate = v.InferInput<typeof CommentCreateSchema>;
/** PUT /comments/{id}: only the text can change. */
export const CommentUpdateSchema = v.object({ text });
export const CommentPatchSchema = v.partial(CommentUpdateSchema);
