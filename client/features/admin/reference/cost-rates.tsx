import { createCostRate, deleteCostRate, listCostRates, updateCostRate } from '../../../api/cost-rates.ts';
import type { CostRate, CostRateCreate } from '../../../../contract/schemas/cost-rates.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { SelectField, TextField } from '../fields.tsx';
import type { ReferenceConfig } from './ReferenceTable.tsx';
import { readAll } from '../../../data/fetch-all.ts';

const UNITS: CostRate['unit'][] = ['session', 'week', 'month', 'flat'];
interface CostRateForm {
  name: string;
  /** As typed, in euros with a comma or point: "35,50". */
  amount: string;
  unit: CostRate['unit'];
}

/** "35,50" / "35.5" / "1.234,56" -> 3550 / 3550 / 123456 cents; null when it is not an amount. */
export function parseEuroCents(text: string): number | null {
  let clean = text.trim().replace(/\s|€/g, '');
  if (clean === '') return null;
  if (clean.includes(',')) clean = clean.replace(/\./g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean) * 100);
}

/** Cents as the amount a person types back: 3550 -> "35,50" (German) . */
export function centsToInput(cents: number): string {
  return formatNumber(cents / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
}

const euro = (cents: number) => formatNumber(cents / 100, { style: 'currency', currency: 'EUR' });

export const costRatesConfig: ReferenceConfig<CostRate, CostRateForm, CostRateCreate> = {
  keyPrefix: 'admin.costRates',
  load: (signal) => readAll((range) => listCostRates({ order: ['name ASC', 'id ASC'], ...range }, signal), signal),
  columns: () => [
    { header: t('admin.costRates.name'), cell: (c) => c.name },
    { header: t('admin.costRates.amount'), cell: (c) => euro(c.amountCents), numeric: true },
    { header: t('admin.costRates.unit'), cell: (c) => t(`admin.costRates.units.${c.unit}`) },
  ],
  itemName: (c) => c.name,
  emptyForm: () => ({ name: '', amount: '', unit: 'session' }),
  toForm: (c) => ({ name: c.name, amount: centsToInput(c.amountCents), unit: c.unit }),
  validate: (f) => ({
    ...(f.name.trim() ? {} : { name: 'admin.required' }),
    ...(f.amount.trim() === '' ? { amount: 'admin.required' } : parseEuroCents(f.amount) === null ? { amount: 'admin.costRates.amountInvalid' } : {}),
  }),
  renderFields: (f, set, errorFor) => (
    <>
      <TextField label={t('admin.costRates.name')} value={f.name} onValue={(name) => set({ name })} required error={errorFor('name')} />
      <div className="grid">
        <TextField
          label={t('admin.costRates.amountInput')}
          value={f.amount}
          inputMode="decimal"
          onValue={(amount) => set({ amount })}
          required
          error={errorFor('amount') ?? errorFor('amountCents' as 'amount')}
          hint={t('admin.costRates.amountHint')}
        />
        <SelectField
          label={t('admin.costRates.unit')}
          value={f.unit}
          onValue={(unit) => set({ unit: unit as CostRate['unit'] })}
          options={UNITS.map((u) => ({ value: u, label: t(`admin.costRates.units.${u}`) }))}
        />
      </div>
    </>
  ),
  toBody: (f) => ({ name: f.name.trim(), amountCents: parseEuroCents(f.amount) ?? 0, unit: f.unit }),
  create: (body) => createCostRate(body),
  update: (item, changes) => updateCostRate(item.id, changes),
  remove: (c) => deleteCostRate(c.id),
};
