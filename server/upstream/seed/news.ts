import type { Db } from '../db/index.ts';
import { addDays } from '../lib/days.ts';
import { insertNews } from '../features/news/repository.ts';
import type { Random } from './random.ts';

/* The demo news and who has read them (seedAppData, app-data.ts, calls this first). */

const NEWS: { title: string; body: string; daysAgo: number }[] = [
  {
    title: 'Willkommen im neuen Nachsorge-Portal',
    body: 'Das Portal ersetzt ab sofort die bisherige Tabellenablage. Im Bereich „Hilfe & Unterlagen & Infos“ finden Sie das Handbuch für Coaches.',
    daysAgo: 58,
  },
  {
    title: 'Neue Vorlage: Protokollbogen Telefoncoaching',
    body: 'Für Notizen während der Telefonate steht ein Protokollbogen zum Ausdrucken bereit.',
    daysAgo: 44,
  },
  {
    title: 'Datenschutz: Exporte nur auf dienstliche Laufwerke',
    body: 'Bitte speichern Sie CSV-Exporte ausschließlich auf den Laufwerken der Einrichtung und löschen Sie sie nach der Auswertung.',
    daysAgo: 31,
  },
  {
    title: 'Fortbildung Motivierende Gesprächsführung',
    body: 'Am kommenden Mittwoch, 14:00 bis 16:00 Uhr, findet eine interne Fortbildung statt. Anmeldung über die Teamleitung.',
    daysAgo: 20,
  },
  { title: 'Wartungsfenster am Samstag', body: 'Am Samstag zwischen 6:00 und 8:00 Uhr kann das Portal kurzzeitig nicht erreichbar sein.', daysAgo: 9 },
  {
    title: 'Controlling: neue Auswertung Telefoncoachings',
    body: 'Unter „Controlling“ sehen Gesundheitsmanager und Administratoren jetzt die Telefoncoachings pro Tag mit Minuten.',
    daysAgo: 4,
  },
  {
    title: 'Neue Leihgeräte eingetroffen',
    body: 'Vier weitere Aktivitätstracker sind da und können Patientinnen und Patienten zugeordnet werden.',
    daysAgo: 1,
  },
];

/** The news; the demo coach has read all but the newest three, colleagues about half. */
export async function seedNews(db: Db, coaches: { id: string }[], today: string, at: string, random: Random): Promise<void> {
  const news = NEWS.map((n, i) => ({
    id: `news-${i + 1}`,
    title: n.title,
    body: n.body,
    publishedAt: `${addDays(today, -n.daysAgo)}T07:30:00.000Z`,
    createdAt: at,
  }));
  const reads: { newsId: string; coachId: string; readAt: string }[] = [];
  for (const coach of coaches) {
    news.forEach((item, i) => {
      const read = coach.id === 'coach-demo' ? i < news.length - 3 : random() < 0.5;
      if (read) reads.push({ newsId: item.id, coachId: coach.id, readAt: item.publishedAt });
    });
  }
  await insertNews(db, news, reads);
}
