import { dayText } from '../../../components/AftercareBadge.tsx';
import { t } from '../../../lib/i18n.ts';

/** "geb. 12.03.1961" beside a name, so two patients of the same name are told apart; nothing when unknown. */
export function BirthDate({ patient }: { patient: { birthDate?: string | null } }) {
  if (!patient.birthDate) return null;
  return <small className="muted">{t('myDay.born', { date: dayText(patient.birthDate) })}</small>;
}
