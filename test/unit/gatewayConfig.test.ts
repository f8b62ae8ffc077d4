import { ConfigError, parseConfig } from '../../core/config';

describe('gateway configuration', () => {
  it('has the documented defaults', () => {
    const config = parseConfig({});
    expect({
      timeout: config.GATEWAY_TIMEOUT_MS,
      attempts: config.GATEWAY_MAX_ATTEMPTS,
      bytes: config.GATEWAY_MAX_RESPONSE_BYTES,
      privateNetworks: config.GATEWAY_ALLOW_PRIVATE_NETWORKS,
      threshold: config.GATEWAY_CIRCUIT_FAILURE_THRESHOLD,
    }).toEqual({ timeout: 10_000, attempts: 3, bytes: 5 * 1024 * 1024, privateNetworks: false, threshold: 5 });
  });

  it('parses overrides and names bad values', () => {
    const config = parseConfig({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', GATEWAY_CIRCUIT_FAILURE_THRESHOLD: '2', GATEWAY_TIMEOUT_MS: '250' });
    expect([config.GATEWAY_ALLOW_PRIVATE_NETWORKS, config.GATEWAY_CIRCUIT_FAILURE_THRESHOLD, config.GATEWAY_TIMEOUT_MS]).toEqual([true, 2, 250]);
    expect(() => parseConfig({ GATEWAY_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(ConfigError);
    expect(() => parseConfig({ GATEWAY_MAX_ATTEMPTS: '0' })).toThrow(/GATEWAY_MAX_ATTEMPTS/);
    expect(() => parseConfig({ GATEWAY_MAX_ATTEMPTS: '11' })).toThrow(/GATEWAY_MAX_ATTEMPTS/);
  });
});
