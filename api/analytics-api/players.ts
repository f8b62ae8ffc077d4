import { openPii } from '../../core/pii';
import { findLivePlayer, listPlayers, recentEvents } from '../../db/queries/analyticsPlayers';
import { listStates } from '../../db/queries/entities';
import { AppError } from '../errors';
import { readFigures } from './context';
import { playerDetail, playerItem } from './presenters';
import { sendCsv, sendRows } from './respond';
import { PlayerParams, PlayersQuery } from './schema';
import { analytics } from './area';

const RECENT_EVENTS = 20;
const PLAYER_COLUMNS = ['id', 'external_id', 'entity_type', 'data', 'created_at', 'updated_at'];

/** `GET /players`: a page of live entities of `entity_type`; PII stays sealed. */
export const listPlayersHandler = analytics.handler({ input: { query: PlayersQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const page = await readFigures(deps, (db) =>
    listPlayers(db, principal.operatorId, {
      entityType: query.entity_type,
      search: query.search,
      sort: query.sort,
      direction: query.direction,
      limit: query.limit,
      offset: query.offset,
    }),
  );
  const players = page.players.map(playerItem);
  if (query.format === 'csv') return sendCsv(ctx, 'players', PLAYER_COLUMNS, players);
  sendRows(ctx, 'players', players, { total: page.total, has_more: query.offset + players.length < page.total });
});

/** `GET /players/:id` (external id): PII opened, states and the 20 most recent events. Erased players are 404. */
export const getPlayerHandler = analytics.handler({ input: { params: PlayerParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const operatorId = principal.operatorId;
  const { entity, states, events } = await readFigures(deps, async (db) => {
    const entity = await findLivePlayer(db, operatorId, params.id);
    if (!entity) throw new AppError(404, 'NOT_FOUND', `No player with external id ${params.id}`);
    return { entity, states: await listStates(db, operatorId, entity.id), events: await recentEvents(db, operatorId, entity.id, RECENT_EVENTS) };
  });
  ctx.body = { success: true, data: playerDetail(entity, openPii(deps.keyring, operatorId, entity.external_id, entity.data), states, events) };
});
