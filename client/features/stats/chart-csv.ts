import type { DailyPatients, PhoneCoachings } from '../../../contract/schemas/statistics.ts';
import { germanDate, toCsv, type CsvValue } from '../../lib/csv.ts';
import { t } from '../../lib/i18n.ts';
import type { Period } from '../../lib/period.ts';

/** A chart's numbers as the export writes them (client/lib/csv.ts: German Excel), one line per day. */
export interface ChartCsv {
  fileName: string;
  text: string;
}

/** "telefoncoachings_2026-11-01_2026-11-26.csv": the chart's title in lower case, words joined by hyphens. */
const fileName = (title: string, period: Period) =>
  `${title
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-')}_${period.from}_${period.to}.csv`;
const header = (keys: string[]) => keys.map((key) => t(`export.column.${key}`));

export function dailyPatientsCsv(period: Period, days: DailyPatients): ChartCsv {
  const rows: CsvValue[][] = days.map((d) => [germanDate(d.date), d.count]);
  return { fileName: fileName(t('stats.dailyChartTitle'), period), text: toCsv(header(['date', 'patientsInAftercare']), rows) };
}

export function phoneCoachingsCsv(period: Period, days: PhoneCoachings): ChartCsv {
  const rows: CsvValue[][] = days.map((d) => [germanDate(d.date), d.count, d.minutes]);
  return { fileName: fileName(t('stats.callsChartTitle'), period), text: toCsv(header(['date', 'phoneCoachings', 'phoneCoachingMinutes']), rows) };
}
