import type { Request } from 'express';

/** A path parameter as one string (Express 5 types wildcard parameters as string[]). */
export function param(req: Request, name: string): string {
  const value = (req.params as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join('/') : (value ?? '');
}
