import { isAdmin } from '../../http/auth.ts';
import { assertReference } from '../../resource/checks.ts';
import type { ResourceDefinition } from '../../resource/definition.ts';
import { stamps } from '../../resource/rows.ts';
import { canAccessPatient, patientScoped } from '../patients/access.ts';
import { coachNames } from './repository.ts';
import { CommentCreateSchema, CommentPatchSchema, CommentSchema, CommentUpdateSchema } from '../../../../contract/schemas/comments.ts';
import { ExternalCommentSchema } from '../../../../contract/schemas/external-comments.ts';

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
    await assertReference(ctx, 'patients', String(input.patientId), 'patientId', 'Unknown patient');
    return { patientId: input.patientId, text: input.text, authorId: coach.id };
  },
  async toOutput(rows, ctx) {
    const names = await coachNames(ctx.db, [...new Set(rows.flatMap((r) => [r.authorId, r.deletedBy]).filter((id): id is string => typeof id === 'string'))]);
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

/** Notes from outside (clinic, the patient's app, therapists): read only, for the coaches of each row's patient. */
export const externalCommentsResource: ResourceDefinition = {
  path: '/externalComments',
  table: 'external_comments',
  fields: { id: 'string', patientId: 'string', source: 'string', author: 'string', text: 'string', createdAt: 'date' },
  outputSchema: ExternalCommentSchema,
  access: patientScoped('external_comments', 'patientId'),
  toRow: () => ({}),
  toOutput: (rows) => rows,
  defaultOrder: { field: 'createdAt', direction: 'desc' },
};
