import { Keyring } from './crypto';
import { openPii } from './pii';
import { openText, sealText } from './sealedText';
import { boundedSnapshot, playerView, type PlayerSnapshot } from './automations/playerSnapshot';
import { isSealedPlayer, SEALED_PLAYER_KEY, type SealedPlayer } from './automations/playerRef';
import { isRecord } from './automations/types';

/**
 * A run's player snapshot at rest in Temporal (docs/workflows.md "The player in a run"): sealed with the keyring by
 * the activity that takes it, bound to the operator and the run, and opened only by the activity that evaluates an
 * expression naming `player`. Another operator's or another run's ciphertext does not open.
 */
const contextOf = (operatorId: string, runId: string) => `${operatorId}:run:${runId}:player`;

/** An entity with its states, as a snapshot is built from it (db/queries/playerSnapshots.ts reads it). */
export interface PlayerRow {
  id: string;
  external_id: string;
  entity_type: string;
  data: Record<string, unknown>;
  /** States of at most `PLAYER_VALUE_MAX_BYTES` as JSON text, by key. */
  states: Record<string, unknown>;
  /** Keys of the states larger than that: never read, only named. */
  too_large: string[];
}

/**
 * The snapshot of an entity row: its personal fields opened one by one (a field whose key was retired is left out and
 * named in `_cut`, the others still read), bounded (core/automations/playerSnapshot.ts).
 */
export function snapshotOf(keyring: Keyring, operatorId: string, row: PlayerRow): PlayerSnapshot {
  const profile: Record<string, unknown> = {};
  const unreadable: string[] = [];
  for (const [field, value] of Object.entries(isRecord(row.data) ? row.data : {})) {
    try {
      const opened = Keyring.isCiphertext(value) ? openPii(keyring, operatorId, row.external_id, { [field]: value })[field] : value;
      Object.defineProperty(profile, field, { value: opened, enumerable: true, writable: true, configurable: true });
    } catch {
      unreadable.push(field);
    }
  }
  return boundedSnapshot({
    externalId: row.external_id,
    entityType: row.entity_type,
    profile,
    states: row.states,
    leftOut: [...unreadable, ...row.too_large.map((key) => `states.${key}`)],
  });
}

/** Seals a snapshot for the run `runId` of `operatorId`. */
export async function sealPlayer(keyring: Keyring, operatorId: string, runId: string, snapshot: PlayerSnapshot): Promise<SealedPlayer> {
  return { [SEALED_PLAYER_KEY]: await sealText(keyring, JSON.stringify(snapshot), contextOf(operatorId, runId)), runId };
}

/** `player` as expressions read it, from the sealed snapshot; throws when it was sealed for another operator or run. */
export async function openPlayer(keyring: Keyring, operatorId: string, sealed: SealedPlayer): Promise<Record<string, unknown>> {
  return playerView(JSON.parse(await openText(keyring, sealed[SEALED_PLAYER_KEY], contextOf(operatorId, sealed.runId))) as PlayerSnapshot);
}

/** A run context with its sealed player opened, or as it is when it holds none. */
export async function withOpenedPlayer<T extends { player?: unknown }>(keyring: Keyring, operatorId: string, context: T): Promise<T> {
  return isSealedPlayer(context.player) ? { ...context, player: await openPlayer(keyring, operatorId, context.player) } : context;
}
