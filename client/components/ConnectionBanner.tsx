import { online } from '../lib/connection.ts';
import { t } from '../lib/i18n.ts';

/**
 * "Keine Verbindung" while the server cannot be reached. Quiet: a polite status line fixed to the bottom
 * edge, over the page rather than in its flow, so its coming and going moves nothing (no layout shift).
 */
export function ConnectionBanner() {
  return (
    <div className="connection-banner" role="status" aria-live="polite" hidden={online.value}>
      {online.value ? null : t('connection.offline')}
    </div>
  );
}
