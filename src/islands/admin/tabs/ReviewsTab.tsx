import { useCallback, useEffect, useState } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { StarRating } from '../../reviews/StarRating.tsx';
import type { CompletionItem, CompletionStats } from '../completion/completion-types.ts';
import { ReviewModeration } from '../completion/ReviewModeration.tsx';

type Load = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; stats: CompletionStats; items: CompletionItem[] };

/**
 * The Reviews (completion) tab (admin-dashboard.md §2): completion statistics, then each completed
 * project with its flow: send the completion e-mail first; 'Request Review' once it was sent;
 * 'Review Received' with its rating when the customer has answered.
 */
export default function ReviewsTab() {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [busy, setBusy] = useState<number | null>(null);

  const refresh = useCallback(async () => {
    try {
      const [stats, items] = await Promise.all([
        api<CompletionStats>('/api/completion/stats'),
        api<CompletionItem[]>('/api/completion/bookings'),
      ]);
      setLoad({ kind: 'ready', stats, items });
    } catch (error) {
      setLoad({ kind: 'error', message: error instanceof Error ? error.message : 'Could not load completed projects.' });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const act = async (item: CompletionItem, action: 'send-email' | 'send-review-request') => {
    setBusy(item.id);
    const [ok, failed] =
      action === 'send-email' ? ['Completion Email Sent', 'Failed to Send Email'] : ['Review Request Sent', 'Failed to Send Review Request'];
    try {
      await api(`/api/completion/${item.id}/${action}`, { method: 'POST' });
      showToast({ title: ok, description: `Booking #${item.id} - ${item.firstName} ${item.lastName}` });
      await refresh();
    } catch (error) {
      showToast({ title: failed, description: error instanceof Error ? error.message : undefined, variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  if (load.kind === 'loading') return <p role="status" className="text-concrete-600">Loading completed projects…</p>;
  if (load.kind === 'error') return <p role="alert" className="text-danger-600">{load.message}</p>;
  const { stats, items } = load;

  return (
    <div className="space-y-8">
      <section aria-labelledby="completion-stats-heading">
        <h2 id="completion-stats-heading" className="text-xl">Completion</h2>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          <Stat label="Completed projects" value={String(stats.totalCompleted)} />
          <Stat label="Completion e-mails sent" value={String(stats.emailsSent)} />
          <Stat label="Reviews received" value={String(stats.reviewsReceived)} />
          <Stat label="Average rating" value={stats.reviewsReceived ? `${stats.averageRating.toFixed(1)} / 5` : '–'} />
          <Stat
            label="Response rate"
            value={`${stats.responseRate}%`}
            detail={`${stats.invitedReviewsReceived} of ${stats.invitationsSent} ${stats.invitationsSent === 1 ? 'invitation' : 'invitations'} answered`}
          />
        </dl>
      </section>

      <section aria-labelledby="completed-heading">
        <h2 id="completed-heading" className="text-xl">Completed projects</h2>
        {items.length === 0 ? (
          <p className="mt-4 rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center text-concrete-700">
            No completed projects yet.
          </p>
        ) : (
          <ul className="mt-4 space-y-3">
            {items.map((item) => (
              <li key={item.id} className="card flex flex-col gap-4 p-4 sm:p-5 lg:flex-row lg:items-center lg:justify-between">
                <div className="min-w-0">
                  <p className="font-semibold">
                    Booking #{item.id} - {item.firstName} {item.lastName}
                  </p>
                  <p className="mt-1 text-sm [overflow-wrap:anywhere] text-concrete-700">{item.locationAddress}</p>
                  <p className="mt-1 text-sm text-concrete-600">
                    {item.completionDate ? `Completed ${new Date(item.completionDate).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}` : 'Completed'}
                    {' · '}
                    {item.photoCount} {item.photoCount === 1 ? 'photo' : 'photos'}
                    {' · '}
                    <a href={`/gallery/${item.id}`} target="_blank" rel="noopener" className="font-semibold text-accent-700 underline underline-offset-4">
                      Project page<span className="sr-only"> for booking #{item.id} (opens in a new tab)</span>
                    </a>
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <FlowState item={item} busy={busy === item.id} onAct={(action) => void act(item, action)} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <ReviewModeration />
    </div>
  );
}

function FlowState({ item, busy, onAct }: { item: CompletionItem; busy: boolean; onAct: (action: 'send-email' | 'send-review-request') => void }) {
  if (item.reviewReceived) {
    return (
      <span className="inline-flex items-center gap-2 rounded-full bg-accent-50 px-3 py-1.5 text-sm font-semibold text-accent-700">
        Review Received {item.rating !== null && <StarRating rating={item.rating} size="sm" />}
      </span>
    );
  }
  if (!item.emailSent) {
    return (
      <>
        <span className="rounded-full bg-concrete-100 px-3 py-1.5 text-sm font-semibold text-concrete-700">Pending Email</span>
        <button data-change type="button" className="btn-primary" disabled={busy} onClick={() => onAct('send-email')}>
          {busy ? 'Sending…' : 'Send Completion Email'}
        </button>
      </>
    );
  }
  return (
    <>
      <span className="rounded-full bg-concrete-100 px-3 py-1.5 text-sm font-semibold text-concrete-700">
        {item.reviewRequested ? 'Review requested' : 'Email sent'}
      </span>
      <button data-change type="button" className="btn-secondary" disabled={busy} onClick={() => onAct('send-review-request')}>
        {busy ? 'Sending…' : item.reviewRequested ? 'Request Review again' : 'Request Review'}
      </button>
    </>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="card p-4">
      <dt className="text-sm text-concrete-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">{value}</dd>
      {detail && <dd className="mt-1 text-sm text-concrete-600">{detail}</dd>}
    </div>
  );
}
