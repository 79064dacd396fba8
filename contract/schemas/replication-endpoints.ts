import * as v from 'valibot';
import { IdSchema, intRange, textField } from './common.ts';

export const ReplicationProtocolSchema = v.picklist(['http', 'https']);

/**
 * Where patient apps replicate their data to. host (and port) may be omitted: the app then uses the
 * host the portal itself is served from (docs/product.md#constants: the replica endpoint is configured without host).
 */
export const ReplicationEndpointSchema = v.object({
  id: IdSchema,
  name: v.string(),
  protocol: ReplicationProtocolSchema,
  /** Host name without scheme or port; null or absent = the current host. */
  host: v.nullish(v.string(), null),
  /** TCP port; null or absent = the protocol's default (or the current page's port when host is omitted). */
  port: v.nullish(v.number(), null),
  /** Path prefix on that host, e.g. "/replicate"; empty for the root. */
  path: v.optional(v.string(), ''),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type ReplicationEndpoint = v.InferOutput<typeof ReplicationEndpointSchema>;
export const ReplicationEndpointListSchema = v.array(ReplicationEndpointSchema);

const hostName = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[a-z0-9.-]{1,253}$|^\[[0-9a-f:]+\]$/, 'Host name without scheme, port or path'));
const fields = {
  name: textField(200),
  protocol: ReplicationProtocolSchema,
  host: v.nullish(hostName, null),
  port: v.nullish(intRange(1, 65535), null),
  path: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, 'Path starting with /')), ''),
};
export const ReplicationEndpointCreateSchema = v.object(fields);
export type ReplicationEndpointCreate = v.InferInput<typeof ReplicationEndpointCreateSchema>;
export const ReplicationEndpointUpdateSchema = ReplicationEndpointCreateSchema;
export const ReplicationEndpointPatchSchema = v.partial(
  v.object({
    name: fields.name,
    protocol: fields.protocol,
    host: v.nullable(hostName),
    port: v.nullable(intRange(1, 65535)),
    path: v.pipe(v.string(), v.trim(), v.regex(/^(\/[A-Za-z0-9._~-]+)*\/?$/, 'Path starting with /')),
  }),
);
