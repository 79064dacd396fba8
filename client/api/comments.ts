import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { CommentListSchema, CommentSchema, type CommentCreate } from '../../contract/schemas/comments.ts';

const id = encodeURIComponent;

export const createComment = (body: CommentCreate) => request('POST', '/comments', { body, schema: CommentSchema });
export const listComments = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/comments', { query: { filter }, schema: CommentListSchema, signal });
export const getComment = (commentId: string, signal?: AbortSignal) => request('GET', `/comments/${id(commentId)}`, { schema: CommentSchema, signal });
// ifMatch: the version the write is based on (client/data/versions.ts); 412 when the comment changed since.
export const replaceComment = (commentId: string, body: { text: string }, ifMatch?: string | null) =>
  request('PUT', `/comments/${id(commentId)}`, { body, schema: CommentSchema, ifMatch });
export const updateComment = (commentId: string, body: { text?: string }, ifMatch?: string | null) =>
  request('PATCH', `/comments/${id(commentId)}`, { body, schema: CommentSchema, ifMatch });
export const deleteComment = (commentId: string, ifMatch?: string | null) => request('DELETE', `/comments/${id(commentId)}`, { ifMatch });
