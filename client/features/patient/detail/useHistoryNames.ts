import { listDevices } from '../../../api/devices.ts';
import type { HistoryNames } from '../../../components/timeline/history-text.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { coachName } from '../../../lib/names.ts';
import { useReferenceData } from '../useReferenceData.ts';
import { readAll } from '../../../data/fetch-all.ts';

/** The names a change or a call refers to by id (coaches, devices, diagnoses, cost rates); ids nobody can read stay ids. */
export function useHistoryNames(): HistoryNames {
  const refs = useReferenceData();
  const devices = useQuery((signal) => readAll((range) => listDevices(range, signal), signal).catch(() => ({ data: [] })), 'devices');
  return {
    coaches: new Map((refs.data?.coaches ?? []).map((c) => [c.id, coachName(c)])),
    devices: new Map((devices.data ?? []).map((d) => [d.id, d.name])),
    diagnoses: new Map((refs.data?.diagnoses ?? []).map((d) => [d.id, d.code])),
    costRates: new Map((refs.data?.costRates ?? []).map((r) => [r.id, r.name])),
  };
}
