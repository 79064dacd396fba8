/** Light email check for forms (the server validates for real); kept tiny so screens need no schema library. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}
