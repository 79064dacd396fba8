import { Suspense, useEffect, type ReactNode, type ComponentType } from 'react';
import { Route, Switch, useLocation, useSearch } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { ConnectionBanner } from './components/ConnectionBanner.tsx';
import { RequireLogin } from './shell/guards.tsx';
import { lazyArea, prefetchAreas, whenIdle } from './lib/areas.ts';
import { safeReturnUrl } from './lib/return-url.ts';
import { loadDocument } from './lib/i18n.ts';
import Login from './features/login/index.tsx';
import InternetExplorer from './features/internet-explorer/index.tsx';

// Every feature area is its own chunk, fetched the first time it is visited (docs/product.md#screens); the shell and
// the API layer are the app module, which every area runs on. The build names each area after its key here
// (areaName() in scripts/build-graph.ts: features/<key>/index.tsx), which routes.test.tsx checks.
export const AREAS = {
  app: () => import('./app.ts'),
  dashboard: () => import('./features/dashboard/index.tsx'),
  // The label field's texts are a document: the first screen's dictionary has no bytes to spare.
  'create-access': () => import('./features/create-access/index.tsx'),
  patient: () => import('./features/patient/index.tsx'),
  admin: () => import('./features/admin/index.tsx'),
  settings: () => import('./features/settings/index.tsx'),
  // The coach guide and help answers are a document of their own (lib/i18n.ts), fetched beside the code.
  information: () => Promise.all([import('./features/information/index.tsx'), loadDocument('help')]).then(([module]) => module),
  stats: () => import('./features/stats/index.tsx'),
  export: () => import('./features/export/index.tsx'),
  'news-dashboard': () => import('./features/news-dashboard/index.tsx'),
  // Printed pages: their texts are a document too (the patient's handout, the record's headings).
  'print-patient': () => Promise.all([import('./features/print-patient/index.tsx'), loadDocument('print')]).then(([module]) => module),
  'print-access-code': () => Promise.all([import('./features/print-access-code/index.tsx'), loadDocument('print')]).then(([module]) => module),
  'coach-reset-password': () => import('./features/coach-reset-password/index.tsx'),
  'reset-password': () => import('./features/reset-password/index.tsx'),
};
type AreaName = keyof typeof AREAS;
/** The page component of an area (its default export), loaded on first render. */
export const area$ = <N extends Exclude<AreaName, 'app'>>(name: N) => lazyArea(name, AREAS[name], (module) => (module as { default: ComponentType }).default);

// The shell with the routes inside it (shell/ShellRoutes.tsx) comes with the app module.
const ShellWithRoutes = lazyArea('app', AREAS.app, (module) => module.ShellWithRoutes);
const PrintPatient = area$('print-patient');
const PrintAccessCode = area$('print-access-code');
const CoachResetPassword = area$('coach-reset-password');
const ResetPassword = area$('reset-password');

/** The area a path belongs to (the first segment), or the dashboard for anything else. */
export function areaOf(path: string): AreaName {
  const first = path.split(/[/?#]/)[1] ?? '';
  const print = /^\/print\/(patient|access-code)/.exec(path);
  if (print) return `print-${print[1]}` as AreaName;
  return first in AREAS && first !== 'app' ? (first as AreaName) : 'dashboard';
}

/**
 * While the coach types on the login screen, the line is idle: the app module and the area they will land
 * on (returnUrl, else the dashboard) are fetched at low priority, so pressing "Anmelden" needs only the API.
 */
function PrefetchAfterLogin() {
  const search = useSearch();
  useEffect(() => whenIdle(() => prefetchAreas(['app', areaOf(safeReturnUrl(new URLSearchParams(search).get('returnUrl')))])), [search]);
  return null;
}

/** reset-password is matched by prefix: whatever follows in the emailed link still lands here. */
const RESET_PASSWORD = /^\/reset-password(?:[/?#].*)?$/;

/** An error boundary and a loading state around every page; a shown error clears on navigation. */
export function Page({ children }: { children?: ReactNode }) {
  const [path] = useLocation();
  return (
    <ErrorBoundary resetKey={path}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

export function page(Component: ComponentType) {
  return () => (
    <Page>
      <Component />
    </Page>
  );
}

// Built once at module level: a new component per render would remount the page and lose what was typed.
const LoginPage = () => (
  <>
    <Page>
      <Login />
    </Page>
    <PrefetchAfterLogin />
  </>
);
const CoachResetPasswordPage = page(CoachResetPassword);
const ResetPasswordPage = page(ResetPassword);
const InternetExplorerPage = page(InternetExplorer);

/**
 * The route table. Open routes first, then the print routes, then the guarded shell, whose own table
 * (shell/ShellRoutes.tsx: the areas inside the shell, a 404 last) comes with the app module.
 */
export function AppRoutes() {
  return (
    <>
      <ConnectionBanner />
      <Switch>
        <Route path="/login" component={LoginPage} />
        <Route path="/coach-reset-password" component={CoachResetPasswordPage} />
        <Route path={RESET_PASSWORD} component={ResetPasswordPage} />
        <Route path="/internet-explorer-msg" component={InternetExplorerPage} />
        <Route path="/print/patient">
          <RequireLogin>
            <Page>
              <PrintPatient />
            </Page>
          </RequireLogin>
        </Route>
        <Route path="/print/access-code">
          <RequireLogin>
            <Page>
              <PrintAccessCode />
            </Page>
          </RequireLogin>
        </Route>
        <Route>
          <RequireLogin>
            <Page>
              <ShellWithRoutes />
            </Page>
          </RequireLogin>
        </Route>
      </Switch>
    </>
  );
}
