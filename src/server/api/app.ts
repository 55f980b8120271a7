import { Hono, type MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { AppDeps } from '../app/deps.ts';
import type { AppEnv } from '../app/request.ts';
import { handleError, handleMethodNotAllowed, handleNotFound } from './middleware/errors.ts';
import { sameOriginOnly, securityHeaders } from './middleware/security.ts';
import { JSON_BODY_LIMIT_BYTES, limitBody } from './middleware/body.ts';
import { requestId } from './middleware/request-id.ts';
import { refuseNulInUrl } from './middleware/url-text.ts';
import { forgetUnavailableDates } from '../services/bookings/unavailable-dates-cache.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { geocodeRoutes } from './routes/geocode.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { uploadPartRoutes } from './routes/upload-parts.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { paymentRoutes } from './routes/payments.ts';
import { adminAuthRoutes } from './routes/admin-auth.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { adminMeRoutes } from './routes/admin-me.ts';
import { adminPasskeyRoutes } from './routes/admin-passkeys.ts';
import { adminPrivacyRoutes } from './routes/admin-privacy.ts';
import { completionRoutes } from './routes/completion.ts';
import { adminReviewRoutes } from './routes/admin-reviews.ts';
import { adminProjectRoutes } from './routes/admin-projects.ts';
import { trackingRoutes } from './routes/tracking.ts';
import { brandFileRoutes, photoFileRoutes } from './routes/files.ts';
import { contactRoutes } from './routes/contacts.ts';
import { galleryRoutes } from './routes/gallery.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminBookingBulkRoutes, adminBookingRoutes } from './routes/admin-bookings.ts';
import { adminContactRoutes } from './routes/admin-contacts.ts';
import { blockedDateRoutes } from './routes/blocked-dates.ts';
import { adminChannelLogRoutes } from './routes/admin-channel-logs.ts';
import { locationRoutes } from './routes/locations.ts';
import { workerRoutes } from './routes/workers.ts';
import { workerNotificationRoutes } from './routes/worker-notifications.ts';
import { proofRoutes } from './routes/proofs.ts';
import { adminBookingMessageRoutes, adminMessageRoutes } from './routes/admin-messages.ts';
import { crewRoutes } from './routes/crew.ts';
import { challengeRoutes } from './routes/challenge.ts';
import { adminCrewRoutes } from './routes/admin-crew.ts';
import { scheduleRoutes } from './routes/schedule.ts';
import { rescheduleRoutes } from './routes/reschedule.ts';
import { documentRoutes } from './routes/documents.ts';

/**
 * The whole API as a value (conventions: "the app is a value"). The Netlify function, the local
 * server and the tests mount this same app; only `deps` differ.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use('*', requestId);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', securityHeaders);
  app.use('*', methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }));
  app.use('*', refuseNulInUrl);
  // Stripe's webhook is verified by its signature and sends no Origin.
  app.use('/api/*', sameOriginOnly({ exempt: ['/api/stripe/webhook'] }));
  app.use('/api/*', async (c, next) => {
    // Uploads (multipart, or a part as raw bytes) carry their own, larger limit in their route.
    const type = c.req.header('content-type') ?? '';
    if (type.startsWith('multipart/form-data') || type.startsWith('application/octet-stream')) return next();
    return limitBody(JSON_BODY_LIMIT_BYTES)(c, next);
  });

  // Requests that can change bookings or blocked dates clear this instance's copy of the
  // unavailable dates once they succeed (services/bookings/unavailable-dates-cache.ts).
  for (const path of AVAILABILITY_WRITERS) app.use(path, forgetAvailabilityAfterWrites);

  app.get('/api/health', (c) => c.json({ ok: true }));
  app.route('/api/analytics', analyticsRoutes);
  app.route('/api/bookings', bookingRoutes);
  app.route('/api/geocode', geocodeRoutes);
  app.route('/api', uploadRoutes);
  app.route('/api', uploadPartRoutes);
  app.route('/api/reviews', reviewRoutes);
  app.route('/api', paymentRoutes);
  // GET /api/bookings/:id/photos is here; the admin's POST to the same path lives with the admin routes.
  app.route('/api', trackingRoutes);
  app.route('/api', brandFileRoutes);
  app.route('/', photoFileRoutes);
  // Admin: sign-in, passkey sign-in and invitation links are open; every other admin route mounts
  // the guard with its role (`requireAdmin`, `requireOwner`, `requireSignedIn`: middleware/admin-auth.ts).
  app.route('/api/admin', adminAuthRoutes);
  app.route('/api/admin', adminUserRoutes);
  app.route('/api/admin/me', adminMeRoutes);
  app.route('/api/admin/passkeys', adminPasskeyRoutes);
  app.route('/api/admin/privacy', adminPrivacyRoutes);
  app.route('/api/completion', completionRoutes);
  app.route('/api/admin/reviews', adminReviewRoutes);
  app.route('/api', adminProjectRoutes);
  app.route('/api/contacts', contactRoutes);
  app.route('/api/challenge', challengeRoutes);
  app.route('/api/gallery', galleryRoutes);
  app.route('/api/admin', adminRoutes);
  app.route('/api/bookings', adminBookingRoutes);
  app.route('/api/contacts', adminContactRoutes);
  app.route('/api/admin/bookings', adminBookingBulkRoutes);
  app.route('/api/admin/blocked-dates', blockedDateRoutes);
  app.route('/api/admin/channel-logs', adminChannelLogRoutes);
  app.route('/api/locations', locationRoutes);
  app.route('/api/admin/workers', workerRoutes);
  app.route('/api/worker-notifications', workerNotificationRoutes);
  // Stencil proofs: the admin's upload and waiver, the granted client's decisions (routes/proofs.ts).
  app.route('/api', proofRoutes);
  app.route('/api/admin/bookings', adminBookingMessageRoutes);
  app.route('/api/admin/messages', adminMessageRoutes);
  app.route('/api/crew', crewRoutes);
  app.route('/api/admin/crew', adminCrewRoutes);
  app.route('/api/admin', scheduleRoutes);
  app.route('/api/reschedule', rescheduleRoutes);
  // Invoices, billing details, the campaign report, Book again and the invoices CSV (routes/documents.ts).
  app.route('/api', documentRoutes);

  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

export type App = ReturnType<typeof createApp>;

/** Where bookings and blocked dates change: bookings, admin bookings and blocks, payments, erasure. */
const AVAILABILITY_WRITERS = [
  '/api/bookings',
  '/api/bookings/*',
  '/api/admin/bookings/*',
  '/api/admin/blocked-dates',
  '/api/admin/blocked-dates/*',
  '/api/admin/schedule/*',
  '/api/admin/weather-days',
  '/api/reschedule/*',
  '/api/admin/privacy/*',
  '/api/stripe/webhook',
];

const forgetAvailabilityAfterWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.res.status < 400) forgetUnavailableDates(c.get('deps').db);
};
