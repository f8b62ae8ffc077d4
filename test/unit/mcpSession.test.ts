import { newSessionId, sessionElicits, showsTaskTools } from '../../core/mcpSession';

const LEGACY = '2025-11-25';

describe('session ids carry what a 2025-11-25 client declared at initialize', () => {
  it.each([
    [{}, /^mcps_/, false, false],
    [{ elicitation: {} }, /^mcpse_/, true, false],
    [{ tasks: {} }, /^mcpst_/, false, true],
    [{ elicitation: { form: {} }, tasks: { list: {} } }, /^mcpset_/, true, true],
  ])('capabilities %j → %s', (capabilities, prefix, elicits, tasks) => {
    const id = newSessionId({ protocolVersion: LEGACY, capabilities });
    expect(id).toMatch(prefix);
    expect(sessionElicits(id)).toBe(elicits);
    expect(showsTaskTools({ version: LEGACY, modern: false, tasks: true }, id)).toBe(tasks);
  });

  it('declares nothing for another revision, and reads nothing from ids it did not issue', () => {
    expect(newSessionId({ protocolVersion: '2025-06-18', capabilities: { elicitation: {}, tasks: {} } })).toMatch(/^mcps_/);
    for (const id of [undefined, 'my-session', 'mcpsx_abc', 'xmcpset_abc']) {
      expect(sessionElicits(id)).toBe(false);
      expect(showsTaskTools({ version: LEGACY, modern: false, tasks: true }, id)).toBe(false);
    }
  });

  it('2026-07-28 shows task tools to a request declaring the extension; the spec’s revision lists every tool', () => {
    expect(showsTaskTools({ version: '2026-07-28', modern: true, tasks: true }, undefined)).toBe(true);
    expect(showsTaskTools({ version: '2026-07-28', modern: true, tasks: false }, 'mcpset_abc')).toBe(false);
    expect(showsTaskTools({ version: '2025-06-18', modern: false, tasks: false }, undefined)).toBe(true);
  });
});
