import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useCanManage } from '../../../../auth/session';
import { EmptyState, LoadStatus, PageHeader } from '../../../../components/Status';
import { Pager } from '../../../../components/Pager';
import { filtersOf, PAGE_SIZE, queryOf, rangeOf, searchOf, type FilterKey, type RunFilters } from './filters';
import { DispatchLag } from './DispatchLag';
import { ReplayFailedRuns } from './ReplayFailedRuns';
import { RunFiltersForm } from './RunFiltersForm';
import { RunsTable } from './RunsTable';
import './runs.css';
import { useRuns } from '../api/runs';

/**
 * Runs (`GET /workflows-api/runs`): every run of the organisation's workflows, newest first, filtered by status,
 * workflow, player, source, dates, version and branch taken — all kept in the URL — and paged. A row opens the run;
 * a failed one can be rerun, and one workflow's failed runs replayed together. The page refreshes while a listed run runs.
 */
export default function RunsExplorer() {
  const [search, setSearch] = useSearchParams();
  const filters = filtersOf(search);
  const manage = useCanManage();
  const key = searchOf(filters).toString();
  const runs = useRuns(queryOf(filtersOf(new URLSearchParams(key))));

  const change = useCallback(
    (changes: Partial<Record<FilterKey, string>>) =>
      setSearch((current) => searchOf({ ...filtersOf(current), ...changes, page: 1 } satisfies RunFilters), { replace: true }),
    [setSearch],
  );
  const goTo = (page: number) => setSearch(searchOf({ ...filters, page }));

  const data = runs.data;
  const list = data?.data ?? [];
  const live = list.some((run) => run.status === 'running');
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(runs.reload, 3000);
    return () => clearInterval(timer);
  }, [live, runs.reload]);
  const filtered = searchOf({ ...filters, page: 1 }).size > 0;
  const replayable = manage && filters.workflowId !== '' && filters.status === 'failed';
  const first = (filters.page - 1) * PAGE_SIZE;

  return (
    <>
      <PageHeader title="Runs" lead="Every run of your workflows, newest first. Open a run to see what each step was given and what it gave back.">
        {replayable && <ReplayFailedRuns workflowId={filters.workflowId} range={rangeOf(filters)} onProgress={runs.reload} />}
      </PageHeader>
      <DispatchLag />
      <RunFiltersForm filters={filters} onChange={change} />
      <LoadStatus load={runs} />
      {data && data.count === 0 && !filtered && (
        <EmptyState title="No runs yet">
          <p>Runs appear here when a workflow’s trigger fires, or when you test-run a workflow from its editor.</p>
        </EmptyState>
      )}
      {data && data.count === 0 && filtered && <p>No run matches these filters.</p>}
      {list.length > 0 && data && (
        <>
          <RunsTable runs={list} count={data.count} canRerun={manage} />
          <Pager label="Pages of runs" page={filters.page} first={first} shown={list.length} count={data.count} onPage={goTo} />
        </>
      )}
    </>
  );
}
