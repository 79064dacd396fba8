import { useState } from 'react';
import { createTrialAccess } from '../../../api/coaches.ts';
import type { PatientAccess } from '../../../../contract/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../../components/CodeBlocks.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { creationErrorText } from '../../../components/errorText.ts';
import { useMutation } from '../../../data/useMutation.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

/** Creates a 14-day trial patient with an access code (linked to the calling coach) and shows the code. */
export function TrialAccessDialog({ onClose }: { onClose: () => void }) {
  const [access, setAccess] = useState<PatientAccess | null>(null);
  const { busy, error, run } = useMutation(creationErrorText);
  const create = () => run(async () => setAccess((await createTrialAccess()).data));
  const done = access !== null;
  return (
    <Dialog
      open
      title={t('admin.trial.title')}
      onClose={onClose}
      actions={
        <div className="button-row">
          <button type="button" className="secondary outline" onClick={onClose}>
            {done ? t('admin.close') : t('admin.cancel')}
          </button>
          {!done && (
            <button type="button" onClick={() => void create()} disabled={busy} aria-busy={busy}>
              {error !== null ? t('admin.retry') : t('admin.trial.create')}
            </button>
          )}
        </div>
      }
    >
      {access ? (
        <div role="status">
          <p>{t('admin.trial.created', { code: access.patient.patientCode })}</p>
          <CodeBlocks code={access.token.code} large label={t('admin.trial.codeLabel')} />
          <p className="field-hint">{t('admin.trial.expires', { date: formatDate(access.token.expiresAt) })}</p>
        </div>
      ) : (
        <p>{t('admin.trial.explain')}</p>
      )}
      {error !== null && (
        <p role="alert" className="form-error">
          {t('admin.trial.failed')} {error}
        </p>
      )}
    </Dialog>
  );
}
