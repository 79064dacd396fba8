/** Edit distance (insert, delete, replace one character), case-insensitive: for "did you mean" and likely renames. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[y.length];
}

/** The candidate nearest to `name` when it is near enough to be a slip (about a third of its letters), else undefined. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** " (did you mean X?)" or nothing. */
export const didYouMean = (name: string, candidates: Iterable<string>): string => {
  const near = closest(name, candidates);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
};
