/** The arrow beside a sortable column's name: ▲ ascending, ▼ descending, ↕ when the list is sorted by another column. */
export function SortMark({ direction }: { direction: 'asc' | 'desc' | null }) {
  return (
    <span aria-hidden="true" className="sort-mark">
      {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
    </span>
  );
}
