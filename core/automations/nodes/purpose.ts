import { may, oneOf } from './checks';
import { CONSENT_CHANNELS, MARKETING_PURPOSES, STEP_PURPOSES } from './marketing';

/**
 * The params a designer marks a step with for the responsible-gambling gate (./marketing.ts reads them): an HTTP
 * request, a supplier call or an AI text with `purpose` `marketing` or `bonus` is gated, and `channel` names the
 * consent flag it needs.
 */
export const MARKETING_PARAMS = { purpose: may(oneOf(STEP_PURPOSES)), channel: may(oneOf(CONSENT_CHANNELS)) };

/** An email is always gated; `purpose` only says whether it offers a bonus. */
export const EMAIL_PURPOSE = { purpose: may(oneOf(MARKETING_PURPOSES)) };
