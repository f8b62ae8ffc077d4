import { lazy, Suspense, type ComponentProps } from 'react';
import { Loading } from '../../../components/Status';

/** uPlot is loaded with the first chart, not with the dashboard shell. */
const Chart = lazy(() => import('../../../components/charts/Chart'));

export function LazyChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<Loading label="Loading the chart…" />}>
      <Chart {...props} />
    </Suspense>
  );
}

export const COLORS = { ggr: '#1d4ed8', deposits: '#15803d', players: '#b45309', volume: '#7c3aed' };
