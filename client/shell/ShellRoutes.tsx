import { Redirect, Route, Switch } from 'wouter';
import { DraftsOpened } from './DraftsOpened.tsx';
import { Page, area$, page } from '../routes.tsx';
import NotFound from '../features/not-found/index.tsx';
import { RequireAdmin } from './RequireAdmin.tsx';
import Shell from './Shell.tsx';

/** A feature path and everything below it (/patient, /patient/42): features own their child routes. */
const area = (name: string) => new RegExp(`^/${name}(?:/.*)?$`);

// Built once at module level: a new component per render would remount the page and lose what was typed.
const DashboardPage = page(area$('dashboard'));
const CreateAccessPage = page(area$('create-access'));
const PatientPage = page(area$('patient'));
const Admin = area$('admin');
const SettingsPage = page(area$('settings'));
const InformationPage = page(area$('information'));
const StatsPage = page(area$('stats'));
const ExportPage = page(area$('export'));
const NewsDashboardPage = page(area$('news-dashboard'));
const NotFoundPage = page(NotFound);

/**
 * Routes inside the shell (docs/product.md#screens, the rest of the table in routes.tsx); stats and export need no extra
 * guard. Part of the app module, so the first screen does not carry them.
 */
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

/** The layout shell with the shell's routes in it: what the route table shows for every signed-in path. */
export function ShellWithRoutes() {
  return (
    <DraftsOpened>
      <Shell>
        <ShellRoutes />
      </Shell>
    </DraftsOpened>
  );
}
