import type { Me } from '../../../../contract/schemas/auth.ts';
import { can, exportKinds } from '../../../domain/permissions.ts';
import { user } from '../../../state/session.ts';
import { systemSettings } from '../../../state/settings.ts';
import { t } from '../../../lib/i18n.ts';

/*
 * The coach guide: one page of the app per chapter, texts in locales/*.json (guide.<key>). Names of
 * menus, tabs and buttons are filled in from the same locale keys the screens use, so the guide always says what
 * the screen says; chapters about something a person cannot do (export, new access codes) are left out for them,
 * by the same rules the sidebar uses.
 */
export interface Chapter {
  /** Part of the address: /information/guide/<id>. */
  id: string;
  /** Locale key under guide. */
  key: string;
  steps: number;
  /** Names from the screens, filled into the texts. */
  params(me: Me | null): Record<string, string>;
  visible(me: Me | null): boolean;
}

const attention = () => t('dashboard.attention.title');
const always = () => true;

export const CHAPTERS: Chapter[] = [
  { id: 'find-patient', key: 'find', steps: 4, params: () => ({}), visible: always },
  { id: 'freshness', key: 'freshness', steps: 2, params: () => ({ attention: attention(), chapter: t('guide.call.title') }), visible: always },
  {
    id: 'record-call',
    key: 'call',
    steps: 5,
    visible: always,
    params: () => ({
      attention: attention(),
      reached: t('dashboard.worklist.reached'),
      notReached: t('dashboard.worklist.notReached'),
      tab: t('patient.tabs.data'),
    }),
  },
  {
    id: 'access-code',
    key: 'access',
    steps: 5,
    visible: () => can('createPatients', user.value, systemSettings.value),
    params: () => ({ menu: t('shell.sidebar.createAccess'), button: t('createAccess.create'), print: t('createAccess.print'), tab: t('patient.tabs.access') }),
  },
  {
    id: 'export',
    key: 'export',
    steps: 5,
    visible: (me) => can('export', me),
    params: (me) => ({
      menu: t('shell.sidebar.management'),
      item: t('shell.sidebar.export'),
      button: t('export.start'),
      kinds: exportKinds(me)
        .map((kind) => t(`export.kind.${kind}.title`))
        .join(', '),
    }),
  },
  {
    id: 'my-day',
    key: 'myDay',
    steps: 4,
    visible: always,
    params: () => ({
      myDay: t('myDay.title'),
      attention: attention(),
      newNote: t('myDay.newNote'),
      falling: t('myDay.worsening', { recent: '2,0', before: '3,5' }),
      help: t('myDay.why'),
    }),
  },
];

export const chaptersFor = (me: Me | null) => CHAPTERS.filter((chapter) => chapter.visible(me));
export const chapterHref = (chapter: Chapter) => `/information/guide/${chapter.id}`;
export const chapterText = (chapter: Chapter, part: string, me: Me | null) => t(`guide.${chapter.key}.${part}`, chapter.params(me));
