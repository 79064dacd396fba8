import { request } from './http.ts';
import type { ListFilter } from './schemas/common.ts';
import { CommentListSchema, CommentSchema, type CommentCreate } from './schemas/comments.ts';

const id = encodeURIComponent;

export const createComment = (body: CommentCreate) => request('POST', '/comments', { body, schema: CommentSchema });
export const listComments = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/comments', { query: { filter }, schema: CommentListSchema, signal });
export const getComment = (commentId: string, signal?: AbortSignal) =>
  request('GET', `/comments/${id(commentId)}`, { schema: CommentSchema, signal });
export const replaceComment = (commentId: string, body: { text: string }) =>
  request('PUT', `/comments/${id(commentId)}`, { body, schema: CommentSchema });
export const updateComment = (commentId: string, body: { text?: string }) =>
  request('PATCH', `/comments/${id(commentId)}`, { body, schema: CommentSchema });
export const deleteComment = (commentId: string) => request('DELETE', `/comments/${id(commentId)}`);
