import { createDevice, deleteDevice, listDevices, updateDevice } from '../../../api/devices.ts';
import type { Device, DeviceCreate } from '../../../../contract/schemas/devices.ts';
import { t } from '../../../lib/i18n.ts';
import { SelectField, TextField } from '../fields.tsx';
import type { ReferenceConfig } from './ReferenceTable.tsx';
import { readAll } from '../../../data/fetch-all.ts';

const TYPES: Device['type'][] = ['activity-tracker', 'smartphone', 'tablet', 'scale', 'blood-pressure-monitor', 'other'];
interface DeviceForm {
  name: string;
  type: Device['type'];
  serialNumber: string;
}

export const devicesConfig: ReferenceConfig<Device, DeviceForm, DeviceCreate> = {
  keyPrefix: 'admin.devices',
  load: (signal) => readAll((range) => listDevices({ order: ['name ASC', 'id ASC'], ...range }, signal), signal),
  columns: () => [
    { header: t('admin.devices.name'), cell: (d) => d.name },
    { header: t('admin.devices.type'), cell: (d) => t(`admin.devices.types.${d.type}`) },
    { header: t('admin.devices.serialNumber'), cell: (d) => d.serialNumber },
  ],
  itemName: (d) => `${d.name} (${d.serialNumber})`,
  emptyForm: () => ({ name: '', type: 'activity-tracker', serialNumber: '' }),
  toForm: (d) => ({ name: d.name, type: d.type, serialNumber: d.serialNumber }),
  validate: (f) => ({ ...(f.name.trim() ? {} : { name: 'admin.required' }), ...(f.serialNumber.trim() ? {} : { serialNumber: 'admin.required' }) }),
  renderFields: (f, set, errorFor) => (
    <>
      <TextField label={t('admin.devices.name')} value={f.name} onValue={(name) => set({ name })} required error={errorFor('name')} />
      <SelectField
        label={t('admin.devices.type')}
        value={f.type}
        onValue={(type) => set({ type: type as Device['type'] })}
        options={TYPES.map((type) => ({ value: type, label: t(`admin.devices.types.${type}`) }))}
      />
      <TextField
        label={t('admin.devices.serialNumber')}
        value={f.serialNumber}
        onValue={(serialNumber) => set({ serialNumber })}
        required
        error={errorFor('serialNumber')}
      />
    </>
  ),
  toBody: (f) => ({ name: f.name.trim(), type: f.type, serialNumber: f.serialNumber.trim() }),
  create: (body) => createDevice(body),
  update: (item, changes) => updateDevice(item.id, changes),
  remove: (d) => deleteDevice(d.id),
};
