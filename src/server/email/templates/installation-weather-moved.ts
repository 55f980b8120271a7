import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { installationDay } from '../../../domain/schedule.ts';
import type { BookingEmailMessage, EmailAttachment } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { installationHours } from './booking-parts.ts';
import { movedInstallationEmail } from './installation-invite.ts';

/**
 * A rain day moved the installation (POST /api/admin/weather-days): the new day, rescheduled free
 * of charge as the terms promise, the updated invite, and a link to choose another day instead.
 * The frame is the changed date's (installation-invite.ts), so the two never drift apart.
 */
export function installationWeatherMovedEmail(
  booking: BookingRow,
  sequence: number,
  invite: EmailAttachment | null,
  { previousDate, chooseUrl }: { previousDate: string; chooseUrl: string },
): BookingEmailMessage {
  const day = formatLongDate(installationDay(booking));
  return movedInstallationEmail(booking, sequence, invite, {
    kind: 'installation-weather-moved',
    subject: `Rain: your ${BUSINESS.name} installation moves to ${day} (booking #${booking.id})`,
    moved:
      `The weather forecast for ${formatLongDate(previousDate)} means our crew cannot install your patches that day. ` +
      `Your installation has been rescheduled free of charge, as our terms promise: our crew now installs your ${booking.quantity} patches on ${day}, ${installationHours(booking.workType)}.`,
    choose: {
      words: 'Would another day suit you better? Choose one of the days that still have room (the link works once, until the installation day):',
      url: chooseUrl,
    },
  });
}
