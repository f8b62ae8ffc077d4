import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { SelectField } from '../../../components/Field';
import { ErrorNotice, LoadStatus, PageHeader, Success } from '../../../components/Status';
import { formatDate, formatDateTime } from '../../../format';
import { BusinessTiles } from './BusinessTiles';
import { CohortsPanel } from './CohortsPanel';
import { GameHealthPanel } from './GameHealthPanel';
import { SaferGamblingTiles } from './SaferGamblingTiles';
import { SplitsPanel } from './SplitsPanel';
import { GamesPanel, ProvidersPanel } from './GamesProviders';
import { GettingStarted } from './GettingStarted';
import { KpiTiles } from './KpiTiles';
import { RevenuePanel } from './RevenuePanel';
import { refreshAnalytics, useKpis } from '../api/analytics';

const RANGES = [
  ['7d', 'Last 7 days'],
  ['14d', 'Last 14 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
] as const;

/**
 * Analytics at a glance (spec 4.4): KPI tiles, the business figures (issue 45), revenue, games and providers, FTD
 * cohorts, game health, splits by country and safer gambling. Figures come from the raw
 * tables until the aggregate views are refreshed (`refreshed_at`), then from the views until the next
 * refresh; the button refreshes them (at most once a minute per organisation, spec 8).
 */
export default function Overview() {
  const [range, setRange] = useState('30d');
  const [version, setVersion] = useState(0);
  const [refreshed, setRefreshed] = useState(false);
  const kpis = useKpis(range, version);
  const refresh = useAction(async () => {
    setRefreshed(false);
    await refreshAnalytics();
    setRefreshed(true);
    setVersion((value) => value + 1);
  });
  const data = kpis.data?.data;

  return (
    <>
      <PageHeader
        title="Overview"
        lead={
          data
            ? data.refreshed_at
              ? `Figures from the views refreshed ${formatDateTime(data.refreshed_at)}.`
              : 'Live figures from the raw data (the views have not been refreshed yet).'
            : undefined
        }
      >
        <SelectField label="KPI range" value={range} onChange={(event) => setRange(event.target.value)}>
          {RANGES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <button type="button" className="button" onClick={() => void refresh.run()} disabled={refresh.pending}>
          {refresh.pending ? 'Refreshing…' : 'Refresh figures'}
        </button>
      </PageHeader>
      <ErrorNotice error={refresh.error} title="The figures could not be refreshed." />
      {refreshed && <Success>Views refreshed.</Success>}
      {data && <GettingStarted totalPlayers={data.kpis.total_players} />}
      <LoadStatus load={kpis} />
      {data && (
        <>
          <p className="hint">
            {formatDate(data.range.start)} – {formatDate(data.range.end)} (UTC days, by when each event occurred), amounts in {data.currency} (sent in minor
            units: 5000 is 50.00)
          </p>
          <KpiTiles kpis={data.kpis} currency={data.currency} range={`${formatDate(data.range.start)} – ${formatDate(data.range.end)}`} />
        </>
      )}
      <BusinessTiles range={range} version={version} />
      <RevenuePanel version={version} />
      <div className="grid-2">
        <GamesPanel version={version} />
        <ProvidersPanel version={version} />
      </div>
      <CohortsPanel version={version} />
      <div className="grid-2">
        <GameHealthPanel range={range} version={version} />
        <SplitsPanel range={range} version={version} />
      </div>
      <SaferGamblingTiles range={range} version={version} />
    </>
  );
}
