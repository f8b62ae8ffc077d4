/** Shapes shared by the raw-table and view-backed analytics queries (spec 2.11). */

export interface AnalyticsScope {
  operatorId: string;
  /** The currency figures are reported in; other currencies are left out, never added. */
  currency: string;
  /** Events without a currency count as this one. */
  reportingCurrency: string;
}

export interface Kpis {
  total_players: number;
  active_players_today: number;
  total_ggr: number;
  total_deposits: number;
  total_withdrawals: number;
  avg_deposit: number;
}

export interface RevenueRow {
  date: string;
  total_ggr: number;
  total_deposits: number;
  depositing_players: number;
  active_players: number;
}

export interface GameRow {
  game_name: string;
  rounds: number;
  ggr: number;
  unique_players: number;
  avg_bet: number;
}

export interface ProviderRow {
  provider: string;
  volume: number;
  /** Σ amount of every transaction with the provider, whatever its type and status (spec 2.11's field, kept as it was). */
  total_amount: number;
  success_rate: number;
  /** Completed deposits' amount: money figures count completed transactions only, and never add deposits to withdrawals. */
  completed_deposit_amount: number;
  completed_withdrawal_amount: number;
}

export type Unit = 'day' | 'week' | 'month';

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** KPIs from their summed parts; both paths go through here so they agree to the cent. */
export function kpisOf(row: Record<string, unknown>): Kpis {
  const deposits = Number(row.total_deposits ?? 0);
  const depositors = Number(row.depositing_players ?? 0);
  return {
    total_players: Number(row.total_players ?? 0),
    active_players_today: Number(row.active_players_today ?? 0),
    total_ggr: Number(row.total_ggr ?? 0),
    total_deposits: deposits,
    total_withdrawals: Number(row.total_withdrawals ?? 0),
    avg_deposit: depositors > 0 ? round2(deposits / depositors) : 0,
  };
}

export const revenueRowOf = (row: Record<string, unknown>): RevenueRow => ({
  date: String(row.date),
  total_ggr: Number(row.total_ggr ?? 0),
  total_deposits: Number(row.total_deposits ?? 0),
  depositing_players: Number(row.depositing_players ?? 0),
  active_players: Number(row.active_players ?? 0),
});

export function gameRowOf(row: Record<string, unknown>): GameRow {
  const rounds = Number(row.rounds);
  const bets = Number(row.bets);
  return {
    game_name: String(row.game_name),
    rounds,
    ggr: bets - Number(row.wins),
    unique_players: Number(row.unique_players),
    avg_bet: rounds > 0 ? round2(bets / rounds) : 0,
  };
}

export function providerRowOf(row: Record<string, unknown>): ProviderRow {
  const volume = Number(row.volume);
  return {
    provider: String(row.provider),
    volume,
    total_amount: Number(row.total_amount),
    success_rate: volume > 0 ? Number(row.completed) / volume : 0,
    completed_deposit_amount: Number(row.deposits ?? 0),
    completed_withdrawal_amount: Number(row.withdrawals ?? 0),
  };
}
