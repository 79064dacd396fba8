import { Component, type ReactNode } from 'react';
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

/** Around every page: a crash in one screen shows a message with a retry, never a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown): void {
    reportError(error);
  }

  componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render() {
    if (this.state.error) {
      return (
        <section className="page-error" role="alert">
          <h2>{t('common.pageErrorTitle')}</h2>
          <p>{t('common.pageErrorText')}</p>
          <button type="button" onClick={() => this.setState({ error: null })}>
            {t('common.retry')}
          </button>
        </section>
      );
    }
    return this.props.children;
  }
}
