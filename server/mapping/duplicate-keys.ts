/**
 * The first key that occurs twice in one object of a JSON text, as a dotted path (`entities.Patient.fields.birthDate`),
 * or null. JSON.parse keeps the last of two equal keys without a word, so a field mapped twice would silently lose
 * one of its mappings. Expects text that JSON.parse accepted.
 */
export function firstDuplicateKey(text: string): string | null {
  // One frame per open object or array: the keys seen so far, and the key (or index) the next value sits under.
  const stack: { keys: Set<string> | null; at: string }[] = [];
  const path = () =>
    stack
      .map((frame) => frame.at)
      .filter(Boolean)
      .join('.');
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const after = text.slice(end + 1).trimStart();
      const frame = stack.at(-1);
      if (after.startsWith(':') && frame?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        frame.at = key;
        if (frame.keys.has(key)) return path();
        frame.keys.add(key);
      }
      i = end + 1;
      continue;
    }
    if (char === '{') stack.push({ keys: new Set(), at: '' });
    else if (char === '[') stack.push({ keys: null, at: '0' });
    else if (char === '}' || char === ']') stack.pop();
    else if (char === ',' && stack.at(-1)?.keys === null) {
      const frame = stack.at(-1)!;
      frame.at = String(Number(frame.at) + 1);
    }
    i++;
  }
  return null;
}

/** Index of the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i;
}
