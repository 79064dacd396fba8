import { type CoachLike, coachListName } from '../lib/names.ts';

/** The options of a coach picker, one per coach, named as the lists name them (the "none"/"all" option is the caller's). */
export function CoachOptions({ coaches }: { coaches: readonly (CoachLike & { id: string })[] }) {
  return (
    <>
      {coaches.map((c) => (
        <option key={c.id} value={c.id}>
          {coachListName(c)}
        </option>
      ))}
    </>
  );
}
