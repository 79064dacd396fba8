import type * as v from 'valibot';
import { request } from '../data/http.ts';
import type { ListFilter } from '../../contract/schemas/common.ts';
import { DeviceListSchema, DeviceSchema, type DevicePatchSchema, type DeviceUpdateSchema, type DeviceCreate } from '../../contract/schemas/devices.ts';

const id = encodeURIComponent;

export const createDevice = (body: DeviceCreate) => request('POST', '/devices', { body, schema: DeviceSchema });
export const listDevices = (filter?: ListFilter, signal?: AbortSignal) => request('GET', '/devices', { query: { filter }, schema: DeviceListSchema, signal });
export const getDevice = (itemId: string, signal?: AbortSignal) => request('GET', `/devices/${id(itemId)}`, { schema: DeviceSchema, signal });
export const replaceDevice = (itemId: string, body: v.InferInput<typeof DeviceUpdateSchema>) =>
  request('PUT', `/devices/${id(itemId)}`, { body, schema: DeviceSchema });
export const updateDevice = (itemId: string, body: v.InferInput<typeof DevicePatchSchema>) =>
  request('PATCH', `/devices/${id(itemId)}`, { body, schema: DeviceSchema });
export const deleteDevice = (itemId: string) => request('DELETE', `/devices/${id(itemId)}`);
