import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useCanManage } from '../../../auth/session';
import { EmptyState, LoadStatus, PageHeader } from '../../../components/Status';
import { Pager } from '../../../components/Pager';
import { AuditFiltersForm, type ActorOption } from './AuditFiltersForm';
import { AuditTable, type AuditEvent } from './AuditTable';
import { ExportButtons } from './ExportButtons';
import { filtersOf, PAGE_SIZE, pageQuery, searchOf, type AuditFilters, type FilterKey } from './filters';
import './audit.css';
import { useApiKeys } from '../../keys/api/keys';
import { useMembers } from '../../team/api/team';
import { useAuditEvents } from '../api/audit';

/** Every action the trail records, for the action filter: keyed by the API's own type, so the compiler asks for a new one. */
const ACTIONS = Object.keys({
  'automation.created': true,
  'automation.updated': true,
  'automation.rolled_back': true,
  'automation.deleted': true,
  'api_key.created': true,
  'api_key.renamed': true,
  'api_key.mcp_updated': true,
  'api_key.revoked': true,
  'api_key.deleted': true,
  'connection.created': true,
  'connection.updated': true,
  'connector.created': true,
  'connector.deleted': true,
  'member.updated': true,
  'member.suspended': true,
  'invite.created': true,
  'invite.resent': true,
  'invite.revoked': true,
  'invite.accepted': true,
  'settings.updated': true,
  'mcp_grant.created': true,
  'mcp_grant.refresh_reused': true,
  'mcp_grant.revoked': true,
  'player.compliance_updated': true,
  'player.consent_updated': true,
  'automation.test_run_started': true,
  'automation.replay_started': true,
  'automation.replay_cancelled': true,
  'run.rerun_started': true,
  'evidence.exported': true,
} satisfies Record<AuditEvent['action'], true>) as Array<AuditEvent['action']>;

/** The members and keys of the organisation, by the actor string the API filters on (`member:<id>`, `key:<id>`). */
function useActors(): { options: ActorOption[]; nameOf: (event: AuditEvent) => string } {
  const members = useMembers();
  const keys = useApiKeys();
  const options: ActorOption[] = [
    ...(members.data?.data.members ?? []).map((member) => ({ value: `member:${member.id}`, label: member.displayName || member.email })),
    ...(keys.data?.data ?? []).map((key) => ({ value: `key:${key.id}`, label: `Key “${key.label || key.id.slice(0, 8)}”` })),
  ];
  const names = new Map(options.map((option) => [option.value, option.label]));
  const nameOf = (event: AuditEvent) => names.get(`${event.actor.kind === 'member' ? 'member' : 'key'}:${event.actor.id}`) ?? event.actor.id;
  return { options, nameOf };
}

/**
 * The audit log (`GET /platform-api/operators/me/audit-events`, Owners and Admins): who changed which workflow, key,
 * connection, connector, member, invite or setting, and when — filtered (kept in the URL), paged, and downloadable as
 * CSV or JSON with the same filters. Values are never shown because the API never stores them: only hashes.
 */
export default function AuditLog() {
  const manage = useCanManage();
  const [search, setSearch] = useSearchParams();
  const filters = filtersOf(search);
  const key = searchOf(filters).toString();
  const events = useAuditEvents(pageQuery(filtersOf(new URLSearchParams(key))), manage);
  const actors = useActors();
  const change = useCallback(
    (changes: Partial<Record<FilterKey, string>>) =>
      setSearch((current) => searchOf({ ...filtersOf(current), ...changes, page: 1 } satisfies AuditFilters), { replace: true }),
    [setSearch],
  );
  const goTo = (page: number) => setSearch(searchOf({ ...filters, page }));

  if (!manage) {
    return (
      <>
        <PageHeader title="Audit log" />
        <p>Only the Owner and Admins can read the audit log.</p>
      </>
    );
  }
  const data = events.data?.data;
  const list = data?.events ?? [];
  const filtered = searchOf({ ...filters, page: 1 }).size > 0;
  const first = (filters.page - 1) * PAGE_SIZE;

  return (
    <>
      <PageHeader
        title="Audit log"
        lead="Who changed which workflow, API key, connection, connector, member, invite or setting, who ran a test, a rerun or a replay and who exported evidence, and when. Records are kept as hashes, never their values."
      >
        <ExportButtons filters={filters} />
      </PageHeader>
      <AuditFiltersForm filters={filters} actions={ACTIONS} actors={actors.options} onChange={change} />
      <LoadStatus load={events} />
      {data && data.count === 0 && !filtered && (
        <EmptyState title="Nothing changed yet">
          <p>Changes to workflows, keys, connections, the team and settings appear here as they are made.</p>
        </EmptyState>
      )}
      {data && data.count === 0 && filtered && <p>No event matches these filters.</p>}
      {data && list.length > 0 && (
        <>
          <AuditTable events={list} count={data.count} actorName={actors.nameOf} />
          <Pager label="Pages of audit events" page={filters.page} first={first} shown={list.length} count={data.count} onPage={goTo} />
        </>
      )}
    </>
  );
}
