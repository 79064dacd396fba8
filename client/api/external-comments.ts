import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { ExternalCommentListSchema, ExternalCommentSchema } from '../../contract/schemas/external-comments.ts';

export const listExternalComments = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/externalComments', { query: { filter }, schema: ExternalCommentListSchema, signal });
export const getExternalComment = (commentId: string, signal?: AbortSignal) =>
  request('GET', `/externalComments/${encodeURIComponent(commentId)}`, { schema: ExternalCommentSchema, signal });
