/**
 * The product's page addresses (docs/product.md#screens), for the client's route table and for the gateway, which
 * answers these with the page and status 200 and any other path with the page and 404 (the not-found screen).
 * Each area's path covers what lies below it (/patient/42).
 */
export const AREA_PATHS = {
  dashboard: '/dashboard',
  'create-access': '/create-access',
  patient: '/patient',
  admin: '/admin',
  settings: '/settings',
  information: '/information',
  stats: '/stats',
  export: '/export',
  'news-dashboard': '/news-dashboard',
  'print-patient': '/print/patient',
  'print-access-code': '/print/access-code',
  'coach-reset-password': '/coach-reset-password',
  // A prefix, as docs/product.md writes it (/reset-password...): the emailed link lands here whatever follows.
  'reset-password': '/reset-password',
} as const;

export type AreaName = keyof typeof AREA_PATHS;

export const LOGIN_PATH = '/login';
/** Where the gateway sends Internet Explorer and the old Edge (a static page, no script). */
export const UNSUPPORTED_BROWSER_PATH = '/internet-explorer-msg';

const literal = (path: string) => path.replace(/[/.-]/g, '\\$&');
const BELOW: string[] = [
  LOGIN_PATH,
  ...Object.entries(AREA_PATHS)
    .filter(([name]) => name !== 'reset-password')
    .map(([, path]) => path),
];
const PAGE_PATTERN = new RegExp(`^(?:/|(?:${BELOW.map(literal).join('|')})(?:/.*)?|${literal(AREA_PATHS['reset-password'])}.*)$`);

/** True for the root, the login screen and every area's path with whatever lies below it. */
export const isPagePath = (path: string) => PAGE_PATTERN.test(path);
