/**
 * Years of data in a few set-based statements (generate_series), on PGlite or PostgreSQL alike.
 * Rows are spread evenly back from now within each table's retention period, with ids rising with
 * time as a live site's would, so the retention job would delete none of them.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export interface ScaleCounts {
  bookings: number;
  pageViews: number;
  channelLogs: number;
  photos: number;
  analyticsEvents: number;
}

export const SCALE: ScaleCounts = {
  bookings: 20_000,
  pageViews: 1_000_000,
  channelLogs: 200_000,
  photos: 5_000,
  analyticsEvents: 100_000,
};

/** A number of this file's own written into the statement (as a literal, so PostgreSQL infers no type). */
const n = (value: number) => sql.raw(String(value));

/** Seconds between rows so that `count` rows span `days` days. */
const spacing = (days: number, count: number) => (days * 86_400) / count;

export async function seedScale(db: Database, counts: ScaleCounts, report: (line: string) => void): Promise<void> {
  const step = async (label: string, statement: ReturnType<typeof sql>) => {
    const started = performance.now();
    await db.execute(statement);
    report(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };

  // Six years of bookings (7 years are kept): older ones finished and mostly archived.
  const bookingGap = spacing(6 * 365, counts.bookings);
  await step(`${counts.bookings} bookings`, sql`
    insert into bookings (first_name, last_name, business_name, email, phone, quantity, location_address, postcode,
      region, work_type, preferred_date, total_price_pence, status, current_step, archived, payment_status,
      amount_paid_pence, created_at, updated_at)
    select
      (array['Amira','Tom','Priya','Gareth','Hannah','Aisha','Owen','Mei'])[1 + g % 8],
      (array['Khan','Birchall','Shah','Lowe','Whitworth','Okafor','Price','Wong'])[1 + (g / 8) % 8],
      'Business ' || g,
      'owner' || g || '@business' || (g % 997) || '.co.uk',
      '0161 496 ' || lpad((g % 10000)::text, 4, '0'),
      5 + (g % 20) * 5,
      'Market Street ' || g || ', Manchester M1 1PT',
      (array['M1','LS1','L1','NE1','S3','B1'])[1 + g % 6],
      (array['North West','Yorkshire and the Humber','North West','North East','Yorkshire and the Humber','West Midlands'])[1 + g % 6],
      case when g % 3 = 0 then 'night' else 'day' end,
      (created + interval '45 days')::date,
      (5 + (g % 20) * 5) * 7990,
      status,
      case status when 'completed' then 5 when 'confirmed' then 3 else 1 end,
      g < ${n(counts.bookings)} * 0.9 and status in ('completed', 'cancelled'),
      case when status in ('completed', 'confirmed') then 'paid' else 'unpaid' end,
      case when status in ('completed', 'confirmed') then (5 + (g % 20) * 5) * 7990 end,
      created, created
    from generate_series(1, ${n(counts.bookings)}) as g,
      lateral (select now() - (${n(counts.bookings)} - g) * ${n(bookingGap)} * interval '1 second' as created) as c,
      lateral (select case when g < ${n(counts.bookings)} * 0.95
        then (array['completed','completed','completed','cancelled'])[1 + g % 4]
        else (array['pending','confirmed','completed'])[1 + g % 3] end as status) as s`);
  await step('booking locations, progress logs and files', sql`
    with located as (
      insert into booking_locations (booking_id, position, address, lat, lng, postcode, region)
      select id, 0, location_address, 53.48, -2.24, postcode, region from bookings returning booking_id
    ), logged as (
      insert into progress_logs (booking_id, step, step_name, status, notes, created_at)
      select id, n, 'Step ' || n, 'consultation', 'Updated to step ' || n, created_at + n * interval '1 day'
      from bookings, generate_series(1, 3) as n returning booking_id
    ), filed as (
      insert into uploaded_files (file_name, original_name, file_size, mime_type, storage, created_at)
      select 'scale-' || id || '.png', 'logo.png', 48000, 'image/png', 'disk', created_at from bookings where id % 3 = 0
      returning id, file_name
    )
    insert into booking_files (booking_id, file_id)
    select replace(replace(file_name, 'scale-', ''), '.png', '')::int, id from filed`);
  await step(`${counts.photos} photos`, sql`
    insert into photos (booking_id, file_name, original_name, description, photo_type, step, file_size, mime_type, created_at)
    select b.id, 'scale-photo-' || b.id || '-' || n || '.jpg', 'photo-' || n || '.jpg', 'Patch ' || n,
      (array['before','during','after','after'])[n], case when n < 3 then 4 else 5 end, 350000, 'image/jpeg', b.created_at
    from (select id, created_at from bookings where status = 'completed' order by id limit ${n(Math.ceil(counts.photos / 4))}) as b,
      generate_series(1, 4) as n
    limit ${n(counts.photos)}`);

  // Analytics: 26 months are kept; these span 25.
  const viewGap = spacing(760, counts.pageViews);
  await step(`${counts.pageViews} page views`, sql`
    insert into page_views (path, referrer, user_agent, country, city, created_at)
    select
      (array['/','/pricing','/how-it-works','/gallery','/contact','/about','/booking','/track-project','/terms','/privacy'])[1 + (g * 7) % 10],
      case when g % 5 = 0 then 'https://www.google.com/' end,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
      case when g % 11 = 0 then null else (array['United Kingdom','United Kingdom','United Kingdom','Ireland','France','Germany','United States'])[1 + g % 7] end,
      case when g % 11 = 0 then null else (array['London','Manchester','Leeds','Dublin','Paris','Berlin','New York','Liverpool','Sheffield'])[1 + (g * 3) % 9] end,
      now() - (${n(counts.pageViews)} - g) * ${n(viewGap)} * interval '1 second'
    from generate_series(1, ${n(counts.pageViews)}) as g`);
  const eventGap = spacing(760, counts.analyticsEvents);
  await step(`${counts.analyticsEvents} analytics events`, sql`
    insert into analytics_events (event_name, path, created_at)
    select (array['booking_started','booking_submitted','payment_succeeded','contact_submitted'])[1 + g % 4], '/booking',
      now() - (${n(counts.analyticsEvents)} - g) * ${n(eventGap)} * interval '1 second'
    from generate_series(1, ${n(counts.analyticsEvents)}) as g`);

  // Communications: 3 years are kept; these span a little less.
  const logGap = spacing(1_080, counts.channelLogs);
  await step(`${counts.channelLogs} channel logs`, sql`
    insert into channel_logs (timestamp, channel, action, entity_type, entity_id, severity, details, metadata)
    select
      now() - (${n(counts.channelLogs)} - g) * ${n(logGap)} * interval '1 second',
      (array['booking','email','email','notification','admin','database'])[1 + g % 6],
      (array['booking_created','email_sent','email_sent','notification_sent','status_changed','maintenance'])[1 + g % 6],
      'booking', (1 + g % ${n(counts.bookings)})::text,
      case when g % 97 = 0 then 'error' when g % 23 = 0 then 'warning' when g % 4999 = 0 then 'critical' else 'info' end,
      case when g % 97 = 0 then 'Delivery failed: mailbox unavailable for booking #' || (1 + g % ${n(counts.bookings)})
        else 'Booking #' || (1 + g % ${n(counts.bookings)}) || ' updated' end,
      jsonb_build_object('step', g % 5)
    from generate_series(1, ${n(counts.channelLogs)}) as g`);
}
