import { IGAMING_TEMPLATE } from '../templates';

/**
 * The player a run is about, as its expressions read it (`player.first_name`, `player.kyc_status`,
 * `player.states.consent`): the entity's profile with its personal fields opened and its states, taken once when the run
 * begins (docs/workflows.md "The player in a run"). Bounded, so a player with megabytes of state cannot make every run
 * about them carry megabytes.
 */

/** The most a snapshot holds, as JSON: values past it are left out and named in `_cut`. */
export const PLAYER_SNAPSHOT_MAX_BYTES = 16 * 1024;
/** The most one profile field or state may take (as JSON); a larger one is left out whatever room is left. */
export const PLAYER_VALUE_MAX_BYTES = 4 * 1024;
/** The most names `_cut` lists; past them, its last entry says how many more were left out. */
export const PLAYER_CUT_MAX_NAMES = 32;

export interface PlayerSnapshot {
  externalId: string;
  entityType: string;
  /** The entity's `data`, personal fields opened. */
  profile: Record<string, unknown>;
  /** Every state by key. */
  states: Record<string, unknown>;
  /** What was left out, as `player.*` names it: `first_name`, `states.compliance`. */
  cut: string[];
}

/** Names the snapshot itself sets at the top of `player`: a profile field or state of the same name is read elsewhere. */
const ENVELOPE = ['externalId', 'entityType', 'states', '_cut'];

const encoder = new TextEncoder();
const bytesOf = (value: unknown): number => encoder.encode(JSON.stringify(value) ?? 'null').length;

/**
 * The snapshot within {@link PLAYER_SNAPSHOT_MAX_BYTES}: profile fields then states, each in name order, each taken
 * while it fits; a value of more than {@link PLAYER_VALUE_MAX_BYTES} on its own, or one that no longer fits, is left
 * out and named in `cut` (later, smaller ones are still taken). `leftOut`: names the reader already left out (a state too
 * large to read, a personal field that would not open). `cut` lists at most {@link PLAYER_CUT_MAX_NAMES} names, in
 * order, then `+<n> more`.
 *
 * @example boundedSnapshot({ externalId: 'p-1', entityType: 'player', profile: { first_name: 'Ada' }, states: { kyc_status: 'approved' } })
 */
export function boundedSnapshot(given: {
  externalId: string;
  entityType: string;
  profile: Record<string, unknown>;
  states: Record<string, unknown>;
  leftOut?: string[];
}): PlayerSnapshot {
  const snapshot: PlayerSnapshot = { externalId: given.externalId, entityType: given.entityType, profile: {}, states: {}, cut: [] };
  let room = PLAYER_SNAPSHOT_MAX_BYTES - bytesOf({ ...snapshot, cut: undefined });
  const take = (into: Record<string, unknown>, prefix: string, values: Record<string, unknown>) => {
    for (const key of Object.keys(values).sort()) {
      const value = values[key];
      const size = bytesOf(value);
      const cost = bytesOf(key) + size + 2;
      if (size > PLAYER_VALUE_MAX_BYTES || cost > room) {
        snapshot.cut.push(`${prefix}${key}`);
        continue;
      }
      Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
      room -= cost;
    }
  };
  take(snapshot.profile, '', given.profile);
  take(snapshot.states, 'states.', given.states);
  const cut = [...snapshot.cut, ...(given.leftOut ?? [])].sort();
  snapshot.cut = cut.length <= PLAYER_CUT_MAX_NAMES ? cut : [...cut.slice(0, PLAYER_CUT_MAX_NAMES), `+${cut.length - PLAYER_CUT_MAX_NAMES} more`];
  return snapshot;
}

/**
 * `player` as expressions read it: the profile's fields, then each state under its own name unless a profile field
 * has it, then `externalId`, `entityType`, every state under `states`, and `_cut` when something was left out.
 *
 * @example playerView(snapshot) // { first_name: 'Ada', country: 'MT', kyc_status: 'approved', externalId: 'p-1', entityType: 'player', states: { kyc_status: 'approved' } }
 */
export function playerView(snapshot: PlayerSnapshot): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => Object.defineProperty(view, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(snapshot.profile)) if (!ENVELOPE.includes(key)) put(key, value);
  for (const [key, value] of Object.entries(snapshot.states)) if (!ENVELOPE.includes(key) && !Object.hasOwn(view, key)) put(key, value);
  put('externalId', snapshot.externalId);
  put('entityType', snapshot.entityType);
  put('states', snapshot.states);
  if (snapshot.cut.length > 0) put('_cut', snapshot.cut);
  return view;
}

/** One field of `player` for the editor's completions. */
export interface PlayerField {
  name: string;
  detail: string;
  fields?: PlayerField[];
}

/**
 * The fields of `player` the template gives a player, for completions and the preview's sample (generated into
 * web/src/features/automations/editor/generated/playerFields.ts by `npm run generate:nodes`): one source.
 */
export function playerFields(): PlayerField[] {
  const { entity_types, state_keys, pii_fields } = IGAMING_TEMPLATE.schema;
  const personal = new Set(pii_fields.player ?? []);
  const profile = [...(entity_types.player?.required ?? []), ...(entity_types.player?.optional ?? [])].sort();
  const states = [...state_keys].sort();
  return [
    ...profile.map((name) => ({ name, detail: personal.has(name) ? 'profile, personal (sealed in the run)' : 'profile' })),
    ...states.filter((name) => !profile.includes(name)).map((name) => ({ name, detail: 'state' })),
    { name: 'externalId', detail: 'the player’s external id' },
    { name: 'entityType', detail: 'e.g. player' },
    { name: 'states', detail: 'every state by key', fields: states.map((name) => ({ name, detail: 'state' })) },
    { name: '_cut', detail: `fields left out of the ${PLAYER_SNAPSHOT_MAX_BYTES / 1024} KiB snapshot, when any` },
  ];
}
