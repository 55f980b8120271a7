import { describe, expect, it } from 'vitest';
import { newWorkerSchema, sendNotificationsSchema, WORKER_MESSAGES } from './workers.ts';

describe('sendNotificationsSchema', () => {
  it.each([
    [{}, {}],
    [{ workerEmail: ' Sam@Crew.co.uk ' }, { workerEmail: 'sam@crew.co.uk', workerName: null }],
    [{ workerEmail: 'sam@crew.co.uk', workerName: '  ' }, { workerEmail: 'sam@crew.co.uk', workerName: null }],
    [{ workerEmail: 'sam@crew.co.uk', workerName: ' Sam ' }, { workerEmail: 'sam@crew.co.uk', workerName: 'Sam' }],
  ])('accepts %j', (input, expected) => {
    expect(sendNotificationsSchema.parse(input)).toMatchObject(expected);
  });

  it.each([[{ workerEmail: '' }], [{ workerEmail: 'sam@' }], [{ workerName: 'Sam' }], [{ workerEmail: null }]])('refuses %j', (input) => {
    const parsed = sendNotificationsSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(WORKER_MESSAGES.emailInvalid);
  });
});

describe('newWorkerSchema', () => {
  it.each([
    [{ email: 'LEE@crew.co.uk' }, { email: 'lee@crew.co.uk', name: null }],
    [{ email: 'lee@crew.co.uk', name: 'Lee' }, { email: 'lee@crew.co.uk', name: 'Lee' }],
  ])('accepts %j', (input, expected) => {
    expect(newWorkerSchema.parse(input)).toEqual(expected);
  });

  it.each([[{}], [{ email: 'lee' }], [{ email: 'lee@crew.co.uk', name: 'x'.repeat(101) }]])('refuses %j', (input) => {
    expect(newWorkerSchema.safeParse(input).success).toBe(false);
  });
});
