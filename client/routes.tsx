import { lazy, Suspense, type ReactNode, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { RequireAdmin, RequireLogin } from './shell/guards.tsx';
import Login from './features/login/index.tsx';
import NotFound from './features/not-found/index.tsx';
import InternetExplorer from './features/internet-explorer/index.tsx';

// Every feature area is its own chunk, fetched the first time it is visited (SPEC section 2).
// The shell itself is lazy too, so the login screen ships without it.
const Shell = lazy(() => import('./shell/Shell.tsx'));
const Dashboard = lazy(() => import('./features/dashboard/index.tsx'));
const CreateAccess = lazy(() => import('./features/create-access/index.tsx'));
const Patient = lazy(() => import('./features/patient/index.tsx'));
const Admin = lazy(() => import('./features/admin/index.tsx'));
const Settings = lazy(() => import('./features/settings/index.tsx'));
const Information = lazy(() => import('./features/information/index.tsx'));
const Stats = lazy(() => import('./features/stats/index.tsx'));
const Export = lazy(() => import('./features/export/index.tsx'));
const NewsDashboard = lazy(() => import('./features/news-dashboard/index.tsx'));
const PrintPatient = lazy(() => import('./features/print-patient/index.tsx'));
const PrintAccessCode = lazy(() => import('./features/print-access-code/index.tsx'));
const CoachResetPassword = lazy(() => import('./features/coach-reset-password/index.tsx'));
const ResetPassword = lazy(() => import('./features/reset-password/index.tsx'));

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
const LoginPage = page(Login);
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
          <Suspense fallback={<Loading />}>
            <Shell>
              <ShellRoutes />
            </Shell>
          </Suspense>
        </RequireLogin>
      </Route>
    </Switch>
  );
}
