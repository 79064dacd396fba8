import type { Lb3 } from './state.ts';

/** The accounts of this upstream (all with LB3_PASSWORD). The plain coach has no names, only an email. */
export const LB3_ACCOUNTS = {
  admin: 'admin@lb3.example.com',
  coach: 'coach@lb3.example.com',
  health: 'health@lb3.example.com',
  locked: 'locked@lb3.example.com',
} as const;
export const LB3_PASSWORD = 'Lb3-Kennwort-2024';

const DAY = 86_400_000;

/** A small instance of its own: four coaches, a dozen patients around "now", news, reference data. */
export async function seed(lb: Lb3): Promise<void> {
  const m = lb.models;
  const now = lb.now().getTime();
  const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10);
  const at = (offset: number) => new Date(now + offset * DAY);

  const [admin, coach] = await m.Coach.create([
    { email: LB3_ACCOUNTS.admin, password: LB3_PASSWORD, firstName: 'Greta', lastName: 'Gruber', isAdmin: true },
    { email: LB3_ACCOUNTS.coach, password: LB3_PASSWORD },
    { email: LB3_ACCOUNTS.health, password: LB3_PASSWORD, firstName: 'Hanna', lastName: 'Heller', isHealthManager: true },
    { email: LB3_ACCOUNTS.locked, password: LB3_PASSWORD, firstName: 'Lutz', lastName: 'Lang', isUserLocked: true },
  ]);

  // [first, last, start offset, end offset, days since data (null = never), lead coach]
  const people: [string, string, number, number, number | null, number][] = [
    ['Anton', 'Albers', -40, 50, 0, coach.id],
    ['Berta', 'Brandt', -20, 70, 4, coach.id],
    ['Carla', 'Conrad', -60, 8, 10, coach.id],
    ['Dieter', 'Dahl', -10, 80, null, coach.id],
    ['Emil', 'Engel', -80, 5, 1, coach.id],
    ['Frieda', 'Fuchs', 10, 100, null, coach.id],
    ['Gustav', 'Graf', -200, -20, 40, coach.id],
    ['Helga', 'Hahn', -30, 60, 2, admin.id],
    ['Ida', 'Imhof', -5, 85, null, admin.id],
    ['Jonas', 'Jung', -50, 40, 12, admin.id],
    ['Karin', 'Krause', -15, 75, 0, admin.id],
    ['Ludwig', 'Lorenz', -70, 20, 3, admin.id],
  ];
  await m.Patient.create(
    people.map(([firstName, lastName, start, end, silent, leadCoachId], i) => ({
      firstName,
      lastName,
      patientCode: `LB-${String(101 + i)}`,
      dateOfBirth: `19${60 + i}-0${1 + (i % 9)}-1${i % 10}`,
      gender: ['W', 'M', 'D', 'X'][i % 4],
      programStart: day(start),
      programEnd: day(end),
      leadCoachId,
      lastDataAt: silent === null ? null : at(-silent),
      phone: i % 3 === 0 ? `0301234${500 + i}` : null,
    })),
  );
  const calls = [];
  for (let d = -88; d <= 0; d += 3) calls.push({ date: day(d), minutes: 20 + ((d * -7) % 25) });
  await m.PhoneCall.create(calls);

  await m.News.create([
    { title: 'Neue Telefonzeiten der Klinik', body: 'Die Klinik ist ab Montag von 8 bis 16 Uhr erreichbar.', publishedAt: at(-3) },
    { title: 'Fortbildung im Juni', publishedAt: at(-2) },
    { title: 'Wartung am Wochenende', body: 'Am Samstag ist das System kurz nicht erreichbar.', publishedAt: at(-1) },
  ]);
  await m.NewsRead.create({ newsId: 1, coachId: coach.id });

  await m.Comment.create({ patientId: 1, authorId: coach.id, text: 'Erstgespräch geführt, Ziele besprochen.', createdAt: at(-3) });
  await m.ExternalComment.create({ patientId: 1, author: 'Reha-Klinik am See', text: 'Entlassung mit Empfehlung zur Nachsorge.', createdAt: at(-41) });
  await m.Device.create({ name: 'Fitnessarmband 1', serialNumber: 'FB-0001' });
  await m.Diagnosis.create({ code: 'F32.1', label: 'Mittelgradige depressive Episode' });
  await m.CostRate.create({ designation: 'Nachsorge Standard', amountEuro: 35 });
  await m.Survey.create({ headline: 'Wohlbefinden', questions: [{ id: 'q1', text: 'Wie geht es Ihnen heute?', type: 'scale', min: 1, max: 5 }] });
  await m.ReplicationEndpoint.create({ name: 'Replikat', protocol: 'https' });
  await m.PatientToken.create({ accessCode: 'KQ7MX3PA9R', coachId: coach.id, patientId: null, expiresAt: at(60), createdAt: at(-30) });
  await m.SyncedPatient.create({ patientId: 1, patientCode: 'LB-101', lastSyncAt: at(0), recordCount: 2, lastDayEvaluationDate: day(-1) });
  // What Anton's app synchronised, flat as this API keeps it.
  await m.SyncEntry.create([
    { patientId: 1, collection: 'day-evaluation', recordId: `de-${day(-1)}`, date: day(-1), mood: 4, sleep: 3, stress: 2, pain: null, notes: '' },
    {
      patientId: 1,
      collection: 'day-stats',
      recordId: `ds-${day(-1)}`,
      date: day(-1),
      steps: 6400,
      activeMinutes: 35,
      sleepMinutes: 410,
      restingHeartRate: 62,
    },
  ]);
  await m.TrainingMaterial.create({ title: 'Handbuch für Coaches', assetId: 1, fileName: 'handbuch.txt', contentType: 'text/plain', size: 22 });
}
