import { useState } from 'react';
import { listDevices } from '../../../api/devices.ts';
import { linkPatientDevice, listPatientDevices, unlinkPatientDevice } from '../../../api/patients.ts';
import { DataState } from '../../../components/DataState.tsx';
import { errorText } from '../../../components/errorText.ts';
import { useResource } from '../../../components/useResource.ts';
import { t } from '../../../lib/i18n.ts';

/** Devices lent to the patient (Leihgeräte): link and unlink. */
export function Devices({ patientId }: { patientId: string }) {
  const linked = useResource((signal) => listPatientDevices(patientId, signal), patientId);
  const all = useResource((signal) => listDevices({ order: 'name ASC', limit: 1000 }, signal).catch(() => ({ data: [] })), patientId);
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function change(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setChoice('');
      linked.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  const linkedIds = new Set((linked.data ?? []).map((d) => d.id));
  const candidates = (all.data ?? []).filter((d) => !linkedIds.has(d.id));

  return (
    <section aria-labelledby="devices-heading" className="card">
      <h2 id="devices-heading">{t('patient.devices.title')}</h2>
      <DataState
        status={linked.status}
        error={linked.error}
        onRetry={linked.reload}
        hasData={!!linked.data}
        empty={linked.data?.length === 0}
        emptyText={t('patient.devices.empty')}
      >
        <ul className="row-list">
          {(linked.data ?? []).map((d) => (
            <li key={d.id}>
              <span>
                {d.name} <small className="muted">({t(`patient.devices.type.${d.type}`)}, {t('patient.devices.serial')} {d.serialNumber})</small>
              </span>
              <button
                type="button"
                className="secondary outline small"
                disabled={busy}
                aria-label={t('patient.devices.unlinkNamed', { name: d.name })}
                onClick={() => void change(() => unlinkPatientDevice(patientId, d.id))}
              >
                {t('patient.devices.unlink')}
              </button>
            </li>
          ))}
        </ul>
      </DataState>
      {candidates.length > 0 && (
        <form className="inline-form" onSubmit={(e) => { e.preventDefault(); if (choice) void change(() => linkPatientDevice(patientId, choice)); }}>
          <label htmlFor={`link-device-${patientId}`}>{t('patient.devices.add')}</label>
          <div className="inline-form-row">
            <select id={`link-device-${patientId}`} value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
              <option value="">{t('patient.devices.choose')}</option>
              {candidates.map((d) => (
                <option key={d.id} value={d.id}>{d.name} ({d.serialNumber})</option>
              ))}
            </select>
            <button type="submit" disabled={!choice || busy}>{t('patient.devices.link')}</button>
          </div>
        </form>
      )}
      {error !== null && <p role="alert" className="inline-error">{t('patient.devices.failed')} {errorText(error)}</p>}
    </section>
  );
}
