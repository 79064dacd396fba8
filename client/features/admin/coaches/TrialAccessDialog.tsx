import { useState } from 'react';
import { createTrialAccess } from '../../../api/coaches.ts';
import type { PatientAccess } from '../../../api/schemas/patient-tokens.ts';
import { CodeBlocks } from '../../../components/CodeBlocks.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { errorText } from '../../../components/errorText.ts';
import { formatDate, t } from '../../../lib/i18n.ts';

/** Creates a 14-day trial patient with an access code (linked to the calling coach) and shows the code. */
export function TrialAccessDialog({ onClose }: { onClose: () => void }) {
  const [state, setState] = useState<{ phase: 'ask' | 'busy' } | { phase: 'done'; access: PatientAccess } | { phase: 'failed'; message: string }>({
    phase: 'ask',
  });
  const create = async () => {
    setState({ phase: 'busy' });
    try {
      const { data } = await createTrialAccess();
      setState({ phase: 'done', access: data });
    } catch (failure) {
      setState({ phase: 'failed', message: errorText(failure) });
    }
  };
  const done = state.phase === 'done';
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
            <button type="button" onClick={create} disabled={state.phase === 'busy'} aria-busy={state.phase === 'busy'}>
              {state.phase === 'failed' ? t('admin.retry') : t('admin.trial.create')}
            </button>
          )}
        </div>
      }
    >
      {state.phase === 'done' ? (
        <div role="status">
          <p>{t('admin.trial.created', { code: state.access.patient.patientCode })}</p>
          <CodeBlocks code={state.access.token.code} large label={t('admin.trial.codeLabel')} />
          <p className="field-hint">{t('admin.trial.expires', { date: formatDate(state.access.token.expiresAt) })}</p>
        </div>
      ) : (
        <p>{t('admin.trial.explain')}</p>
      )}
      {state.phase === 'failed' && (
        <p role="alert" className="form-error">
          {t('admin.trial.failed')} {state.message}
        </p>
      )}
    </Dialog>
  );
}
