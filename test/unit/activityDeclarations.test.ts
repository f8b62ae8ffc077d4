import { ACTIVITY_DECLARATIONS } from '../../activities';

const named = (test: (declared: (typeof ACTIVITY_DECLARATIONS)[keyof typeof ACTIVITY_DECLARATIONS]) => boolean) =>
  Object.entries(ACTIVITY_DECLARATIONS)
    .filter(([, declared]) => test(declared))
    .map(([name]) => name)
    .sort();

/** The worker's payload interceptor reads these declarations (worker/payloadRefInterceptor.ts); they replace its lists of names. */
describe('activity declarations', () => {
  it('the activities that work on a run’s data pause for their operator’s debt; the senders pause themselves', () => {
    expect(named((declared) => declared.budget === 'pauses')).toEqual(['automationAiChat', 'automationEvaluate', 'automationWriteData', 'sendEmail']);
    expect(named((declared) => declared.budget === 'own')).toEqual(['automationHttpRequest', 'gatewayCallLocal', 'sendPreparedGatewayCall']);
  });

  it('only the begin step and the sealed player snapshot hand their result to workflow code whole; only the end step reads its references itself', () => {
    // The snapshot is at most 16 KiB sealed, and workflow code must see its ciphertext to know it as one (core/automations/playerRef.ts).
    expect(named((declared) => declared.result === 'whole')).toEqual(['automationPlayerSnapshot', 'beginAutomationRun']);
    expect(named((declared) => declared.args === 'reader')).toEqual(['finishAutomationRun']);
  });
});
