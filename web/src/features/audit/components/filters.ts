import type { paths } from '../../../api/schema';
import { rangeOf } from '../../automations/runs/components/filters';

/** The query `GET /platform-api/operators/me/audit-events` takes (its filters and paging). */
export type AuditQuery = NonNullable<paths['/platform-api/operators/me/audit-events']['get']['parameters']['query']>;
export type ExportQuery = NonNullable<paths['/platform-api/operators/me/audit-events/export']['get']['parameters']['query']>;

export const PAGE_SIZE = 25;
/** What an audit event can be about, as the API's document names it (core/audit.ts's list, through the OpenAPI schema). */
export type AuditTargetType = NonNullable<AuditQuery['targetType']>;

/**
 * Each target type's label; typed by the document's list, so a type the API adds fails the dashboard's type check until
 * it has a label here, and the filter's options come from the same object rather than a second copy of the list.
 */
export const TARGET_LABEL: Record<AuditTargetType, string> = {
  automation: 'Workflow',
  api_key: 'API key',
  connection: 'Connection',
  connector: 'Connector',
  member: 'Member',
  invite: 'Invite',
  settings: 'Settings',
  mcp_grant: 'Connected MCP host',
  player: 'Player',
  run: 'Run',
  evidence: 'Compliance evidence',
};
export const TARGET_TYPES = Object.keys(TARGET_LABEL) as AuditTargetType[];

/** The audit log's filters as the URL keeps them: the API's names, dates as `YYYY-MM-DD` days, the 1-based page. */
export interface AuditFilters {
  action: string;
  actor: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
  page: number;
}

export const FILTER_KEYS = ['action', 'actor', 'targetType', 'targetId', 'from', 'to'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export function filtersOf(search: URLSearchParams): AuditFilters {
  const page = Number(search.get('page') ?? '1');
  const text = (key: FilterKey) => search.get(key) ?? '';
  return {
    action: text('action'),
    actor: text('actor'),
    targetType: text('targetType'),
    targetId: text('targetId'),
    from: text('from'),
    to: text('to'),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function searchOf(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) search.set(key, filters[key]);
  if (filters.page > 1) search.set('page', String(filters.page));
  return search;
}

/** The filters as the API takes them (the export's too); the API answers a 400 naming any it refuses. */
export function filterQuery(filters: AuditFilters): Omit<ExportQuery, 'format'> {
  return {
    ...(filters.action ? { action: filters.action as AuditQuery['action'] } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.targetType ? { targetType: filters.targetType as AuditQuery['targetType'] } : {}),
    ...(filters.targetId ? { targetId: filters.targetId } : {}),
    ...rangeOf(filters),
  };
}

export const pageQuery = (filters: AuditFilters): AuditQuery =>
  ({ ...filterQuery(filters), limit: PAGE_SIZE, offset: (filters.page - 1) * PAGE_SIZE }) as AuditQuery;
