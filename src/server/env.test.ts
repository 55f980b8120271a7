import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.ts';

describe('settings', () => {
  it('runs with nothing configured: embedded database, port 8888, no providers', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 8888, DATA_DIR: '.data' });
    expect([env.DATABASE_URL, env.STRIPE_SECRET_KEY, env.SENDGRID_API_KEY]).toEqual([undefined, undefined, undefined]);
  });

  it('treats empty values as unset', () => {
    const env = parseEnv({ STRIPE_SECRET_KEY: '  ', DATABASE_URL: '' });
    expect([env.STRIPE_SECRET_KEY, env.DATABASE_URL]).toEqual([undefined, undefined]);
  });

  it("accepts Netlify's Neon variable name", () => {
    expect(parseEnv({ NETLIFY_DATABASE_URL: 'postgres://u@h/db' }).DATABASE_URL).toBe('postgres://u@h/db');
  });

  it('checks the seller\'s VAT number and rate for invoices, and leaves them unset by default', () => {
    const unset = parseEnv({});
    expect([unset.VAT_NUMBER, unset.VAT_RATE, unset.BUSINESS_LEGAL_NAME, unset.BUSINESS_ADDRESS]).toEqual([undefined, 20, undefined, undefined]);
    expect(parseEnv({ VAT_NUMBER: 'gb 123 4567 89', VAT_RATE: '17.5' })).toMatchObject({ VAT_NUMBER: 'GB123456789', VAT_RATE: 17.5 });
    expect(() => parseEnv({ VAT_NUMBER: 'GB12345' })).toThrow(/VAT_NUMBER: must be a UK VAT number/);
    expect(() => parseEnv({ VAT_RATE: '20.125' })).toThrow(ConfigError);
    expect(() => parseEnv({ VAT_RATE: '120' })).toThrow(/VAT_RATE/);
  });

  it('takes the financial year end as MM-DD, 31 March unless set, and refuses a day not every year has', () => {
    expect(parseEnv({}).FINANCIAL_YEAR_END).toBe('03-31');
    expect(parseEnv({ FINANCIAL_YEAR_END: '' }).FINANCIAL_YEAR_END).toBe('03-31');
    expect(parseEnv({ FINANCIAL_YEAR_END: ' 12-31 ' }).FINANCIAL_YEAR_END).toBe('12-31');
    expect(parseEnv({ FINANCIAL_YEAR_END: '02-28' }).FINANCIAL_YEAR_END).toBe('02-28');
    for (const value of ['02-29', '04-31', '13-01', '3-31', '31-03', '2027-03-31']) {
      expect(() => parseEnv({ FINANCIAL_YEAR_END: value }), value).toThrow(/FINANCIAL_YEAR_END: must be a month and day as MM-DD/);
    }
  });

  it('names every invalid setting', () => {
    expect(() => parseEnv({ PORT: 'eighty', SITE_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => parseEnv({ PORT: 'eighty', SITE_URL: 'not a url' })).toThrow(/PORT[\s\S]*SITE_URL|SITE_URL[\s\S]*PORT/);
  });
});

describe('site address on Netlify', () => {
  it('falls back to the URL Netlify sets, only on Netlify', () => {
    expect(parseEnv({ NETLIFY: 'true', URL: 'https://cleanpatch.example' }).SITE_URL).toBe('https://cleanpatch.example');
    expect(parseEnv({ URL: 'https://elsewhere.example' }).SITE_URL).toBe('http://localhost:8888');
    expect(parseEnv({ NETLIFY: 'true', URL: 'https://a.example', SITE_URL: 'https://b.example' }).SITE_URL).toBe('https://b.example');
  });
});
