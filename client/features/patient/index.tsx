import '../../components/records.css';
import './patient.css';
import { useAreaPath } from '../../lib/area-path.ts';
import { PatientCreate } from './PatientCreate.tsx';
import { PatientDetail } from './PatientDetail.tsx';
import { PatientList } from './PatientList.tsx';

/** The patient area's pages: the list, a new patient (new) and one patient (<id>). */
export default function PatientArea() {
  const [id, ...below] = useAreaPath().split('/');
  if (id === 'new' && below.length === 0) return <PatientCreate />;
  if (id && below.length === 0) return <PatientDetail id={id} />;
  return <PatientList />;
}
