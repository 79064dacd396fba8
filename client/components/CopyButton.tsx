import { useEffect, useState } from 'react';
import { t } from '../lib/i18n.ts';

/** Copies text to the clipboard and says so visibly (and to screen readers) for a few seconds. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <span className="copy-button">
      <button type="button" className="secondary" onClick={() => void copy()}>
        {label ?? t('codeBlocks.copy')}
      </button>
      <span role="status" className={`copy-status copy-${state}`}>
        {state === 'copied' ? t('codeBlocks.copied') : state === 'failed' ? t('codeBlocks.copyFailed') : ''}
      </span>
    </span>
  );
}
