import { beforeEach, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/preact';
import * as api from '../../client/api/coaches.ts';
import * as patientsApi from '../../client/api/patients.ts';
import { mockFetch } from './client-fetch.ts';
import { signedInCoach } from './client-drafts.ts';
import { ANNA_BERG, buildCoach, buildPatient, ok } from './screen-records.ts';

/*
 * The coaches tab of the admin screen (client/features/admin/coaches-*.test.tsx): three coaches answered by the
 * mocked API, Anna Berg signed in as an administrator (with a live session, so the form keeps drafts), and the fields of its form dialogs. The test file mocks
 * both API modules itself (vi.mock is hoisted only there): vi.mock('…/api/coaches.ts') and
 * vi.mock('…/api/patients.ts', () => ({ listPatients: vi.fn() })).
 */

export const anna = buildCoach({ id: 'coach-1', firstName: 'Anna', lastName: 'Berg', isAdmin: true });
export const ben = buildCoach({ id: 'coach-2', firstName: 'Ben', lastName: 'Roth', email: 'ben.roth@example.org', emailVerified: false });
export const carla = buildCoach({ id: 'coach-3', firstName: 'Carla', lastName: 'Sommer', email: 'carla@example.org', isUserLocked: true });

/** Registers the beforeEach: fresh mocks that list and find the three coaches, and Anna signed in. */
export function coachesAnswered(): void {
  beforeEach(() => {
    for (const fn of Object.values(api)) vi.mocked(fn as () => unknown).mockReset();
    vi.mocked(api.listCoaches).mockImplementation(() => ok([anna, ben, carla], 3));
    vi.mocked(api.getCoach).mockImplementation((id) => ok([anna, ben, carla].find((c) => c.id === id)!));
    vi.mocked(api.listCoachPatients).mockImplementation(() => ok([buildPatient()]));
    vi.mocked(api.resetCoachPassword).mockImplementation(() => ok(undefined));
    vi.mocked(api.sendVerificationEmail).mockImplementation(() => ok(undefined));
    vi.mocked(patientsApi.listPatients).mockReset();
    // The API modules are mocked; fetch only hands out the draft key of Anna's session.
    mockFetch({});
    signedInCoach('coach-1', { ...ANNA_BERG, isAdmin: true });
  });
}

export const dialog = () => screen.getByRole('dialog');
export const field = (scope: HTMLElement, label: string) => within(scope).getByLabelText(new RegExp(`^${label}( \\*)?$`)) as HTMLInputElement;
export const type = (scope: HTMLElement, label: string, value: string) => fireEvent.input(field(scope, label), { target: { value } });
