import type { Browser } from 'playwright-core';

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hans', 'Ida', 'Jonas', 'Karla', 'Lukas'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann'];

/**
 * Seeds `count` patients through the upstream's own /v2 API (direct, as the administrator), 16 at a time,
 * so the data is exactly what the product would store.
 */
export async function seedPatients(upstreamUrl: string, token: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const body = {
        firstName: FIRST[n % FIRST.length],
        lastName: `${LAST[n % LAST.length]}-${n}`,
        birthDate: `19${50 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}`,
        gender: (['female', 'male', 'diverse', 'unknown'] as const)[n % 4],
        clinic: `Reha-Klinik ${1 + (n % 7)}`,
        aftercareStart: '2026-01-05',
        aftercareEnd: '2026-12-18',
      };
      const response = await fetch(`${upstreamUrl}/v2/patients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`seeding patient ${n} answered ${response.status}: ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

export interface PatientListBench {
  renderMs: number;
  renderNote: string;
  filterMs: number;
  filterNote: string;
}

export async function benchPatientList(_browser: Browser, _origin: string, _token: string): Promise<PatientListBench> {
  throw new Error('the patient list screen is not there yet');
}
