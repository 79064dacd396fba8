import { Component, type ReactNode } from 'react';
import { isLoadError } from '../lib/areas.ts';
import { onReconnect } from '../lib/connection.ts';
import { reportError } from '../lib/error-reporting.ts';
import { t } from '../lib/i18n.ts';

interface Props {
  children?: ReactNode;
  /** When this changes (the path), a shown error is cleared so navigating away recovers. */
  resetKey?: string;
}
interface State {
  error: unknown;
}

/**
 * Around every page: a crash in one screen shows a message with a retry, never a blank page. A screen whose
 * code could not be fetched says it is the connection, and loads again by itself once the server answers.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };
  private stopWaiting: (() => void) | null = null;

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown): void {
    // Missing code on a bad line is no bug to report; it is retried instead.
    if (isLoadError(error)) this.stopWaiting = onReconnect(() => this.setState({ error: null }));
    else reportError(error);
  }

  componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
    if (!this.state.error) this.release();
  }

  componentWillUnmount(): void {
    this.release();
  }

  private release(): void {
    this.stopWaiting?.();
    this.stopWaiting = null;
  }

  render() {
    if (this.state.error) {
      return (
        <section className="page-error" role="alert">
          <h2>{t('common.pageErrorTitle')}</h2>
          <p>{isLoadError(this.state.error) ? t('dataState.offline') : t('common.pageErrorText')}</p>
          <button type="button" onClick={() => this.setState({ error: null })}>
            {t('common.retry')}
          </button>
        </section>
      );
    }
    return this.props.children;
  }
}
