import type { ReplicationEndpoint } from '../../contract/schemas/replication-endpoints.ts';

type Endpoint = Pick<ReplicationEndpoint, 'protocol' | 'host' | 'port'> & { path?: string };
/** The page's own address, passed in so the rule can be tested without a browser. */
export interface CurrentLocation {
  hostname: string;
  /** '' when the page uses its protocol's default port. */
  port: string;
}

const DEFAULT_PORT = { http: 80, https: 443 } as const;

/**
 * The URL patient apps replicate to. An omitted host means the host this portal is served from
 * (docs/product.md#constants); then an omitted port means the page's port too. Default ports are left out.
 */
export function endpointUrl(endpoint: Endpoint, current: CurrentLocation = window.location): string {
  const host = endpoint.host || current.hostname;
  let port = endpoint.port ?? null;
  if (port === null && !endpoint.host && current.port) port = Number(current.port);
  const portPart = port === null || port === DEFAULT_PORT[endpoint.protocol] ? '' : `:${port}`;
  const path = endpoint.path && endpoint.path !== '/' ? endpoint.path.replace(/\/$/, '') : '';
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${endpoint.protocol}://${bracketed}${portPart}${path}`;
}

/** "product | endpoint name" (docs/product.md#entities), the product being the instance title. */
export function endpointDisplayName(productName: string, endpoint: Pick<ReplicationEndpoint, 'name'>): string {
  return `${productName.replace(/["']/g, '').trim()} | ${endpoint.name}`;
}
