import '../../components/records.css';
import './patient.css';
import { useRoute } from 'wouter';
import { PatientCreate } from './PatientCreate.tsx';
import { PatientDetail } from './PatientDetail.tsx';
import { PatientList } from './PatientList.tsx';

/** The patient area owns its child routes: /patient, /patient/new and /patient/:id. */
export default function PatientArea() {
  const [isNew] = useRoute('/patient/new');
  const [isDetail, params] = useRoute<{ id: string }>('/patient/:id');
  if (isNew) return <PatientCreate />;
  if (isDetail && params) return <PatientDetail id={params.id} />;
  return <PatientList />;
}
