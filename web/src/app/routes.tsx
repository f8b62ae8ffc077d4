import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { SignIn } from '../features/auth/components/SignIn';
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
  { path: '/sign-up', ...page(() => import('../features/auth/components/SignUp')), errorElement: <RouteError /> },
  { path: '/accept-invite', ...page(() => import('../features/auth/components/AcceptInvite')), errorElement: <RouteError /> },
  {
    path: '/consent',
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    children: [{ index: true, ...page(() => import('../features/auth/components/Consent')) }],
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
      { index: true, ...page(() => import('../features/overview/components/Overview')) },
      { path: 'players', ...page(() => import('../features/players/components/Players')) },
      { path: 'players/:externalId', ...page(() => import('../features/players/components/PlayerDetail')) },
      { path: 'audiences', ...page(() => import('../features/audiences/components/Audiences')) },
      { path: 'audiences/new', ...page(() => import('../features/audiences/components/AudienceEditor')) },
      { path: 'audiences/:id', ...page(() => import('../features/audiences/components/AudiencePage')) },
      { path: 'audiences/:id/edit', ...page(() => import('../features/audiences/components/AudienceEditor')) },
      { path: 'workflows', ...page(() => import('../features/automations/list/components/AutomationList')) },
      { path: 'workflows/new', ...page(() => import('../features/automations/editor/components/EditorPage')) },
      { path: 'workflows/:id', ...page(() => import('../features/automations/editor/components/EditorPage')) },
      { path: 'runs', ...page(() => import('../features/automations/runs/components/RunsExplorer')) },
      { path: 'runs/:runId', ...page(() => import('../features/automations/runs/components/RunPage')) },
      { path: 'connections', ...page(() => import('../features/connections/components/Connections')) },
      { path: 'keys', ...page(() => import('../features/keys/components/ApiKeys')) },
      { path: 'team', ...page(() => import('../features/team/components/Team')) },
      { path: 'jobs', ...page(() => import('../features/jobs/components/BatchJobs')) },
      { path: 'usage', ...page(() => import('../features/usage/components/Usage')) },
      { path: 'settings', ...page(() => import('../features/settings/components/Settings')) },
      { path: 'compliance', ...page(() => import('../features/compliance/components/Compliance')) },
      { path: 'audit', ...page(() => import('../features/audit/components/AuditLog')) },
      { path: '*', ...page(() => import('./NotFound')) },
    ],
  },
]);
