import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { auth } from '../auth/client';
import { canManage, useMember } from '../auth/session';
import { markInteractive } from '../perf';

/** `managers`: shown to the Owner and Admins only (the server refuses Members anyway). */
const NAV: Array<{ to: string; label: string; managers?: boolean }> = [
  { to: '/', label: 'Overview' },
  { to: '/players', label: 'Players' },
  { to: '/audiences', label: 'Audiences' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/runs', label: 'Runs' },
  { to: '/connections', label: 'Connections' },
  { to: '/keys', label: 'API keys' },
  { to: '/team', label: 'Team' },
  { to: '/jobs', label: 'Batch jobs' },
  { to: '/usage', label: 'Usage' },
  { to: '/compliance', label: 'Responsible gambling' },
  { to: '/settings', label: 'Settings' },
  { to: '/audit', label: 'Audit log', managers: true },
];

const ROLE_LABEL = { owner: 'Owner', admin: 'Admin', member: 'Member' } as const;

/** The frame of every signed-in page: skip link, organisation, navigation, the member and sign-out. */
export function Shell() {
  const member = useMember();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // A client-side navigation moves focus to the new page, as a page load would.
  const first = useRef(true);
  useEffect(() => markInteractive('dashboard'), []);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [location.pathname]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Operator Platform</span>
        <span className="org" title="Organisation">
          {member.operatorName}
        </span>
        <span className="who">
          {member.email} <span className={`role role-${member.role}`}>{ROLE_LABEL[member.role]}</span>
        </span>
        <button type="button" className="button button-small" onClick={() => void auth.signOut({ scope: 'local' })}>
          Sign out
        </button>
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          {NAV.filter((item) => !item.managers || canManage(member)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === '/'}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1} className="content">
        <Outlet />
      </main>
    </div>
  );
}
