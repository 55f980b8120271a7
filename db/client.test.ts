import { describe, expect, it } from 'vitest';
import { driverFor } from './client.ts';

describe('driver selection from DATABASE_URL', () => {
  it.each([
    [undefined, 'pglite'],
    ['', 'pglite'],
    ['postgresql://user:pw@ep-quiet-sun-123456.eu-west-2.aws.neon.tech/neondb?sslmode=require', 'neon'],
    ['postgres://user:pw@ep-x-pooler.us-east-2.aws.neon.tech/db', 'neon'],
    ['postgres://postgres@127.0.0.1:5432/test', 'pg'],
    ['postgresql://app@db.internal:6543/app', 'pg'],
  ])('%s → %s', (url, driver) => {
    expect(driverFor(url || undefined)).toBe(driver);
  });

  it('refuses a URL that is not PostgreSQL', () => {
    expect(() => driverFor('mysql://root@localhost/test')).toThrow('postgres://');
  });
});
