import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { SignIn } from '../pages/auth/SignIn';
import { RedirectIfSignedIn, RequireSession } from './guards';
import { Loading } from '../components/Status';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

/** Each page is its own chunk: the sign-in screen loads only the shell, the router and the auth client. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy' | 'hydrateFallbackElement'> => ({
  lazy: async () => ({ Component: (await load()).default }),
  hydrateFallbackElement: (
    <div className="centered">
      <Loading />
    </div>
  ),
});

export const router = createBrowserRouter([
  {
    path: '/sign-in',
    element: (
      <RedirectIfSignedIn>
        <SignIn />
      </RedirectIfSignedIn>
    ),
    errorElement: <RouteError />,
  },
  { path: '/sign-up', ...page(() => import('../pages/auth/SignUp')), errorElement: <RouteError /> },
  { path: '/accept-invite', ...page(() => import('../pages/auth/AcceptInvite')), errorElement: <RouteError /> },
  {
    path: '/consent',
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    children: [{ index: true, ...page(() => import('../pages/oauth/Consent')) }],
  },
  {
    path: '/',
    element: (
      <RequireSession>
        <Shell />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    hydrateFallbackElement: (
      <div className="centered">
        <Loading />
      </div>
    ),
    children: [
      { index: true, ...page(() => import('../pages/overview/Overview')) },
      { path: 'players', ...page(() => import('../pages/players/Players')) },
      { path: 'players/:externalId', ...page(() => import('../pages/players/PlayerDetail')) },
      { path: 'workflows', ...page(() => import('../pages/workflows/Workflows')) },
      { path: 'workflows/new', ...page(() => import('../pages/workflows/EditorPage')) },
      { path: 'workflows/:id', ...page(() => import('../pages/workflows/EditorPage')) },
      { path: 'runs', ...page(() => import('../pages/runs/RunsExplorer')) },
      { path: 'runs/:runId', ...page(() => import('../pages/runs/RunPage')) },
      { path: 'connections', ...page(() => import('../pages/connections/Connections')) },
      { path: 'keys', ...page(() => import('../pages/keys/ApiKeys')) },
      { path: 'team', ...page(() => import('../pages/team/Team')) },
      { path: 'jobs', ...page(() => import('../pages/jobs/BatchJobs')) },
      { path: 'usage', ...page(() => import('../pages/usage/Usage')) },
      { path: 'settings', ...page(() => import('../pages/settings/Settings')) },
      { path: 'compliance', ...page(() => import('../pages/compliance/Compliance')) },
      { path: 'audit', ...page(() => import('../pages/audit/AuditLog')) },
      { path: '*', ...page(() => import('../pages/NotFound')) },
    ],
  },
]);
