import { t } from '../lib/i18n.ts';
import { birthText } from '../lib/identity.ts';

/** "12.03.1961 (64)" under or beside a name in a list, read out as "geboren 12.03.1961 (64)"; nothing without a date. */
export function BirthDate({ birthDate, now }: { birthDate: string | null | undefined; now?: Date }) {
  const text = birthText(birthDate, now);
  if (!text) return null;
  return (
    <span className="birth-date">
      <span className="visually-hidden">{t('identity.born')} </span>
      {text}
    </span>
  );
}
