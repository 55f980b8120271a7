/** What GET /api/completion/stats and /bookings answer (src/server/services/completion.ts). */
export interface CompletionStats {
  totalCompleted: number;
  emailsSent: number;
  reviewsReceived: number;
  averageRating: number;
  responseRate: number;
}

export interface CompletionItem {
  id: number;
  firstName: string;
  lastName: string;
  locationAddress: string;
  completionDate: string | null;
  photoCount: number;
  emailSent: boolean;
  reviewRequested: boolean;
  reviewReceived: boolean;
  rating: number | null;
}
