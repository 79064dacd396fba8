import { getAppSettings } from '../../api/app-settings.ts';
import { useQuery } from '../../data/useQuery.ts';
import { t } from '../../lib/i18n.ts';
import { QrCode } from './QrCode.tsx';

/** Where to get the app: a QR code of the download link and the link as text. Left out when no link is set. */
export function AppDownload() {
  const settings = useQuery((signal) => getAppSettings(signal), 'app-settings');
  const url = settings.data?.appDownloadUrl.trim();
  if (!url) return null;
  return (
    <section className="print-app-download">
      <QrCode text={url} label={t('print.appQr')} />
      <div>
        <h2>{t('print.appTitle')}</h2>
        <p>{t('print.appHint')}</p>
        <p className="print-url">{url}</p>
      </div>
    </section>
  );
}
