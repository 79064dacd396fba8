import { listCoaches } from '../../api/coaches.ts';
import { listCostRates } from '../../api/cost-rates.ts';
import { listDiagnoses } from '../../api/diagnosis.ts';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import type { CostRate } from '../../../contract/schemas/cost-rates.ts';
import type { Diagnosis } from '../../../contract/schemas/diagnosis.ts';
import { useQuery } from '../../data/useQuery.ts';
import { readAll } from '../../data/fetch-all.ts';

export interface ReferenceData {
  coaches: Coach[];
  diagnoses: Diagnosis[];
  costRates: CostRate[];
}

/**
 * Diagnoses, cost rates and coaches for the patient form. Each list that cannot
 * be read is simply empty: the form then leaves that choice out instead of failing as a whole.
 */
export function useReferenceData() {
  return useQuery<ReferenceData>(async (signal) => {
    const safe = <T>(p: Promise<{ data: T[] }>) =>
      p.then(
        (r) => r.data,
        () => [] as T[],
      );
    const [coaches, diagnoses, costRates] = await Promise.all([
      safe(readAll((range) => listCoaches({ order: ['lastName ASC', 'firstName ASC'], ...range }, signal), signal)),
      safe(readAll((range) => listDiagnoses({ order: 'code ASC', ...range }, signal), signal)),
      safe(readAll((range) => listCostRates({ order: 'name ASC', ...range }, signal), signal)),
    ]);
    return { data: { coaches, diagnoses, costRates } };
  }, 'reference-data');
}
