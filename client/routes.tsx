import { Suspense, useEffect, type ReactNode, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { ConnectionBanner } from './components/ConnectionBanner.tsx';
import { RequireAdmin, RequireLogin } from './shell/guards.tsx';
import { lazyArea, prefetchAreas, whenIdle } from './lib/areas.ts';
import { safeReturnUrl } from './lib/return-url.ts';
import Login from './features/login/index.tsx';
import InternetExplorer from './features/internet-explorer/index.tsx';

// Every feature area is its own chunk, fetched the first time it is visited (SPEC section 2); the shell and
// the API layer are the app module, which every area runs on. The build names each area after its key here
// (areaName() in scripts/build-graph.ts: features/<key>/index.tsx), which routes.test.tsx checks.
export const AREAS = {
  app: () => import('./app.ts'),
  dashboard: () => import('./features/dashboard/index.tsx'),
  'create-access': () => import('./features/create-access/index.tsx'),
  patient: () => import('./features/patient/index.tsx'),
  admin: () => import('./features/admin/index.tsx'),
  settings: () => import('./features/settings/index.tsx'),
  information: () => import('./features/information/index.tsx'),
  stats: () => import('./features/stats/index.tsx'),
  export: () => import('./features/export/index.tsx'),
  'news-dashboard': () => import('./features/news-dashboard/index.tsx'),
  'print-patient': () => import('./features/print-patient/index.tsx'),
  'print-access-code': () => import('./features/print-access-code/index.tsx'),
  'coach-reset-password': () => import('./features/coach-reset-password/index.tsx'),
  'reset-password': () => import('./features/reset-password/index.tsx'),
};
type AreaName = keyof typeof AREAS;
const area$ = <N extends Exclude<AreaName, 'app'>>(name: N) => lazyArea(name, AREAS[name], (module) => (module as { default: ComponentType }).default);

const Shell = lazyArea('app', AREAS.app, (module) => module.Shell);
// Shown inside the shell only, so it comes with the app module.
const NotFound = lazyArea('app', AREAS.app, (module) => module.NotFound);
const Dashboard = area$('dashboard');
const CreateAccess = area$('create-access');
const Patient = area$('patient');
const Admin = area$('admin');
const Settings = area$('settings');
const Information = area$('information');
const Stats = area$('stats');
const Export = area$('export');
const NewsDashboard = area$('news-dashboard');
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

/** A feature path and everything below it (/patient, /patient/42): features own their child routes. */
const area = (name: string) => new RegExp(`^/${name}(?:/.*)?$`);
/** reset-password is matched by prefix: whatever follows in the emailed link still lands here. */
const RESET_PASSWORD = /^\/reset-password(?:[/?#].*)?$/;

/** An error boundary and a loading state around every page; a shown error clears on navigation. */
function Page({ children }: { children?: ReactNode }) {
  const [path] = useLocation();
  return (
    <ErrorBoundary resetKey={path}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

function page(Component: ComponentType) {
  return () => (
    <Page>
      <Component />
    </Page>
  );
}

// Built once at module level: a new component per render would remount the page and lose what was typed.
const DashboardPage = page(Dashboard);
const CreateAccessPage = page(CreateAccess);
const PatientPage = page(Patient);
const SettingsPage = page(Settings);
const InformationPage = page(Information);
const StatsPage = page(Stats);
const ExportPage = page(Export);
const NewsDashboardPage = page(NewsDashboard);
const NotFoundPage = page(NotFound);
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

/** Routes inside the shell (SPEC section 2); stats and export need no extra guard. */
export function ShellRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/dashboard" replace />
      </Route>
      <Route path={area('dashboard')} component={DashboardPage} />
      <Route path={area('create-access')} component={CreateAccessPage} />
      <Route path={area('patient')} component={PatientPage} />
      <Route path={area('admin')}>
        <RequireAdmin>
          <Page>
            <Admin />
          </Page>
        </RequireAdmin>
      </Route>
      <Route path={area('settings')} component={SettingsPage} />
      <Route path={area('information')} component={InformationPage} />
      <Route path={area('stats')} component={StatsPage} />
      <Route path={area('export')} component={ExportPage} />
      <Route path={area('news-dashboard')} component={NewsDashboardPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/** The route table. Open routes first, then the print routes, then the guarded shell with a 404 last. */
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
              <Shell>
                <ShellRoutes />
              </Shell>
            </Page>
          </RequireLogin>
        </Route>
      </Switch>
    </>
  );
}
