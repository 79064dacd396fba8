import { useState } from 'react';
import type { Patient } from '../../../../contract/schemas/patients.ts';
import { user } from '../../../state/session.ts';
import { WorklistRow } from './WorklistRow.tsx';
import './worklist.css';

/** "Brauchen Aufmerksamkeit" as a worklist; a patient given a follow-up day on its own leaves it, with a note of why. */
export function Worklist({ patients, now }: { patients: Patient[]; now: Date }) {
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [message, setMessage] = useState('');
  const coachId = user.value?.id ?? '';
  return (
    <>
      <p role="status" className="worklist-message">
        {message}
      </p>
      <ul className="row-list worklist">
        {patients
          .filter((p) => !gone.has(p.id))
          .map((p) => (
            <WorklistRow
              key={p.id}
              patient={p}
              coachId={coachId}
              now={now}
              onDone={(text) => {
                setMessage(text);
                setGone((set) => new Set([...set, p.id]));
              }}
            />
          ))}
      </ul>
    </>
  );
}
