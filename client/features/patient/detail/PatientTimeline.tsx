import type { Patient } from '../../../../contract/schemas/patients.ts';
import { Timeline } from '../../../components/timeline/Timeline.tsx';
import { useHistoryNames } from './useHistoryNames.ts';

/** The record's "Chronik" tab: the patient's timeline, with the names its entries refer to. */
export function PatientTimeline({ patient, changes }: { patient: Patient; changes: boolean }) {
  return <Timeline patient={patient} changes={changes} names={useHistoryNames()} />;
}
