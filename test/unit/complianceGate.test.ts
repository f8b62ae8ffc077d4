import { marketingStepOf, gatedPlayerOf } from '../../core/automations/nodes/marketing';
import { complianceStateHash, gateDecision, type GateFacts } from '../../core/compliance/gate';
import { complianceSettingsOf, DEFAULT_COMPLIANCE_SETTINGS } from '../../core/compliance/settings';

const NOON = new Date('2026-03-15T12:00:00Z');
const facts = (over: Partial<GateFacts> = {}): GateFacts => ({
  compliance: null,
  consent: null,
  status: null,
  jurisdiction: null,
  lastHarmAt: null,
  depositedInLimitWindow: 0,
  now: NOON,
  ...over,
});
const email = { purpose: 'marketing' as const, channel: 'email' as const };

describe('responsible-gambling gate rules', () => {
  it('classifies steps: emails always, others only when marked marketing or bonus', () => {
    expect(marketingStepOf('action.send_email', {})).toEqual({ purpose: 'marketing', channel: 'email' });
    expect(marketingStepOf('action.send_email', { purpose: 'bonus' })).toEqual({ purpose: 'bonus', channel: 'email' });
    expect(marketingStepOf('action.http_request', { method: 'POST' })).toBeNull();
    expect(marketingStepOf('action.http_request', { purpose: 'operational' })).toBeNull();
    expect(marketingStepOf('action.gateway', { purpose: 'bonus', channel: 'sms' })).toEqual({ purpose: 'bonus', channel: 'sms' });
    expect(marketingStepOf('action.ai', { purpose: 'marketing' })).toEqual({ purpose: 'marketing', channel: null });
    expect(marketingStepOf('action.set_state', { purpose: 'marketing' })).toBeNull();
  });

  it("reads the run's player from the trigger's entity, else a playerId", () => {
    expect(gatedPlayerOf({ entity: { externalId: 'p-1' }, data: {} })).toBe('p-1');
    expect(gatedPlayerOf({ playerId: 'p-2' })).toBe('p-2');
    expect(gatedPlayerOf({ amount: 5 })).toBeNull();
  });

  it('checks exclusion first, whatever the optional rules say', () => {
    const off = complianceSettingsOf({ rules: { consent: false, harmIndicators: false } });
    expect(gateDecision(facts({ compliance: { selfExcluded: true, coolingOff: true } }), email, off)).toBe('self_excluded');
    expect(gateDecision(facts({ compliance: { coolingOff: true } }), email, off)).toBe('cooling_off');
    expect(gateDecision(facts({ status: 'excluded' }), email, off)).toBe('player_excluded');
    expect(complianceSettingsOf({ rules: { exclusion: false } }).rules.exclusion).toBe(true);
  });

  it('consent: a withdrawn flag suppresses; an unrecorded one only under explicit consent; no channel needs every flag', () => {
    const settings = DEFAULT_COMPLIANCE_SETTINGS;
    expect(gateDecision(facts({ consent: { email: false } }), email, settings)).toBe('no_consent');
    expect(gateDecision(facts(), email, settings)).toBe('allowed');
    expect(gateDecision(facts(), email, complianceSettingsOf({ explicitConsent: true }))).toBe('no_consent');
    expect(gateDecision(facts({ consent: { email: true, sms: false } }), { purpose: 'marketing', channel: null }, settings)).toBe('no_consent');
    expect(gateDecision(facts({ consent: { email: true, bonus: false } }), { purpose: 'bonus', channel: 'email' }, settings)).toBe('no_consent');
  });

  it('harm indicators, deposit limits and quiet hours as configured', () => {
    const settings = complianceSettingsOf({ rules: { depositLimit: true }, quietHours: [{ jurisdiction: 'GB', from: 22, to: 13 }], harm: { atRiskDays: 7 } });
    expect(gateDecision(facts({ lastHarmAt: new Date(NOON.getTime() - 6 * 86_400_000) }), email, settings)).toBe('harm_indicator');
    expect(gateDecision(facts({ lastHarmAt: new Date(NOON.getTime() - 8 * 86_400_000) }), email, settings)).toBe('allowed');
    expect(gateDecision(facts({ compliance: { depositLimit: 500 }, depositedInLimitWindow: 500 }), email, settings)).toBe('deposit_limit_reached');
    expect(gateDecision(facts({ compliance: { depositLimit: 500 }, depositedInLimitWindow: 499 }), email, settings)).toBe('allowed');
    expect(gateDecision(facts({ jurisdiction: 'gb' }), email, settings)).toBe('quiet_hours');
    expect(gateDecision(facts({ jurisdiction: 'GB', now: new Date('2026-03-15T13:00:00Z') }), email, settings)).toBe('allowed');
    expect(gateDecision(facts({ jurisdiction: 'MT' }), email, settings)).toBe('allowed');
  });

  it('hashes the state read as stable JSON, key order aside', () => {
    expect(complianceStateHash({ b: 1, a: 2 }, null)).toBe(complianceStateHash({ a: 2, b: 1 }, undefined));
    expect(complianceStateHash(null, null)).toMatch(/^[0-9a-f]{64}$/);
  });
});
