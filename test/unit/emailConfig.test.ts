import { ConfigError, parseConfig } from '../../core/config';

describe('email configuration', () => {
  it('has no SMTP by default (mail goes to DATA_DIR/mail) and a neutral sender', () => {
    const config = parseConfig({});
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.SMTP_FROM).toBe('Operator Platform <no-reply@localhost>');
  });

  it('accepts smtp:// and smtps:// URLs and refuses anything else without echoing the value', () => {
    expect(parseConfig({ SMTP_URL: 'smtps://user:pass@mail.example.test:465' }).SMTP_URL).toBe('smtps://user:pass@mail.example.test:465');
    expect(parseConfig({ SMTP_URL: '  ' }).SMTP_URL).toBeUndefined();
    try {
      parseConfig({ SMTP_URL: 'https://user:secret-pass@mail.example.test' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain('SMTP_URL: must be an smtp:// or smtps:// URL');
      expect((error as ConfigError).message).not.toContain('secret-pass');
    }
  });
});
