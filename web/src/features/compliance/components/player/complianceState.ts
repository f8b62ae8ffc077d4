/** The channels a `consent` state holds a flag for (docs/compliance.md "Where the state lives"), and bonus offers on all of them. */
export const CHANNELS = ['email', 'sms', 'push', 'phone', 'bonus'] as const;
export type Channel = (typeof CHANNELS)[number];
export type ConsentChoice = 'given' | 'refused' | 'unset';

export const CHANNEL_LABEL: Record<Channel, string> = { email: 'Email', sms: 'SMS', push: 'Push', phone: 'Phone', bonus: 'Bonus offers' };
export const CHOICE_LABEL: Record<ConsentChoice, string> = { given: 'Given', refused: 'Refused', unset: 'Not recorded' };

export type StateObject = Record<string, unknown>;

const isRecord = (value: unknown): value is StateObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A state value as an object to read flags from and merge into; anything else (never set, a bare value) as empty. */
export const objectOf = (value: unknown): StateObject => (isRecord(value) ? value : {});

export const choiceOf = (consent: StateObject, channel: Channel): ConsentChoice =>
  consent[channel] === true ? 'given' : consent[channel] === false ? 'refused' : 'unset';

/** The consent value to store: the player's other keys kept, each channel as chosen (an unrecorded one left out). */
export function consentWith(consent: StateObject, choices: Record<Channel, ConsentChoice>): StateObject {
  const next: StateObject = { ...consent };
  for (const channel of CHANNELS) {
    if (choices[channel] === 'unset') delete next[channel];
    else next[channel] = choices[channel] === 'given';
  }
  return next;
}

/**
 * The compliance value after switching self-exclusion or cooling-off: the other fields kept, `checkedAt` now, and a
 * dashboard exclusion named among the sources while it holds (other sources, such as a national register, stay).
 */
export function complianceWith(compliance: StateObject, flag: 'selfExcluded' | 'coolingOff', on: boolean): StateObject {
  const sources = Array.isArray(compliance.exclusionSources) ? compliance.exclusionSources.filter((source) => source !== 'dashboard') : [];
  const next: StateObject = { ...compliance, [flag]: on, checkedAt: new Date().toISOString() };
  if (flag === 'selfExcluded') next.exclusionSources = on ? [...sources, 'dashboard'] : sources;
  return next;
}
