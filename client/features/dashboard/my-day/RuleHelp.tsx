import { useState } from 'react';
import { Link } from 'wouter';
import { loadDocument, t } from '../../../lib/i18n.ts';

const CHAPTER = '/information/guide/my-day';

/**
 * "Wann steht jemand hier?": the rule behind the flags. Its text is part of the help document (the coach guide's
 * texts), fetched when the coach opens it, so the dictionary of the first screen stays small.
 */
export function RuleHelp() {
  const [state, setState] = useState<'closed' | 'loading' | 'ready' | 'failed'>('closed');
  const open = () => {
    if (state !== 'closed' && state !== 'failed') return;
    setState('loading');
    loadDocument('help').then(
      () => setState('ready'),
      () => setState('failed'),
    );
  };
  return (
    <details className="my-day-help" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && open()}>
      <summary>{t('myDay.why')}</summary>
      {state === 'ready' ? (
        <p>
          {t('myDayHelp.rule')} <Link href={CHAPTER}>{t('guide.myDay.title')}</Link>
        </p>
      ) : (
        <p aria-busy={state === 'loading'}>{state === 'failed' ? <Link href={CHAPTER}>{t('shell.sidebar.information')}</Link> : t('common.loading')}</p>
      )}
    </details>
  );
}
