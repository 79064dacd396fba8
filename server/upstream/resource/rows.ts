/** The two timestamp fields every versioned resource has, as field kinds for a ResourceDefinition. */
export const stamps = { createdAt: 'date', updatedAt: 'date' } as const;

/** Copies input as stored columns; JSON-encodes the listed array fields. */
export const plain =
  (jsonFields: string[] = []) =>
  (input: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(input).map(([k, value]) => [k, jsonFields.includes(k) ? JSON.stringify(value) : value]));
