import type { ResourceDefinition } from '../../resource/resource-routes.ts';
import { stamps } from '../../resource/rows.ts';
import { patientScoped } from '../patients/access.ts';
import { canAccessPatient, isAdmin } from '../../http/auth.ts';
import { validationFailed } from '../../http/errors.ts';
import { CommentCreateSchema, CommentPatchSchema, CommentSchema, CommentUpdateSchema } from '../../../../contract/schemas/comments.ts';

/** The coaches' notes on a patient: versioned, audited, and deleted softly (administrators still see them). */
export const commentsResource: ResourceDefinition = {
  path: '/comments',
  table: 'comments',
  fields: { id: 'string', patientId: 'string', authorId: 'string', text: 'string', deletedAt: 'date', deletedBy: 'string', ...stamps },
  createSchema: CommentCreateSchema,
  updateSchema: CommentUpdateSchema,
  patchSchema: CommentPatchSchema,
  outputSchema: CommentSchema,
  access: {
    ...patientScoped('comments', 'patientId'),
    // A note is changed or deleted only by its author (or an admin), and only while the patient is theirs.
    async canWrite(ctx, coach, row, op) {
      if (!(await canAccessPatient(ctx.db, coach, String(row.patientId)))) return false;
      return op === 'create' || isAdmin(coach) || row.authorId === coach.id;
    },
  },
  async toRow(input, { ctx, coach, existing }) {
    if (existing) return { text: input.text ?? existing.text };
    const patient = await ctx.db.selectFrom('patients').select('id').where('id', '=', String(input.patientId)).executeTakeFirst();
    if (!patient) throw validationFailed([{ path: 'patientId', message: 'Unknown patient' }]);
    return { patientId: input.patientId, text: input.text, authorId: coach.id };
  },
  async toOutput(rows, ctx) {
    const ids = [...new Set(rows.flatMap((r) => [r.authorId, r.deletedBy]).filter((id): id is string => typeof id === 'string'))];
    const authors = ids.length ? await ctx.db.selectFrom('coaches').select(['id', 'firstName', 'lastName']).where('id', 'in', ids).execute() : [];
    const names = new Map(authors.map((a) => [a.id, `${a.firstName} ${a.lastName}`]));
    return rows.map((r) => ({
      ...r,
      authorId: r.authorId ?? '-',
      authorName: names.get(String(r.authorId)) ?? 'Gelöschter Coach',
      deletedAt: r.deletedAt ?? null,
      deletedBy: r.deletedBy ?? null,
      deletedByName: r.deletedBy ? (names.get(String(r.deletedBy)) ?? null) : null,
    }));
  },
  // Every version of a note stays recoverable: each edit's before and after text is in the audit log, and a
  // deleted note stays in the table (soft deletion), seen by administrators with who deleted it and when.
  audit: { entity: 'comment', patientIdOf: (row) => String(row.patientId) },
  softDelete: { at: 'deletedAt', by: 'deletedBy', visibleTo: (coach) => isAdmin(coach) },
  defaultOrder: { field: 'createdAt', direction: 'desc' },
};
