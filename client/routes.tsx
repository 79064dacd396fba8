import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { ConnectionBanner } from './components/ConnectionBanner.tsx';
import { RequireLogin } from './shell/guards.tsx';
import { LOGIN_PATH, UNSUPPORTED_BROWSER_PATH } from '../contract/pages.ts';
import { AREA_NAMES, AREAS, type AreaDefinition, type AreaName, areaOf, loadAppModule } from './areas.ts';
import { lazyArea, prefetchAreas, whenIdle } from './lib/areas.ts';
import { safeReturnUrl } from './lib/return-url.ts';
import { loadDocument } from './lib/i18n.ts';
import Login from './features/login/index.tsx';
import InternetExplorer from './features/internet-explorer/index.tsx';

/*
 * The route table: open routes, the print routes (signed in, no layout), then the signed-in layout with the areas
 * inside it and a 404 last. Every area is its own chunk (areas.ts), fetched the first time it is visited; the layout
 * comes with the app module, so the first screen carries neither.
 */

/** The page component of an area (its default export) with its documents, loaded on first render. */
function areaPage(name: AreaName): ComponentType {
  const area: AreaDefinition = AREAS[name];
  const load = () => Promise.all([area.load(), ...(area.documents ?? []).map((document) => loadDocument(document))]).then(([module]) => module);
  return lazyArea(name, load, (module) => module.default as ComponentType);
}

type AppModule = Awaited<ReturnType<typeof loadAppModule>>;
/** The admin guard comes with the app module: the permission rules stay out of the login screen's script. */
const RequireAdminLazy = lazyArea<{ children?: ReactNode }, AppModule>('app', loadAppModule, (module) => module.RequireAdmin);
/** So does the 404 page, whose texts are not in the first screen's dictionary. */
const NotFound = lazyArea<object, AppModule>('app', loadAppModule, (module) => module.NotFound);

/** The signed-in layout (drafts opened, shell) from the app module; the areas are its children. */
const SignedInLayout = lazyArea<{ children?: ReactNode }, AppModule>('app', loadAppModule, (module) => module.SignedInLayout);

/**
 * While the coach types on the login screen, the line is idle: the app module and the area they will land
 * on (returnUrl, else the dashboard) are fetched at low priority, so pressing "Anmelden" needs only the API.
 */
function PrefetchAfterLogin() {
  const search = useSearch();
  useEffect(() => whenIdle(() => prefetchAreas(['app', areaOf(safeReturnUrl(new URLSearchParams(search).get('returnUrl')))])), [search]);
  return null;
}

/** An error boundary and a loading state around every page; a shown error clears on navigation. */
export function Page({ children }: { children?: ReactNode }) {
  const [path] = useLocation();
  return (
    <ErrorBoundary resetKey={path}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

// Built once at module level: a new component per render would remount the page and lose what was typed.
const PAGES = new Map<AreaName, ComponentType>(
  AREA_NAMES.map((name) => {
    const Area = areaPage(name);
    const area: AreaDefinition = AREAS[name];
    const page = () => (
      <Page>
        {area.admin ? (
          <RequireAdminLazy>
            <Area />
          </RequireAdminLazy>
        ) : (
          <Area />
        )}
      </Page>
    );
    return [name, area.place === 'print' ? () => <RequireLogin>{page()}</RequireLogin> : page];
  }),
);

const LoginPage = () => (
  <>
    <Page>
      <Login />
    </Page>
    <PrefetchAfterLogin />
  </>
);
const InternetExplorerPage = () => (
  <Page>
    <InternetExplorer />
  </Page>
);
const NotFoundPage = () => (
  <Page>
    <NotFound />
  </Page>
);

/** An area's route: its path and everything below it, which the area reads with useAreaPath(). */
const areaRoutes = (place: AreaDefinition['place']) =>
  AREA_NAMES.filter((name) => AREAS[name].place === place).map((name) => <Route key={name} path={`${AREAS[name].path}/*?`} component={PAGES.get(name)} />);

/** The areas inside the signed-in layout, the empty path leading to the dashboard and a 404 last. */
function SignedIn() {
  return (
    <RequireLogin>
      <Page>
        <SignedInLayout>
          <Switch>
            <Route path="/">
              <Redirect to="/dashboard" replace />
            </Route>
            {areaRoutes('shell')}
            <Route component={NotFoundPage} />
          </Switch>
        </SignedInLayout>
      </Page>
    </RequireLogin>
  );
}

export function AppRoutes() {
  return (
    <>
      <ConnectionBanner />
      <Switch>
        <Route path={LOGIN_PATH} component={LoginPage} />
        <Route path={UNSUPPORTED_BROWSER_PATH} component={InternetExplorerPage} />
        {areaRoutes('open')}
        {areaRoutes('print')}
        <Route component={SignedIn} />
      </Switch>
    </>
  );
}
