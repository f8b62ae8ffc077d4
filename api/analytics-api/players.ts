import type { Context } from 'koa';
import { openPii } from '../../core/pii';
import { findLivePlayer, listPlayers, recentEvents } from '../../db/queries/analyticsPlayers';
import { listStates } from '../../db/queries/entities';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { playerDetail, playerItem } from './presenters';
import { sendCsv, sendRows } from './respond';
import { type PlayerParams, type PlayersQuery } from './schema';

const RECENT_EVENTS = 20;
const PLAYER_COLUMNS = ['id', 'external_id', 'entity_type', 'data', 'created_at', 'updated_at'];

/** `GET /players`: a page of live entities of `entity_type`; PII stays sealed. */
export async function listPlayersHandler(deps: AppDeps, ctx: Context, { query }: InputOf<{ query: typeof PlayersQuery }>): Promise<void> {
  const page = await listPlayers(deps.db, operatorOf(ctx), {
    entityType: query.entity_type,
    search: query.search,
    sort: query.sort,
    direction: query.direction,
    limit: query.limit,
    offset: query.offset,
  });
  const players = page.players.map(playerItem);
  if (query.format === 'csv') return sendCsv(ctx, 'players', PLAYER_COLUMNS, players);
  sendRows(ctx, 'players', players, { total: page.total, has_more: query.offset + players.length < page.total });
}

/** `GET /players/:id` (external id): PII opened, states and the 20 most recent events. Erased players are 404. */
export async function getPlayerHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof PlayerParams }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  const entity = await findLivePlayer(deps.db, operatorId, params.id);
  if (!entity) throw new AppError(404, 'NOT_FOUND', `No player with external id ${params.id}`);
  const [states, events] = await Promise.all([listStates(deps.db, operatorId, entity.id), recentEvents(deps.db, operatorId, entity.id, RECENT_EVENTS)]);
  ctx.body = { success: true, data: playerDetail(entity, openPii(deps.keyring, operatorId, entity.external_id, entity.data), states, events) };
}
