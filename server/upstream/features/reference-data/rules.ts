import { isAdmin } from '../../http/auth.ts';
import type { AccessRule } from '../../resource/definition.ts';

/** Reference data (devices, surveys, diagnoses, cost rates, replication endpoints): every coach reads, admins write. */
export const referenceData: AccessRule = {
  scopeList: (_ctx, _coach, query) => query,
  canRead: () => true,
  canWrite: (_ctx, coach) => isAdmin(coach),
  canAttempt: (coach) => isAdmin(coach),
};
