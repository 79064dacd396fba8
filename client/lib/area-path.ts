import { useParams } from 'wouter';

/**
 * What an area shows below its own path (/patient/42 -> "42", /admin/coaches/7 -> "coaches/7"), handed down by the
 * route table's one match (routes.tsx): an area never repeats its own path.
 */
export function useAreaPath(): string {
  return useParams()['*'] ?? '';
}
