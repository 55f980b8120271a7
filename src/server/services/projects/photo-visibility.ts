import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, photos, progressLogs } from '../../../../db/schema.ts';
import { findProjectStep } from '../../../domain/project-steps.ts';
import { writeChannelLog } from '../messages/channel-log.ts';

// Staff may hide a photo from the customer (a passer-by's face, a blurred shot) and show it
// again. The one fact is `photos.hidden_at` (with `hidden_by`): every customer-facing query (the
// tracking page's list, the public project page, the completion e-mail, the campaign report)
// filters with `shownToCustomer()`; /uploads/*, which has already read the one photo row it
// serves, refuses a hidden one to anyone but signed-in staff from that row's `hiddenAt`. Staff's
// views read every photo and mark the hidden ones. This module stays light (no image code): the tracking module, which the
// scheduled functions import, uses its condition.

/** The photos a customer may see: the condition every customer-facing query adds. */
export function shownToCustomer(): SQL {
  return isNull(photos.hiddenAt);
}

interface Actor {
  userId: string;
  now: Date;
}

/** The words the booking's history gains, naming the photo as staff know it. */
function historyNote(row: typeof photos.$inferSelect, hidden: boolean): string {
  const photo = `${row.photoType} photo, step ${row.step} (${row.description || row.originalName})`;
  return hidden ? `Photo hidden from the customer: ${photo}` : `Photo shown to the customer again: ${photo}`;
}

export interface PhotoVisibility {
  id: number;
  bookingId: number;
  hiddenAt: string | null;
}

const toVisibility = (row: typeof photos.$inferSelect): PhotoVisibility => ({
  id: row.id,
  bookingId: row.bookingId,
  hiddenAt: row.hiddenAt?.toISOString() ?? null,
});

/**
 * Hides the photo from the customer, or shows it again; null when there is no such photo. One
 * conditional UPDATE: of two staff pressing at once one changes it and the other finds it
 * already so; asking for the state the photo is already in changes nothing and logs nothing (a
 * retry is safe). A change adds a line to the booking's progress history (at its current step,
 * leaving the latest note alone) and an entry in the admin log, in the same transaction.
 */
export async function setPhotoHidden(db: Database, photoId: number, hidden: boolean, actor: Actor): Promise<PhotoVisibility | null> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(photos)
      .set(hidden ? { hiddenAt: actor.now, hiddenBy: actor.userId } : { hiddenAt: null, hiddenBy: null })
      .where(and(eq(photos.id, photoId), hidden ? isNull(photos.hiddenAt) : isNotNull(photos.hiddenAt)))
      .returning();
    if (!changed) {
      const [current] = await tx.select().from(photos).where(eq(photos.id, photoId));
      return current ? toVisibility(current) : null;
    }
    const [booking] = await tx
      .select({ currentStep: bookings.currentStep, status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, changed.bookingId));
    const step = findProjectStep(booking!.currentStep) ?? findProjectStep(1)!;
    await tx.insert(progressLogs).values({
      bookingId: changed.bookingId,
      step: step.step,
      stepName: step.name,
      status: booking!.status,
      notes: historyNote(changed, hidden),
      userId: actor.userId,
      createdAt: actor.now,
    });
    await writeChannelLog(tx, {
      channel: 'admin',
      action: hidden ? 'photo_hidden' : 'photo_shown',
      entityType: 'booking',
      entityId: changed.bookingId,
      userId: actor.userId,
      details: `${changed.photoType} photo #${changed.id} of booking #${changed.bookingId} ${hidden ? 'hidden from' : 'shown again to'} the customer`,
      metadata: { photoId: changed.id, fileName: changed.fileName },
    });
    return toVisibility(changed);
  });
}
