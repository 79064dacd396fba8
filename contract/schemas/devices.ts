import * as v from 'valibot';
import { IdSchema, textField } from './common.ts';

export const DeviceTypeSchema = v.picklist(['activity-tracker', 'smartphone', 'tablet', 'scale', 'blood-pressure-monitor', 'other']);
/** A device lent to patients (Leihgerät), linked to patients through /patients/{id}/devices. */
export const DeviceSchema = v.object({
  id: IdSchema,
  name: v.string(),
  type: DeviceTypeSchema,
  /** Manufacturer's serial number; unique. */
  serialNumber: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Device = v.InferOutput<typeof DeviceSchema>;
export const DeviceListSchema = v.array(DeviceSchema);
export const DeviceCreateSchema = v.object({ name: textField(200), type: DeviceTypeSchema, serialNumber: textField(100) });
export type DeviceCreate = v.InferInput<typeof DeviceCreateSchema>;
export const DeviceUpdateSchema = DeviceCreateSchema;
export const DevicePatchSchema = v.partial(DeviceCreateSchema);
