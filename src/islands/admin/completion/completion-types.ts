// The answers of GET /api/completion/stats and /bookings, typed once on the server (type-only:
// nothing of the server reaches the browser bundle).
export type { CompletionItem, CompletionStats } from '../../../server/services/reviews/completion.ts';
