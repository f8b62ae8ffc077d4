import { ConfigError, parseConfig } from '../../core/config';

describe('MCP configuration', () => {
  it('defaults to affinity on, 15 s heartbeats, 5 streams per operator and a 55 s call wait (spec 8)', () => {
    const config = parseConfig({});
    expect(config.MCP_CROSS_INSTANCE_AFFINITY).toBe(true);
    expect(config.MCP_HEARTBEAT_MS).toBe(15_000);
    expect(config.MCP_MAX_STREAMS_PER_OPERATOR).toBe(5);
    expect(config.MCP_CALL_WAIT_MS).toBe(55_000);
  });

  it('reads overrides and refuses nonsense, naming the variable', () => {
    const config = parseConfig({ MCP_CROSS_INSTANCE_AFFINITY: 'false', MCP_HEARTBEAT_MS: '250', MCP_MAX_STREAMS_PER_OPERATOR: '2' });
    expect([config.MCP_CROSS_INSTANCE_AFFINITY, config.MCP_HEARTBEAT_MS, config.MCP_MAX_STREAMS_PER_OPERATOR]).toEqual([false, 250, 2]);
    expect(() => parseConfig({ MCP_MAX_STREAMS_PER_OPERATOR: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ MCP_HEARTBEAT_MS: 'often' })).toThrow(/MCP_HEARTBEAT_MS/);
    expect(() => parseConfig({ MCP_CROSS_INSTANCE_AFFINITY: 'maybe' })).toThrow(/MCP_CROSS_INSTANCE_AFFINITY/);
  });
});
