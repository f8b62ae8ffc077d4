import type { paths } from '../../../../api/schema';

/** The query `GET /workflows-api/runs` takes (its filters and paging). */
export type RunsQuery = NonNullable<paths['/workflows-api/runs']['get']['parameters']['query']>;

export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export const RUN_SOURCES = ['manual', 'webhook', 'schedule', 'event', 'mcp'] as const;
export const PAGE_SIZE = 25;
/** The responsible-gambling gate's rules (docs/compliance.md), for the "Suppressed" filter. */
export const GATE_RULES = ['self_excluded', 'cooling_off', 'player_excluded', 'no_consent', 'harm_indicator', 'deposit_limit_reached', 'quiet_hours'] as const;

/**
 * The explorer's filters as the URL keeps them (so a filtered view can be reloaded, shared and gone back to): the API's
 * own names, dates as `YYYY-MM-DD` days in the viewer's time zone, and the 1-based page.
 */
export interface RunFilters {
  status: string;
  workflowId: string;
  player: string;
  source: string;
  from: string;
  to: string;
  version: string;
  branch: string;
  /** Runs with a step the gate suppressed: `true` (any rule) or a rule. */
  suppressed: string;
  page: number;
}

export const FILTER_KEYS = ['status', 'workflowId', 'player', 'source', 'from', 'to', 'version', 'branch', 'suppressed'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export function filtersOf(search: URLSearchParams): RunFilters {
  const page = Number(search.get('page') ?? '1');
  const text = (key: FilterKey) => search.get(key) ?? '';
  return {
    status: text('status'),
    workflowId: text('workflowId'),
    player: text('player'),
    source: text('source'),
    from: text('from'),
    to: text('to'),
    version: text('version'),
    branch: text('branch'),
    suppressed: text('suppressed'),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The URL's search for these filters: empty ones left out, the page only past the first. */
export function searchOf(filters: RunFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) search.set(key, filters[key]);
  if (filters.page > 1) search.set('page', String(filters.page));
  return search;
}

/** The start of a `YYYY-MM-DD` day in the viewer's time zone, as the API's ISO instant; `days` moves it. */
export function dayStart(day: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The time range the filter's days cover: `from` at the start of its day, `to` at the end of its day (exclusive). */
export function rangeOf(filters: Pick<RunFilters, 'from' | 'to'>): { from?: string; to?: string } {
  const from = dayStart(filters.from);
  const to = dayStart(filters.to, 1);
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** The API query for the filters and page; the API answers a 400 naming any filter it refuses. */
export function queryOf(filters: RunFilters): RunsQuery {
  return {
    limit: PAGE_SIZE,
    offset: (filters.page - 1) * PAGE_SIZE,
    ...(filters.status ? { status: filters.status as RunsQuery['status'] } : {}),
    ...(filters.workflowId ? { workflowId: filters.workflowId } : {}),
    ...(filters.player ? { player: filters.player } : {}),
    ...(filters.source ? { source: filters.source as RunsQuery['source'] } : {}),
    ...rangeOf(filters),
    ...(filters.version ? { version: Number(filters.version) } : {}),
    ...(filters.branch ? { branch: filters.branch } : {}),
    ...(filters.suppressed ? { suppressed: filters.suppressed as RunsQuery['suppressed'] } : {}),
  } as RunsQuery;
}
