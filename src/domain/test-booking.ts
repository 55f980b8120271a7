// Test-booking detection (admin-dashboard.md section 5). The spec lists the words but leaves the
// matching rule open. The rule chosen here:
// - case-insensitive;
// - whole words only: every field is split into words on anything that is not a letter, so
//   'test@x.com', 'a.test@x' and 'test123' match, while 'contest@x.com' and 'Testament Ltd' do not;
// - the phrases 'john doe' and 'jane doe' match as consecutive words, across first and last name
//   ('John' + 'Doe') and inside an e-mail ('john.doe@...');
// - the name, the e-mail and the address are checked separately, so a phrase never spans two of them.
// 'example' also catches the reserved example.com/.org domains, which no real customer uses.

export const TEST_BOOKING_WORDS = [
  'test',
  'testing',
  'example',
  'demo',
  'sample',
  'asdf',
  'qwerty',
  'fake',
] as const;

export const TEST_BOOKING_PHRASES = ['john doe', 'jane doe'] as const;

export interface TestBookingCandidate {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  locationAddress?: string | null;
}

const TEST_WORDS: ReadonlySet<string> = new Set(TEST_BOOKING_WORDS);

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((word) => word !== '');
}

function containsTestWords(text: string): boolean {
  const words = wordsOf(text);
  if (words.some((word) => TEST_WORDS.has(word))) return true;
  const spaced = ` ${words.join(' ')} `;
  return TEST_BOOKING_PHRASES.some((phrase) => spaced.includes(` ${phrase} `));
}

export function detectTestBooking(booking: TestBookingCandidate): boolean {
  const fullName = `${booking.firstName ?? ''} ${booking.lastName ?? ''}`;
  return [fullName, booking.email ?? '', booking.locationAddress ?? ''].some(containsTestWords);
}
