import { randomBytes } from 'node:crypto';
import { Keyring } from '../../core/crypto';
import { contextFor, type RunContext } from '../../core/automations/expressions';
import { NOT_PLAIN, plainPathValue, renderPlainPaths } from '../../core/automations/plainPaths';
import { definitionReadsPlayer, isSealedPlayer } from '../../core/automations/playerRef';
import {
  boundedSnapshot,
  playerFields,
  playerView,
  PLAYER_CUT_MAX_NAMES,
  PLAYER_SNAPSHOT_MAX_BYTES,
  PLAYER_VALUE_MAX_BYTES,
} from '../../core/automations/playerSnapshot';
import type { AutomationDefinition } from '../../core/automations/types';
import { sealPii } from '../../core/pii';
import { openPlayer, sealPlayer, snapshotOf, withOpenedPlayer } from '../../core/playerSeal';
import { IGAMING_TEMPLATE } from '../../core/templates';

const keyring = new Keyring(randomBytes(32));
const base = { externalId: 'p-1', entityType: 'player' };

const definition = (params: Record<string, unknown>, type = 'action.send_email'): AutomationDefinition =>
  ({
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'player.country = "MT"' } },
      { id: 'a', type, params },
    ],
    edges: [],
  }) as AutomationDefinition;

describe('the player snapshot', () => {
  it('reads profile fields, then states not shadowed by one, the envelope, and every state under states', () => {
    const view = playerView(
      boundedSnapshot({ ...base, profile: { first_name: 'Ada', country: 'MT', status: 'active' }, states: { kyc_status: 'approved', status: 'frozen' } }),
    );
    expect(view).toEqual({
      first_name: 'Ada',
      country: 'MT',
      status: 'active',
      kyc_status: 'approved',
      externalId: 'p-1',
      entityType: 'player',
      states: { kyc_status: 'approved', status: 'frozen' },
    });
  });

  it(`is bounded: a value over ${PLAYER_VALUE_MAX_BYTES} bytes is cut, then values past ${PLAYER_SNAPSHOT_MAX_BYTES} bytes in name order, named in _cut`, () => {
    const big = 'x'.repeat(PLAYER_VALUE_MAX_BYTES);
    const fill = 'y'.repeat(PLAYER_VALUE_MAX_BYTES - 10);
    const snapshot = boundedSnapshot({
      ...base,
      profile: { first_name: 'Ada', notes: big },
      states: { a: fill, b: fill, c: fill, d: fill, e: fill, small: 1 },
      leftOut: ['states.huge'],
    });
    expect(JSON.stringify(snapshot).length).toBeLessThanOrEqual(PLAYER_SNAPSHOT_MAX_BYTES);
    expect(snapshot.profile).toEqual({ first_name: 'Ada' });
    expect(Object.keys(snapshot.states)).toEqual(['a', 'b', 'c', 'small']);
    expect(playerView(snapshot)._cut).toEqual(['notes', 'states.d', 'states.e', 'states.huge']);
  });

  it(`names at most ${PLAYER_CUT_MAX_NAMES} left-out fields, then how many more; a field named __proto__ is a field like any other`, () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${String(i).padStart(2, '0')}`, 'z'.repeat(PLAYER_VALUE_MAX_BYTES + 1)]));
    const snapshot = boundedSnapshot({ ...base, profile: many, states: {} });
    expect(snapshot.cut).toHaveLength(PLAYER_CUT_MAX_NAMES + 1);
    expect(snapshot.cut.at(-1)).toBe('+8 more');
    const odd = snapshotOf(keyring, 'op-a', {
      id: 'e1',
      external_id: 'p-1',
      entity_type: 'player',
      data: JSON.parse('{"__proto__":"x","a":1}'),
      states: {},
      too_large: [],
    });
    expect(Object.getPrototypeOf(odd.profile)).toBe(Object.prototype);
    expect(Object.keys(odd.profile).sort()).toEqual(['__proto__', 'a']);
  });

  it('opens personal fields from the entity row, seals for one operator and run, and opens only there', async () => {
    const data = sealPii(keyring, IGAMING_TEMPLATE.schema, 'op-a', 'player', 'p-1', { email: 'ada@example.com', first_name: 'Ada', country: 'MT' });
    expect(data.email).not.toBe('ada@example.com');
    const snapshot = snapshotOf(keyring, 'op-a', { id: 'e1', external_id: 'p-1', entity_type: 'player', data, states: { risk_score: 80 }, too_large: [] });
    expect(snapshot.profile).toEqual({ email: 'ada@example.com', first_name: 'Ada', country: 'MT' });
    const sealed = await sealPlayer(keyring, 'op-a', 'run-1', snapshot);
    expect(isSealedPlayer(sealed)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('ada@example.com');
    expect(JSON.stringify(sealed)).not.toContain('"Ada"'); // as a JSON value: `Ada` alone occurs in base64 by chance
    expect(await openPlayer(keyring, 'op-a', sealed)).toMatchObject({ email: 'ada@example.com', risk_score: 80 });
    await expect(openPlayer(keyring, 'op-b', sealed)).rejects.toThrow();
    await expect(openPlayer(keyring, 'op-a', { ...sealed, runId: 'run-2' })).rejects.toThrow();
    const context: RunContext = { trigger: {}, nodes: {}, workflow: { id: 'w', name: 'w', version: 1 }, run: { id: 'run-1', source: 'event' }, player: sealed };
    expect((await withOpenedPlayer(keyring, 'op-a', context)).player).toMatchObject({ first_name: 'Ada' });
  });

  it('a field whose key is unknown is left out and named, the others still read', () => {
    const data = { email: new Keyring(randomBytes(32)).encryptJson('x@example.com', 'op-a:p-1:email'), country: 'MT' };
    const snapshot = snapshotOf(keyring, 'op-a', { id: 'e1', external_id: 'p-1', entity_type: 'player', data, states: {}, too_large: [] });
    expect(snapshot).toMatchObject({ profile: { country: 'MT' }, cut: ['email'] });
  });

  it('in workflow code the sealed player is never walked inline, and crosses into the sandbox only when named', async () => {
    const sealed = await sealPlayer(keyring, 'op-a', 'run-1', boundedSnapshot({ ...base, profile: { first_name: 'Ada' }, states: {} }));
    const context: RunContext = {
      trigger: { amount: 5 },
      nodes: {},
      workflow: { id: 'w', name: 'w', version: 1 },
      run: { id: 'r', source: 'event' },
      player: sealed,
    };
    expect(plainPathValue('player.first_name', context)).toBe(NOT_PLAIN);
    expect(renderPlainPaths({ text: 'Hi {{ player.first_name }}' }, context)).toBe(NOT_PLAIN);
    expect(plainPathValue('trigger.amount', context)).toBe(5);
    expect(contextFor({ expression: 'player.country = "MT"' }, context).player).toBe(sealed);
    expect(contextFor({ params: { text: '{{ trigger.amount }}' } }, context)).not.toHaveProperty('player');
    expect(contextFor({ params: { text: '{{ trigger.data.player }} {{ player_id }}' } }, context)).not.toHaveProperty('player');
    expect(contextFor({ expression: '$count($keys($))' }, context).player).toBe(sealed);
  });

  it('a definition reads player in a condition, a wait filter or a template — not in a trigger filter or plain text', () => {
    expect(definitionReadsPlayer(definition({ to: '{{ player.email }}' }))).toBe(true);
    expect(definitionReadsPlayer(definition({ expression: 'player.vip_tier = "gold"' }, 'condition'))).toBe(true);
    expect(definitionReadsPlayer(definition({ filter: '$exists(player)' }, 'action.wait_for_event'))).toBe(true);
    expect(definitionReadsPlayer(definition({ text: 'Dear player', to: '{{ trigger.data.player_id }}' }))).toBe(false);
    expect(definitionReadsPlayer(definition({ body: { $payloadRef: 'ref-1' } }))).toBe(true);
  });

  it('names the template’s player fields and states for completions', () => {
    const names = playerFields().map((field) => field.name);
    expect(names).toEqual(expect.arrayContaining(['first_name', 'email', 'country', 'kyc_status', 'loyalty_tier', 'externalId', 'states']));
  });
});
