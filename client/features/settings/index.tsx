import { t } from '../../lib/i18n.ts';
import { LanguageSection } from './LanguageSection.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { VersionSection } from '../../components/VersionSection.tsx';
import './settings.css';

export default function SettingsPage() {
  return (
    <section className="settings-page">
      <h1>{t('settings.title')}</h1>
      <div className="settings-grid">
        <article>
          <ProfileSection />
        </article>
        <article>
          <PasswordForm />
        </article>
        <article>
          <SessionsSection />
        </article>
        <article>
          <LanguageSection />
        </article>
        <article>
          <VersionSection texts="settings" />
        </article>
      </div>
    </section>
  );
}
