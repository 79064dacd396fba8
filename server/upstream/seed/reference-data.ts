import type { Db } from '../db/index.ts';
import { insertReferenceData as storeReferenceData } from '../features/reference-data/repository.ts';
import { DIAGNOSES } from './names.ts';

/* The demo instance's reference data: diagnoses, cost rates, devices, surveys and replication endpoints. */

const scale = (id: string, text: string, minLabel: string, maxLabel: string) => ({ id, text, type: 'scale', min: 1, max: 5, minLabel, maxLabel });
/** Survey definitions of the demo instance (one retired, kept for older results). */
const SURVEYS = [
  {
    id: 'survey-mood',
    title: 'Wöchentliche Befindlichkeit',
    description: 'Kurzer Check-in zu Stimmung, Schlaf und Antrieb in der letzten Woche.',
    questions: JSON.stringify([
      scale('mood', 'Wie war Ihre Stimmung in der letzten Woche?', 'sehr schlecht', 'sehr gut'),
      scale('sleep', 'Wie gut haben Sie geschlafen?', 'sehr schlecht', 'sehr gut'),
      scale('drive', 'Wie viel Antrieb hatten Sie für Ihren Alltag?', 'gar keinen', 'sehr viel'),
      { id: 'note', text: 'Möchten Sie Ihrer Coachin oder Ihrem Coach etwas mitteilen?', type: 'text' },
    ]),
    active: 1,
  },
  {
    id: 'survey-pain',
    title: 'Schmerzverlauf',
    description: 'Für Patientinnen und Patienten mit orthopädischen Diagnosen.',
    questions: JSON.stringify([
      {
        id: 'pain',
        text: 'Wie stark waren Ihre Schmerzen im Durchschnitt?',
        type: 'scale',
        min: 0,
        max: 10,
        minLabel: 'keine',
        maxLabel: 'stärkste vorstellbare',
      },
      { id: 'exercise', text: 'Wie oft haben Sie Ihre Übungen gemacht?', type: 'choice', options: ['gar nicht', '1-2 Mal', '3-4 Mal', 'täglich'] },
    ]),
    active: 1,
  },
  {
    id: 'survey-satisfaction',
    title: 'Zufriedenheit mit der Nachsorge',
    description: 'Am Ende der Nachsorge.',
    questions: JSON.stringify([
      scale('overall', 'Wie zufrieden sind Sie insgesamt mit der Nachsorge?', 'gar nicht', 'sehr'),
      { id: 'recommend', text: 'Würden Sie die Nachsorge weiterempfehlen?', type: 'choice', options: ['ja', 'eher ja', 'eher nein', 'nein'] },
      { id: 'wish', text: 'Was sollten wir verbessern?', type: 'text' },
    ]),
    active: 1,
  },
  {
    id: 'survey-old',
    title: 'Eingangsfragebogen (alt)',
    description: 'Nicht mehr im Einsatz, für ältere Ergebnisse aufbewahrt.',
    questions: JSON.stringify([scale('wellbeing', 'Wie fühlen Sie sich heute?', 'sehr schlecht', 'sehr gut')]),
    active: 0,
  },
];

export async function insertReferenceData(db: Db, at: string) {
  const stamps = { createdAt: at, updatedAt: at };
  const diagnoses = DIAGNOSES.map(([code, label]) => ({ id: `dx-${code}`, code, label }));
  const costRates = [
    { id: 'rate-irena-gruppe', name: 'IRENA Gruppensitzung', amountCents: 2450, unit: 'session', ...stamps },
    { id: 'rate-irena-einzel', name: 'IRENA Einzelgespräch', amountCents: 4800, unit: 'session', ...stamps },
    { id: 'rate-app-monat', name: 'Digitale Nachsorge (App) pro Monat', amountCents: 3900, unit: 'month', ...stamps },
    { id: 'rate-tele', name: 'Telefonnachsorge Pauschale', amountCents: 29000, unit: 'flat', ...stamps },
  ];
  const devices: Record<string, unknown>[] = [];
  const models: [string, string, string][] = [
    ['Fitbit Inspire 3', 'activity-tracker', 'FB'],
    ['Garmin vívosmart 5', 'activity-tracker', 'GV'],
    ['Samsung Galaxy Tab A9', 'tablet', 'ST'],
    ['Withings Body+', 'scale', 'WB'],
    ['Omron M500 IT', 'blood-pressure-monitor', 'OM'],
    ['Samsung Galaxy A15', 'smartphone', 'SA'],
  ];
  models.forEach(([name, type, prefix], m) => {
    for (let n = 1; n <= (m < 2 ? 4 : 2); n++)
      devices.push({
        id: `dev-${prefix.toLowerCase()}-${n}`,
        name: `${name} #${n}`,
        type,
        serialNumber: `${prefix}-${2026}${String(m * 10 + n).padStart(4, '0')}`,
        ...stamps,
      });
  });
  const surveys = SURVEYS.map((survey) => ({ ...survey, ...stamps }));
  const replicationEndpoints = [
    { id: 'repl-main', name: 'Hauptserver', protocol: 'https', host: 'sync.example.org', port: 443, path: '/replicate', ...stamps },
    { id: 'repl-local', name: 'Dieses Portal', protocol: 'https', host: null, port: null, path: '/replicate', ...stamps },
  ];
  await storeReferenceData(db, { diagnoses, costRates, devices, surveys, replicationEndpoints });
}
