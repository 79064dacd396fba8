import type { ReactNode } from 'react';
import { t } from '../lib/i18n.ts';
import { errorText } from './errorText.ts';

interface Props {
  status: 'loading' | 'error' | 'ready';
  error?: unknown;
  onRetry?: () => void;
  /** True when the loaded data has nothing to show. */
  empty?: boolean;
  emptyText?: string;
  /** Shown while loading for the first time; defaults to a generic line. */
  loadingText?: string;
  /** Keep children visible while reloading (lists that already show data). */
  hasData?: boolean;
  children?: ReactNode;
}

/** The three states every screen needs: loading, error with retry, empty - then the content. */
export function DataState({ status, error, onRetry, empty, emptyText, loadingText, hasData, children }: Props) {
  if (status === 'error') {
    return (
      <div role="alert" className="data-state data-state-error">
        <p>
          <strong>{t('dataState.errorTitle')}</strong> {errorText(error)}
        </p>
        {onRetry && (
          <button type="button" className="secondary" onClick={onRetry}>
            {t('dataState.retry')}
          </button>
        )}
      </div>
    );
  }
  if (status === 'loading' && !hasData) {
    return (
      <p className="data-state data-state-loading" aria-busy="true">
        {loadingText ?? t('dataState.loading')}
      </p>
    );
  }
  if (status === 'ready' && empty) {
    return <p className="data-state data-state-empty">{emptyText ?? t('dataState.empty')}</p>;
  }
  return <>{children}</>;
}

/** DataState's props for a loaded list (useQuery): its state and retry, kept visible while reloading, empty without rows. */
export function listState(list: { status: Props['status']; error?: unknown; reload: () => void; data?: readonly unknown[] | null }, emptyText: string) {
  return { status: list.status, error: list.error, onRetry: list.reload, hasData: !!list.data, empty: list.data?.length === 0, emptyText };
}
