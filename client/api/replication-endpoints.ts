import type * as v from 'valibot';
import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import {
  ReplicationEndpointListSchema,
  ReplicationEndpointSchema,
  type ReplicationEndpointPatchSchema,
  type ReplicationEndpointUpdateSchema,
  type ReplicationEndpointCreate,
} from '../../contract/schemas/replication-endpoints.ts';

const id = encodeURIComponent;

export const createReplicationEndpoint = (body: ReplicationEndpointCreate) =>
  request('POST', '/replicationEndpoint', { body, schema: ReplicationEndpointSchema });
export const listReplicationEndpoints = (filter?: ListFilter, signal?: AbortSignal) =>
  request('GET', '/replicationEndpoint', { query: { filter }, schema: ReplicationEndpointListSchema, signal });
export const getReplicationEndpoint = (itemId: string, signal?: AbortSignal) =>
  request('GET', `/replicationEndpoint/${id(itemId)}`, { schema: ReplicationEndpointSchema, signal });
export const replaceReplicationEndpoint = (itemId: string, body: v.InferInput<typeof ReplicationEndpointUpdateSchema>) =>
  request('PUT', `/replicationEndpoint/${id(itemId)}`, { body, schema: ReplicationEndpointSchema });
export const updateReplicationEndpoint = (itemId: string, body: v.InferInput<typeof ReplicationEndpointPatchSchema>) =>
  request('PATCH', `/replicationEndpoint/${id(itemId)}`, { body, schema: ReplicationEndpointSchema });
export const deleteReplicationEndpoint = (itemId: string) => request('DELETE', `/replicationEndpoint/${id(itemId)}`);
