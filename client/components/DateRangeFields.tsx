/**
 * From and to as two date fields that keep each other in range (to never before from); `invalid` marks both when
 * the range as a whole is refused. Used by Controlling's period and the export's filter.
 */
export function DateRangeFields({
  from,
  to,
  labels,
  invalid,
  onChange,
}: {
  from: string;
  to: string;
  labels: [from: string, to: string];
  invalid: boolean;
  onChange: (next: { from?: string; to?: string }) => void;
}) {
  return (
    <>
      <label>
        {labels[0]}
        <input type="date" value={from} max={to} onInput={(e) => onChange({ from: e.currentTarget.value })} aria-invalid={invalid ? true : undefined} />
      </label>
      <label>
        {labels[1]}
        <input type="date" value={to} min={from} onInput={(e) => onChange({ to: e.currentTarget.value })} aria-invalid={invalid ? true : undefined} />
      </label>
    </>
  );
}
