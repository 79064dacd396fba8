// Demo vocabulary for a German aftercare instance.
export const FEMALE_NAMES = ['Anna', 'Monika', 'Sabine', 'Petra', 'Claudia', 'Andrea', 'Susanne', 'Birgit', 'Katrin', 'Stefanie', 'Julia', 'Nicole', 'Heike', 'Martina', 'Ute', 'Gabriele', 'Melanie', 'Sandra', 'Karin', 'Renate', 'Jana', 'Lea', 'Miriam', 'Ayşe', 'Elif'];
export const MALE_NAMES = ['Thomas', 'Michael', 'Andreas', 'Stefan', 'Frank', 'Jürgen', 'Uwe', 'Klaus', 'Markus', 'Peter', 'Christian', 'Matthias', 'Wolfgang', 'Dirk', 'Jens', 'Sven', 'Tobias', 'Florian', 'Rainer', 'Bernd', 'Lukas', 'Jonas', 'Mehmet', 'Dariusz', 'Sergej'];
export const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger', 'Hofmann', 'Hartmann', 'Lange', 'Schmitt', 'Werner', 'Schmitz', 'Krause', 'Meier', 'Lehmann', 'Schmid', 'Schulze', 'Maier', 'Köhler', 'Herrmann', 'König', 'Walter', 'Mayer', 'Huber', 'Kaiser', 'Fuchs', 'Peters', 'Lang', 'Scholz', 'Möller', 'Weiß', 'Jung', 'Hahn', 'Vogel', 'Yılmaz', 'Kowalski', 'Öztürk', 'Friedrich', 'Keller', 'Günther', 'Frank', 'Berger', 'Winkler', 'Roth'];
export const CLINICS = [
  'Reha-Zentrum Bad Kissingen', 'MEDIAN Klinik Berggießhübel', 'MEDIAN Klinik Wilhelmsheim', 'Klinik am Homberg Bad Wildungen',
  'Rehaklinik Bad Salzuflen', 'Fachklinik Eußerthal', 'Reha-Klinik Damp', 'Salus Klinik Lindow',
];
export const CITIES_PHONE = ['030', '040', '089', '0221', '069', '0711', '0351', '0341'];

/** ICD-10-GM diagnoses typical of rehabilitation. */
export const DIAGNOSES: [string, string][] = [
  ['F32.1', 'Mittelgradige depressive Episode'],
  ['F33.1', 'Rezidivierende depressive Störung, gegenwärtig mittelgradige Episode'],
  ['F10.2', 'Psychische und Verhaltensstörungen durch Alkohol: Abhängigkeitssyndrom'],
  ['F41.1', 'Generalisierte Angststörung'],
  ['F43.2', 'Anpassungsstörungen'],
  ['F45.41', 'Chronische Schmerzstörung mit somatischen und psychischen Faktoren'],
  ['M54.5', 'Kreuzschmerz'],
  ['M51.2', 'Sonstige näher bezeichnete Bandscheibenverlagerung'],
  ['M17.1', 'Sonstige primäre Gonarthrose'],
  ['I25.1', 'Atherosklerotische Herzkrankheit'],
  ['I10', 'Essentielle (primäre) Hypertonie'],
  ['G35', 'Multiple Sklerose (Encephalomyelitis disseminata)'],
  ['E11.9', 'Diabetes mellitus, Typ 2, ohne Komplikationen'],
  ['C50.9', 'Bösartige Neubildung: Brustdrüse, nicht näher bezeichnet'],
  ['J44.1', 'Chronische obstruktive Lungenkrankheit mit akuter Exazerbation, nicht näher bezeichnet'],
];

export const COMMENTS = [
  'Erstgespräch telefonisch geführt, Ziele für die Nachsorge besprochen.',
  'Patientin berichtet von besserem Schlaf seit der Entlassung.',
  'Rückruf vereinbart, Patient war nicht erreichbar.',
  'Wiedereinstieg in die Arbeit stufenweise geplant (Hamburger Modell).',
  'Bewegungsziele angepasst: 3x pro Woche 30 Minuten Spaziergang.',
  'Stimmung schwankend, Hinweis auf ambulante Psychotherapie gegeben.',
  'App-Nutzung regelmäßig, Tagesbewertungen vollständig.',
  'Rückfallprophylaxe besprochen, Selbsthilfegruppe vor Ort empfohlen.',
  'Schmerzen im unteren Rücken leicht rückläufig.',
  'Blutdruckwerte stabil, Medikation unverändert.',
  'Termin beim Hausarzt zur Laborkontrolle vereinbart.',
  'Abschlussgespräch geführt, Ziele überwiegend erreicht.',
];

export const EXTERNAL_COMMENTS: { source: 'clinic' | 'patient-app' | 'therapist' | 'other'; author: string; text: string }[] = [
  { source: 'clinic', author: 'Dr. med. A. Krüger (Reha-Klinik)', text: 'Entlassbrief: stabile Stimmung, Nachsorge über die App empfohlen.' },
  { source: 'clinic', author: 'Sozialdienst der Reha-Klinik', text: 'Stufenweise Wiedereingliederung ist beantragt.' },
  { source: 'patient-app', author: 'Patient (App)', text: 'Die Übungen am Morgen tun mir gut.' },
  { source: 'patient-app', author: 'Patientin (App)', text: 'Diese Woche war anstrengend, ich schlafe schlecht.' },
  { source: 'therapist', author: 'Dipl.-Psych. M. Vogel', text: 'Ambulante Psychotherapie hat begonnen, 25 Sitzungen bewilligt.' },
  { source: 'other', author: 'Hausarztpraxis Dr. Lehmann', text: 'Laborwerte unauffällig.' },
];
