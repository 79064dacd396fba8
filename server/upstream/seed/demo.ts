import type { Db } from '../db/index.ts';
import type { CoachTable, PatientTable } from '../db/types.ts';
import { hashPassword } from '../lib/secrets.ts';
import { generateCode, generatePatientCode, CODE_VALID_DAYS } from '../lib/codes.ts';
import { insertCareTeamLinks, insertPatients } from '../features/patients/repository.ts';
import { insertCoaches } from '../features/coaches/repository.ts';
import { insertComments, insertExternalComments } from '../features/comments/repository.ts';
import { insertAccessCodes } from '../features/access-codes/repository.ts';
import { seedAppData } from './app-data.ts';
import { addDays, between, day, indexFn, pick, seededRandom, type Random } from './random.ts';
import { CITIES_PHONE, CLINICS, COMMENTS, DIAGNOSES, EXTERNAL_COMMENTS, FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from './names.ts';
import { insertReferenceData } from './reference-data.ts';

export const DEMO_PASSWORD = 'Demo-Passwort-1';
const SEED = 20261122;

interface CoachSeed {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  isAdmin?: 1;
  isHealthManager?: 1;
  isUserLocked?: 1;
}
export const DEMO_COACHES: CoachSeed[] = [
  { id: 'coach-admin', email: 'admin@example.org', firstName: 'Katrin', lastName: 'Albrecht', title: 'Teamleitung Nachsorge', isAdmin: 1 },
  { id: 'coach-demo', email: 'coach@example.org', firstName: 'Clara', lastName: 'Bergmann', title: 'Dipl.-Psych.' },
  { id: 'coach-health', email: 'health@example.org', firstName: 'Holger', lastName: 'Gerlach', title: 'Gesundheitsmanagement', isHealthManager: 1 },
  { id: 'coach-locked', email: 'locked@example.org', firstName: 'Lars', lastName: 'Sperling', title: 'Sozialarbeiter', isUserLocked: 1 },
  { id: 'coach-ostermann', email: 'm.ostermann@example.org', firstName: 'Miriam', lastName: 'Ostermann', title: 'Sozialpädagogin (B.A.)' },
  { id: 'coach-petersen', email: 'j.petersen@example.org', firstName: 'Jan', lastName: 'Petersen', title: 'Sporttherapeut' },
  { id: 'coach-wendt', email: 's.wendt@example.org', firstName: 'Sophie', lastName: 'Wendt', title: 'Psychologin (M.Sc.)' },
  { id: 'coach-brandt', email: 't.brandt@example.org', firstName: 'Tobias', lastName: 'Brandt', title: 'Sozialarbeiter' },
  { id: 'coach-kurz', email: 'n.kurz@example.org', firstName: 'Nadine', lastName: 'Kurz', title: 'Ernährungsberaterin' },
];
/** Coaches who look after patients (the demo coach most of all, so that account has a full list). */
const CARING = ['coach-demo', 'coach-demo', 'coach-demo', 'coach-ostermann', 'coach-petersen', 'coach-wendt', 'coach-brandt', 'coach-kurz', 'coach-admin'];

export interface SeedContext {
  now: Date;
  random: Random;
  coaches: CoachTable[];
  patients: PatientTable[];
}

/** The next coaching calls of an active patient (weekdays, office hours), in order. */
function plannedAppointments(random: Random, now: Date, i: number) {
  const appointments = [];
  for (let a = 0, n = between(random, 0, 2); a < n; a++) {
    const when = addDays(now, between(random, 1, 21));
    when.setUTCHours(between(random, 7, 15), pick(random, [0, 30]), 0, 0);
    appointments.push({
      id: `apt-${i}-${a}`,
      startsAt: when.toISOString(),
      durationMinutes: pick(random, [20, 30, 45]),
      type: pick(random, ['phone', 'phone', 'video', 'onsite']),
      note: '',
    });
  }
  return appointments.sort((x, y) => x.startsAt.localeCompare(y.startsAt));
}

/** "Jürgen Weiß" -> juergen.weiss@example.net, as people spell their names in addresses. */
const demoEmail = (firstName: string, lastName: string) =>
  `${firstName}.${lastName}@example.net`
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/[^a-z.@-]/g, '');

/** `count` patients with German names, aftercare intervals spread over the past year, diagnoses and coaches. */
export function makePatients(
  random: Random,
  now: Date,
  count: number,
  caring: string[] = CARING,
  prefix = 'pat',
  taken: Iterable<string> = [],
): PatientTable[] {
  const at = now.toISOString();
  const codes = new Set<string>(taken);
  const patients: PatientTable[] = [];
  for (let i = 0; i < count; i++) {
    const female = random() < 0.55;
    const firstName = pick(random, female ? FEMALE_NAMES : MALE_NAMES);
    const lastName = pick(random, LAST_NAMES);
    let code = generatePatientCode(indexFn(random));
    while (codes.has(code)) code = generatePatientCode(indexFn(random));
    codes.add(code);
    // Starts from a year ago to three weeks ahead; lengths as rehab aftercare programmes run.
    const start = addDays(now, -between(random, -21, 365));
    const length = pick(random, [84, 91, 120, 182, 182, 365]);
    const diagnosisCount = random() < 0.35 ? 2 : 1;
    const diagnosisIds = new Set<string>();
    while (diagnosisIds.size < diagnosisCount) diagnosisIds.add(`dx-${pick(random, DIAGNOSES)[0]}`);
    const unassigned = random() < 0.05;
    const end = addDays(start, length - 1);
    // Active patients have their next coaching calls planned.
    const appointments = start <= now && now <= end ? plannedAppointments(random, now, i) : [];
    patients.push({
      id: `${prefix}-${String(i + 1).padStart(count >= 1000 ? 5 : 3, '0')}`,
      patientCode: code,
      firstName,
      lastName,
      birthDate: day(new Date(Date.UTC(between(random, 1952, 1998), between(random, 0, 11), between(random, 1, 28)))),
      gender: female ? 'female' : random() < 0.97 ? 'male' : 'diverse',
      email: random() < 0.6 ? demoEmail(firstName, lastName) : null,
      phone: random() < 0.8 ? `${pick(random, CITIES_PHONE)} ${between(random, 100000, 9999999)}` : null,
      clinic: pick(random, CLINICS),
      aftercareStart: day(start),
      aftercareEnd: day(end),
      primaryCoachId: unassigned ? null : pick(random, caring),
      diagnosisIds: JSON.stringify([...diagnosisIds]),
      costRateId: pick(random, ['rate-irena-gruppe', 'rate-irena-einzel', 'rate-app-monat', 'rate-app-monat', 'rate-tele']),
      appointments: JSON.stringify(appointments),
      lastDataAt: null,
      createdAt: at,
      updatedAt: at,
    });
  }
  return patients;
}

