/**
 * True on a touch screen without a mouse (the main pointer is coarse, or nothing can hover): there keyboard tips such
 * as "press /" are noise, and nobody has the key at hand.
 */
export function isTouchFirst(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse), (hover: none)').matches;
}
