import { endpointDisplayName, endpointUrl } from '../../../api/replication.ts';
import {
  createReplicationEndpoint,
  deleteReplicationEndpoint,
  listReplicationEndpoints,
  updateReplicationEndpoint,
} from '../../../api/replication-endpoints.ts';
import type { ReplicationEndpoint } from '../../../../contract/schemas/replication-endpoints.ts';
import { instanceTitle } from '../../../lib/instance-title.ts';
import { t } from '../../../lib/i18n.ts';
import { SelectField, TextField } from '../fields.tsx';
import type { ReferenceConfig } from './ReferenceTable.tsx';
import { readAll } from '../../../data/fetch-all.ts';

interface EndpointForm {
  name: string;
  protocol: 'http' | 'https';
  /** Empty = the host this portal is served from. */
  host: string;
  /** Empty = the protocol's default (or this page's port when the host is empty). */
  port: string;
  path: string;
}

const HOST = /^[a-z0-9.-]{1,253}$|^\[[0-9a-f:]+\]$/;
const PATH = /^(\/[A-Za-z0-9._~-]+)*\/?$/;

function toBody(f: EndpointForm) {
  return {
    name: f.name.trim(),
    protocol: f.protocol,
    host: f.host.trim() ? f.host.trim().toLowerCase() : null,
    port: f.port.trim() ? Number(f.port.trim()) : null,
    path: f.path.trim(),
  };
}

export const replicationConfig: ReferenceConfig<ReplicationEndpoint, EndpointForm, ReturnType<typeof toBody>> = {
  keyPrefix: 'admin.replication',
  load: (signal) => readAll((range) => listReplicationEndpoints({ order: ['name ASC', 'id ASC'], ...range }, signal), signal),
  columns: () => [
    // docs/product.md#entities: shown as "product | endpoint name", the product being the instance title.
    { header: t('admin.replication.name'), cell: (e) => endpointDisplayName(instanceTitle(), e) },
    {
      header: t('admin.replication.url'),
      cell: (e) => (
        <>
          <code className="admin-wrap">{endpointUrl(e)}</code>
          {!e.host && <small className="field-hint admin-block">{t('admin.replication.currentHost')}</small>}
        </>
      ),
    },
  ],
  itemName: (e) => e.name,
  emptyForm: () => ({ name: '', protocol: 'https', host: '', port: '', path: '' }),
  toForm: (e) => ({ name: e.name, protocol: e.protocol, host: e.host ?? '', port: e.port === null ? '' : String(e.port), path: e.path }),
  validate: (f) => {
    const port = Number(f.port.trim());
    return {
      ...(f.name.trim() ? {} : { name: 'admin.required' }),
      ...(f.host.trim() === '' || HOST.test(f.host.trim().toLowerCase()) ? {} : { host: 'admin.replication.hostInvalid' }),
      ...(f.port.trim() === '' || (Number.isInteger(port) && port >= 1 && port <= 65535) ? {} : { port: 'admin.replication.portInvalid' }),
      ...(PATH.test(f.path.trim()) ? {} : { path: 'admin.replication.pathInvalid' }),
    };
  },
  renderFields: (f, set, errorFor) => (
    <>
      <TextField label={t('admin.replication.endpointName')} value={f.name} onValue={(name) => set({ name })} required error={errorFor('name')} />
      <div className="grid">
        <SelectField
          label={t('admin.replication.protocol')}
          value={f.protocol}
          onValue={(protocol) => set({ protocol: protocol as EndpointForm['protocol'] })}
          options={[
            { value: 'https', label: 'https' },
            { value: 'http', label: 'http' },
          ]}
        />
        <TextField
          label={t('admin.replication.port')}
          value={f.port}
          inputMode="numeric"
          onValue={(port) => set({ port })}
          error={errorFor('port')}
          hint={t('admin.replication.portHint')}
        />
      </div>
      <TextField
        label={t('admin.replication.host')}
        value={f.host}
        onValue={(host) => set({ host })}
        error={errorFor('host')}
        hint={t('admin.replication.hostHint')}
      />
      <TextField
        label={t('admin.replication.path')}
        value={f.path}
        onValue={(path) => set({ path })}
        error={errorFor('path')}
        hint={t('admin.replication.pathHint')}
      />
      <p className="field-hint">
        {t('admin.replication.preview')}{' '}
        <code>{endpointUrl({ ...toBody(f), port: Number.isInteger(Number(f.port)) && f.port.trim() ? Number(f.port) : null })}</code>
      </p>
    </>
  ),
  toBody,
  create: (body) => createReplicationEndpoint(body),
  update: (item, changes) => updateReplicationEndpoint(item.id, changes),
  remove: (e) => deleteReplicationEndpoint(e.id),
};
