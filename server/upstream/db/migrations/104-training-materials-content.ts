import type { Kysely } from 'kysely';

// The product's own documents for coaches (files in server/upstream/assets/). They belong to every
// instance, demo data or not, so they come with the schema rather than with the demo seed.
const MATERIALS = [
  {
    id: 'tm-handbuch',
    title: 'Handbuch für Coaches',
    description: 'Die Arbeit mit dem Portal Schritt für Schritt: Dashboard, neuer Zugang, Telefoncoaching, Kommentare, Datenschutz.',
    category: 'manual',
    assetId: 'coach-handbuch',
    position: 1,
  },
  {
    id: 'tm-leitfaden',
    title: 'Leitfaden für Patientinnen und Patienten',
    description: 'Zum Mitgeben: So starten Patientinnen und Patienten mit der App und dem Zugangscode.',
    category: 'patient-information',
    assetId: 'patienten-leitfaden',
    position: 2,
  },
  {
    id: 'tm-protokoll',
    title: 'Protokollbogen Telefoncoaching',
    description: 'Vorlage zum Ausdrucken für Notizen während eines Telefoncoachings.',
    category: 'form',
    assetId: 'telefoncoaching-protokoll',
    position: 3,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  const updatedAt = '2026-11-01T00:00:00.000Z';
  await db
    .insertInto('training_materials')
    .values(MATERIALS.map((m) => ({ ...m, updatedAt })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('training_materials')
    .where(
      'id',
      'in',
      MATERIALS.map((m) => m.id),
    )
    .execute();
}
