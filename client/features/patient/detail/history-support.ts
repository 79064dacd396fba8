import { useEffect, useState } from 'react';
import { ApiError, isAbortError } from '../../../data/http.ts';
import { listAuditLog } from '../../../api/audit-log.ts';

/*
 * The patient's "Verlauf" and the earlier versions of a note come from GET /v2/audit-log, which docs/product.md#calls does
 * not list: our upstream has it, a customer's API may not. Whether it does is asked once per coach and page load
 * (one entry of the patient being opened); an API that answers 404, 405 or 501 has no audit log, and one that answers
 * 403 does not give it to this coach. Then the tab and the version links are left out, not shown broken.
 */
const known = new Map<string, Promise<boolean>>();
const ABSENT = new Set([403, 404, 405, 501]);

export function auditLogAvailable(coachId: string, patientId: string): Promise<boolean> {
  let answer = known.get(coachId);
  if (!answer) {
    answer = listAuditLog({ where: { patientId }, limit: 1 }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ApiError && ABSENT.has(error.status)) return false;
        // Not an answer about the API (offline, aborted, a server error): ask again next time.
        known.delete(coachId);
        throw error;
      },
    );
    known.set(coachId, answer);
  }
  return answer;
}

/** true / false once known; null while asking or when the question failed (nothing that needs it is shown). */
export function useAuditLogAvailable(coachId: string, patientId: string): boolean | null {
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    if (!coachId) return;
    let live = true;
    auditLogAvailable(coachId, patientId).then(
      (value) => live && setAvailable(value),
      (error: unknown) => {
        if (!isAbortError(error) && live) setAvailable(null);
      },
    );
    return () => {
      live = false;
    };
  }, [coachId, patientId]);
  return available;
}

/** Tests start without knowing. */
export function forgetAuditLogSupport(): void {
  known.clear();
}