function demoCoaches(passwordHash: string, at: string): CoachTable[] {
  return DEMO_COACHES.map((c, i) => ({
    id: c.id,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
    title: c.title,
    phone: `030 5550${String(100 + i)}`,
    passwordHash,
    isAdmin: c.isAdmin ?? 0,
    isSuperAdmin: 0,
    isHealthManager: c.isHealthManager ?? 0,
    isUserLocked: c.isUserLocked ?? 0,
    emailVerified: 1,
    language: 'de',
    trialEndsAt: null,
    createdAt: at,
    updatedAt: at,
  }));
}

/** What the care of the demo patients left behind: second coaches, notes, notes from outside, access codes. */
interface CareHistory {
  links: { patientId: string; coachId: string; createdAt: string }[];
  comments: Record<string, unknown>[];
  external: Record<string, unknown>[];
  tokens: Record<string, unknown>[];
  codes: Set<string>;
}

function addCareHistory(h: CareHistory, p: PatientTable, i: number, now: Date, random: Random): void {
  const at = now.toISOString();
  // About a quarter of the patients have a second coach in their care team.
  if (random() < 0.25) {
    const second = pick(random, CARING);
    if (second !== p.primaryCoachId) h.links.push({ patientId: p.id, coachId: second, createdAt: at });
  }
  const start = new Date(`${p.aftercareStart}T09:00:00.000Z`);
  const daysIn = Math.max(0, Math.min(Math.floor((now.getTime() - start.getTime()) / 86400_000), 365));
  const author = p.primaryCoachId ?? 'coach-admin';
  // Nothing is dated after the seeding moment: a planned patient (aftercare not begun) has no comments yet.
  const notLater = (d: Date) => (d.getTime() > now.getTime() ? now : d);
  const started = start.getTime() <= now.getTime();
  for (let c = 0, n = started ? between(random, 0, Math.min(4, 1 + Math.floor(daysIn / 30))) : 0; c < n; c++) {
    const when = addDays(start, Math.floor(((c + 1) / (n + 1)) * daysIn)).toISOString();
    h.comments.push({ id: `com-${i}-${c}`, patientId: p.id, authorId: author, text: pick(random, COMMENTS), createdAt: when, updatedAt: when });
  }
  for (let e = 0, n = between(random, 0, 2); e < n; e++) {
    const x = pick(random, EXTERNAL_COMMENTS);
    const when = addDays(start, e * 7 - 3);
    if (when.getTime() > now.getTime()) break;
    h.external.push({ id: `ext-${i}-${e}`, patientId: p.id, ...x, createdAt: when.toISOString() });
  }
  // Every patient got an access code at the start; those who started more than a week ago used it.
  let code = generateCode(indexFn(random));
  while (h.codes.has(code)) code = generateCode(indexFn(random));
  h.codes.add(code);
  const issued = notLater(addDays(start, -3));
  h.tokens.push({
    id: `tok-${i}`,
    code,
    coachId: author,
    patientId: p.id,
    createdAt: issued.toISOString(),
    expiresAt: addDays(issued, CODE_VALID_DAYS).toISOString(),
    usedAt: daysIn > 7 ? addDays(start, 1).toISOString() : null,
  });
}

/** The demo instance: docs/contract.md#demo-accounts accounts, a German aftercare team, 60 patients and their data. */
export async function seedDemo(db: Db, options: { now: Date; patients?: number }): Promise<SeedContext> {
  const random = seededRandom(SEED);
  const now = options.now;
  const at = now.toISOString();
  // One hash for all demo accounts: they share a published password anyway, and seeding stays fast.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction().execute(async (trx) => {
    const coaches = demoCoaches(passwordHash, at);
    await insertCoaches(trx, coaches);
    await insertReferenceData(trx, at);
    const patients = makePatients(random, now, options.patients ?? 60);
    await insertPatients(trx, patients);
    const history: CareHistory = { links: [], comments: [], external: [], tokens: [], codes: new Set() };
    for (const [i, p] of patients.entries()) addCareHistory(history, p, i, now, random);
    await insertCareTeamLinks(trx, history.links);
    await insertComments(trx, history.comments);
    await insertExternalComments(trx, history.external);
    await insertAccessCodes(trx, history.tokens);
    // News, the patients' app data, recovery keys, lent devices, evaluation forms.
    await seedAppData(trx, { now, random, coaches, patients });
    return { now, random, coaches, patients };
  });
}
