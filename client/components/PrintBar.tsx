import { t } from '../lib/i18n.ts';

/** The on-screen bar of a print view: print and close. Hidden on paper. */
export function PrintBar() {
  return (
    <div className="print-bar no-print">
      <button type="button" onClick={() => window.print()}>
        {t('print.print')}
      </button>
      <button
        type="button"
        className="secondary outline"
        onClick={() => {
          // Opened in its own tab from the record: close it; opened directly: go back.
          if (window.opener) window.close();
          else history.back();
        }}
      >
        {t('print.close')}
      </button>
    </div>
  );
}
