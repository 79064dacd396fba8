import { listDevices } from '../../../api/devices.ts';
import { linkPatientDevice, listPatientDevices, unlinkPatientDevice } from '../../../api/patients.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { t } from '../../../lib/i18n.ts';
import { LinkedList } from './LinkedList.tsx';
import { readAll } from '../../../data/fetch-all.ts';

/** Devices lent to the patient (Leihgeräte): link and unlink. */
export function Devices({ patientId }: { patientId: string }) {
  const linked = useQuery((signal) => listPatientDevices(patientId, signal), patientId);
  const all = useQuery((signal) => readAll((range) => listDevices({ order: 'name ASC', ...range }, signal), signal).catch(() => ({ data: [] })), patientId);
  const linkedIds = new Set((linked.data ?? []).map((d) => d.id));
  const candidates = (all.data ?? []).filter((d) => !linkedIds.has(d.id));

  return (
    <section aria-labelledby="devices-heading" className="card">
      <h2 id="devices-heading">{t('patient.devices.title')}</h2>
      <LinkedList
        linked={linked}
        candidates={candidates}
        selectId={`link-device-${patientId}`}
        textGroup="patient.devices"
        emptyText={t('patient.devices.empty')}
        unlinkLabel={(d) => t('patient.devices.unlinkNamed', { name: d.name })}
        renderItem={(d) => (
          <>
            {d.name}{' '}
            <small className="muted">
              ({t(`patient.devices.type.${d.type}`)}, {t('patient.devices.serial')} {d.serialNumber})
            </small>
          </>
        )}
        optionLabel={(d) => `${d.name} (${d.serialNumber})`}
        onLink={(id) => linkPatientDevice(patientId, id)}
        onUnlink={(id) => unlinkPatientDevice(patientId, id)}
      />
    </section>
  );
}
