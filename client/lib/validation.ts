/** Light email check for forms (the server validates for real); kept tiny so screens need no schema library. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/** docs/product.md#constants. */
export const MIN_PASSWORD_LENGTH = 8;
