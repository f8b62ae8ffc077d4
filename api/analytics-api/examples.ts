/** Examples of the analytics document (analytics-api/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const refreshed_at = '2026-03-15T12:00:04.318Z';

export const kpis = {
  success: true,
  data: {
    kpis: { total_players: 10412, active_players_today: 1873, total_ggr: 184230.5, total_deposits: 912400, total_withdrawals: 405150.25, avg_deposit: 212.73 },
    currency: 'EUR',
    range: { start: '2026-02-14', end: '2026-03-15' },
    refreshed_at,
  },
};

export const revenue = {
  success: true,
  data: {
    period: 'weekly',
    currency: 'EUR',
    range: { start: '2025-12-22', end: '2026-03-15' },
    refreshed_at,
    rows: [
      { date: '2026-03-02', total_ggr: 41210.75, total_deposits: 203500, depositing_players: 962, active_players: 3120 },
      { date: '2026-03-09', total_ggr: 38904.1, total_deposits: 198250, depositing_players: 941, active_players: 3057 },
    ],
  },
  truncated: false,
};

const player = {
  id: 'ent_9b3f7c1e5a2d8f4b6c0e9a7d3f1b5c2e',
  external_id: 'p-42',
  entity_type: 'player',
  created_at: '2026-01-08T14:03:22.117Z',
  updated_at: '2026-03-12T08:41:09.562Z',
};

export const players = {
  success: true,
  data: {
    total: 1,
    has_more: false,
    players: [{ ...player, data: { country: 'GB', first_name: 'enc:v1:k1:c2FtcGxlLWNpcGhlcnRleHQ', status: 'active', registered_at: '2026-01-08T14:03:22Z' } }],
  },
  truncated: false,
};

export const playerDetail = {
  success: true,
  data: {
    ...player,
    data: { country: 'GB', first_name: 'Ada', email: 'ada@example.com', status: 'active', registered_at: '2026-01-08T14:03:22Z' },
    states: [
      { state_key: 'balance', value: 125.5, updated_at: '2026-03-12T08:41:09.562Z' },
      { state_key: 'kyc_status', value: 'approved', updated_at: '2026-01-09T10:15:00.000Z' },
      { state_key: 'risk_score', value: { score: 12, level: 'low' }, updated_at: '2026-03-01T07:30:00.000Z' },
      { state_key: 'loyalty_tier', value: 'gold', updated_at: '2026-02-20T18:22:41.003Z' },
    ],
    recentEvents: [
      {
        id: 'eev_4c8e2a6f0b9d3e7a1c5f8b2d6e0a4c9f',
        event_type: 'transaction',
        data: { type: 'deposit', amount: 5000, currency: 'EUR', status: 'completed', provider: 'stripe' },
        created_at: '2026-03-12T08:41:09.120Z',
      },
      {
        id: 'eev_1a5d9f3b7e2c6a0d4f8b3e7c1a5d9f2b',
        event_type: 'game_activity',
        data: { game_id: 'starburst', game_name: 'Starburst', bet_amount: 2, win_amount: 0, currency: 'EUR' },
        created_at: '2026-03-11T21:17:44.908Z',
      },
    ],
  },
};

export const games = {
  success: true,
  data: {
    currency: 'EUR',
    refreshed_at,
    games: [
      { game_name: 'Starburst', rounds: 48211, ggr: 6120.4, unique_players: 1320, avg_bet: 1.85 },
      { game_name: 'Book of Dead', rounds: 39870, ggr: 5233.9, unique_players: 1104, avg_bet: 2.1 },
    ],
  },
  truncated: false,
};

export const providers = {
  success: true,
  data: {
    providers: [
      { provider: 'stripe', volume: 4210, total_amount: 893400, success_rate: 0.97, completed_deposit_amount: 702100, completed_withdrawal_amount: 158300 },
      { provider: 'paysafe', volume: 1180, total_amount: 241900, success_rate: 0.93, completed_deposit_amount: 198000, completed_withdrawal_amount: 27500 },
    ],
    currency: 'EUR',
    refreshed_at,
  },
};

export const refreshed = { success: true, message: 'Views refreshed', refreshed_at };

const flow = (amount: number, counts: [number, number, number, number, number]) => ({
  completed_amount: amount,
  counts: { pending: counts[0], completed: counts[1], failed: counts[2], reversed: counts[3], cancelled: counts[4] },
});
export const business = {
  success: true,
  data: {
    currency: 'EUR',
    range: { start: '2026-02-14', end: '2026-03-15' },
    previous_range: { start: '2026-01-15', end: '2026-02-13' },
    refreshed_at,
    current: {
      registrations: 1240,
      ftd_count: 412,
      ftd_amount: 1854000,
      converted_players: 398,
      conversion_rate: 0.321,
      deposits: flow(912400, [12, 4301, 230, 0, 8]),
      withdrawals: flow(405150, [40, 1210, 15, 9, 22]),
      ggr: 184230,
      active_players: 3120,
      depositing_players: 1980,
      arpu: 59.05,
      arppu: 93.05,
    },
    previous: {
      registrations: 1105,
      ftd_count: 377,
      ftd_amount: 1702500,
      converted_players: 351,
      conversion_rate: 0.3176,
      deposits: flow(880100, [9, 4122, 251, 0, 5]),
      withdrawals: flow(398000, [31, 1187, 12, 6, 19]),
      ggr: 171900,
      active_players: 3002,
      depositing_players: 1911,
      arpu: 57.26,
      arppu: 89.95,
    },
    ngr: {
      definition_version: 3,
      current: {
        ggr: 184230,
        bonus_cost: 21400,
        taxes: 8141.5,
        other_deductions: 5526.9,
        ngr: 149161.6,
        taxes_by_jurisdiction: [
          { jurisdiction: 'MT', rate: 0.05, taxable: 162830, tax: 8141.5 },
          { jurisdiction: '', rate: 0, taxable: 0, tax: 0 },
        ],
        deductions: [{ name: 'payment processing', rate: 0.03, amount: 5526.9 }],
      },
      previous: {
        ggr: 171900,
        bonus_cost: 19850,
        taxes: 7602.5,
        other_deductions: 5157,
        ngr: 139290.5,
        taxes_by_jurisdiction: [{ jurisdiction: 'MT', rate: 0.05, taxable: 152050, tax: 7602.5 }],
        deductions: [{ name: 'payment processing', rate: 0.03, amount: 5157 }],
      },
    },
  },
};

const retention = (matured: number, retained: number) => ({ matured, retained, rate: Number((retained / matured).toFixed(4)) });
export const cohorts = {
  success: true,
  data: {
    currency: 'EUR',
    range: { start: '2026-01-01', end: '2026-02-28' },
    grain: 'month',
    as_of: '2026-03-15',
    churn_days: 30,
    refreshed_at,
    ngr_definition_version: 3,
    cohorts: [
      {
        cohort: '2026-01-01',
        players: 412,
        ftd_amount: 1854000,
        retention: { d1: retention(412, 161), d7: retention(412, 98), d30: retention(412, 57) },
        ggr: 402310,
        ggr_per_player: 976.48,
        bonus_cost: 61800,
        ngr: 304863.4,
        ngr_per_player: 739.96,
        churned_players: 188,
      },
      {
        cohort: '2026-02-01',
        players: 377,
        ftd_amount: 1702500,
        retention: { d1: retention(377, 150), d7: retention(377, 91), d30: { matured: 240, retained: 33, rate: 0.1375 } },
        ggr: 210455,
        ggr_per_player: 558.24,
        bonus_cost: 56550,
        ngr: 137489.2,
        ngr_per_player: 364.69,
        churned_players: 41,
      },
    ],
  },
};

export const saferGambling = {
  success: true,
  data: {
    range: { start: '2026-02-14', end: '2026-03-15' },
    figures: {
      players: {
        total: 20412,
        self_excluded: 112,
        cooling_off: 38,
        status_excluded: 9,
        protected: 151,
        with_deposit_limit: 2210,
        with_session_limit: 640,
        with_any_limit: 2501,
      },
      marketing: {
        decided: 18250,
        performed: 16904,
        suppressed: 1346,
        suppressed_by_rule: {
          self_excluded: 210,
          cooling_off: 61,
          player_excluded: 12,
          no_consent: 802,
          harm_indicator: 95,
          deposit_limit_reached: 41,
          quiet_hours: 125,
        },
      },
      harm_indicators: { fired: 57, players: 49, by_indicator: { deposit_velocity: 44, deposit_after_reversed_withdrawal: 13 } },
    },
  },
};

const health = (rounds: number, players: number, turnover: number, wins: number, bonusBets: number, bonusWins: number) => ({
  rounds,
  players,
  turnover,
  wins,
  ggr: turnover - wins,
  rtp: Number((wins / turnover).toFixed(4)),
  hold: Number(((turnover - wins) / turnover).toFixed(4)),
  cash_ggr: turnover - wins - (bonusBets - bonusWins),
  bonus_ggr: bonusBets - bonusWins,
});
export const gameHealth = {
  success: true,
  data: {
    currency: 'EUR',
    range: { start: '2026-02-14', end: '2026-03-15' },
    by: 'game',
    refreshed_at,
    totals: health(182000, 3120, 9100000, 8736000, 410000, 380000),
    rows: [
      { name: 'Starburst', ...health(64000, 1830, 3200000, 3088000, 150000, 141000) },
      { name: 'Book of Dead', ...health(51000, 1502, 2550000, 2448000, 120000, 108000) },
    ],
    total_rows: 2,
    has_more: false,
  },
};

const ngrVersion = {
  version: 3,
  definition: {
    taxes: [
      { jurisdiction: 'MT', rate: 0.05 },
      { jurisdiction: 'UK', rate: 0.21 },
    ],
    defaultTaxRate: 0,
    otherDeductions: [{ name: 'payment processing', rate: 0.03 }],
  },
  created_by: 'member:mem_01hx3y',
  created_at: '2026-03-01T09:30:00.000Z',
};
export const ngrDefinitions = {
  success: true,
  data: { current: ngrVersion, versions: [ngrVersion, { ...ngrVersion, version: 2, created_at: '2026-01-10T14:02:00.000Z' }] },
};

export const splits = {
  success: true,
  data: {
    by: 'country',
    refreshed_at,
    range: { start: '2026-02-14', end: '2026-03-15' },
    rows: [
      { key: 'MT', currency: 'EUR', active_players: 1820, depositing_players: 1104, deposits: 512300, withdrawals: 220140, ggr: 101200, ftd_count: 230 },
      { key: 'DE', currency: 'EUR', active_players: 1210, depositing_players: 801, deposits: 400100, withdrawals: 185010, ggr: 83030, ftd_count: 182 },
      { key: 'other', currency: 'EUR', active_players: 90, depositing_players: 75, deposits: 9100, withdrawals: 2000, ggr: 1500, ftd_count: 12 },
    ],
  },
};
