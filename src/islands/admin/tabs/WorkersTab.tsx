import { useState, type FormEvent } from 'react';
import { ApiError } from '../../shared/api.ts';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { FormField, INPUT_CLASS } from '../../shared/FormField.tsx';
import { newWorkerSchema, sendNotificationsSchema } from '../../../domain/workers.ts';
import { ConfirmDialog } from '../operations/ConfirmDialog.tsx';
import type { Worker, WorkerPreview } from '../operations/types.ts';
import { TomorrowPreview } from '../operations/TomorrowPreview.tsx';
import { CrewDayPanel } from '../operations/CrewDayPanel.tsx';
import { useLoad, type Load } from '../operations/use-load.ts';
import { EmailText } from '../../shared/EmailText.tsx';

// The Workers tab (admin-dashboard.md §2 "Workers tab (notifications)"): who gets the 6 PM e-mail,
// the preview of tomorrow's routes, and a manual send to one worker or to every active one.

/** The first message per field of a failed zod parse. */
function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
  return errors;
}

export default function WorkersTab() {
  const [workers, reloadWorkers] = useLoad<Worker[]>('/api/admin/workers');
  const [preview, reloadPreview] = useLoad<WorkerPreview>('/api/worker-notifications/preview');
  const activeCount = workers.state === 'ready' ? workers.data.filter((worker) => worker.active).length : 0;
  const hasRoutes = preview.state === 'ready' && preview.data.routesCount > 0;

  return (
    <div className="space-y-8">
      <div>
        <h2 className="text-2xl">Worker notifications</h2>
        <p className="mt-1 text-concrete-700">Notifications are also sent automatically every day at 6 PM for the next day.</p>
      </div>
      <CrewDayPanel />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-2">
        <TomorrowPreview preview={preview} retry={reloadPreview} />
        <div className="space-y-8">
          <SendSection hasRoutes={hasRoutes} activeCount={activeCount} />
          <WorkersSection workers={workers} reload={reloadWorkers} />
        </div>
      </div>
    </div>
  );
}

function notifyResult(success: number) {
  showToast({
    title: 'Notifications Sent',
    // The e-mail lists only stops staff scheduled (step 3 for tomorrow) that the worker holds.
    description:
      success === 0
        ? "No e-mail sent: none of tomorrow's stops is scheduled yet (step 3), or each is given to another worker or waits for you to assign it."
        : `${success} e-mail${success === 1 ? '' : 's'} sent with tomorrow's routes.`,
    variant: 'success',
  });
}

function notifyFailure(error: unknown) {
  // admin-dashboard.md §8: the server's message body is not shown; a known refusal is put in words.
  const noRoutes = error instanceof ApiError && error.status === 409;
  showToast({
    title: 'Failed to Send Notifications',
    description: noRoutes ? error.message : 'Please try again.',
    variant: 'destructive',
  });
}

function SendSection({ hasRoutes, activeCount }: { hasRoutes: boolean; activeCount: number }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const sendTo = async (body: Record<string, string>) => {
    setBusy(true);
    try {
      const { success } = await api<{ success: number }>('/api/worker-notifications/send', { body });
      notifyResult(success);
      return true;
    } catch (error) {
      notifyFailure(error);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = sendNotificationsSchema.safeParse({ workerEmail: email, workerName: name });
    if (!parsed.success || !parsed.data.workerEmail) {
      setErrors(parsed.success ? { workerEmail: 'Valid email is required' } : fieldErrors(parsed.error.issues));
      document.getElementById('workers-send-email')?.focus();
      return;
    }
    setErrors({});
    if (await sendTo({ workerEmail: parsed.data.workerEmail, ...(parsed.data.workerName ? { workerName: parsed.data.workerName } : {}) })) {
      setEmail('');
      setName('');
    }
  };

  return (
    <section data-change aria-labelledby="send-heading" className="card p-5">
      <h3 id="send-heading" className="text-lg">
        Send tomorrow&rsquo;s routes
      </h3>
      {!hasRoutes && <p className="mt-1 text-sm text-concrete-600">Sending needs at least one route for tomorrow.</p>}
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-4">
        <FormField form="workers" name="send-email" label="Worker email" error={errors.workerEmail}>
          {(control) => (
            <input {...control} type="email" autoComplete="off" required value={email} onChange={(event) => setEmail(event.target.value)} className={INPUT_CLASS} />
          )}
        </FormField>
        <FormField form="workers" name="send-name" label="Worker name (optional)" error={errors.workerName}>
          {(control) => <input {...control} type="text" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} className={INPUT_CLASS} />}
        </FormField>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-50" disabled={busy || !hasRoutes}>
            {busy ? 'Sending…' : 'Send'}
          </button>
          <button type="button" className="btn-secondary disabled:cursor-not-allowed disabled:opacity-50" disabled={busy || !hasRoutes || activeCount === 0} onClick={() => void sendTo({})}>
            Send to all active workers ({activeCount})
          </button>
        </div>
      </form>
    </section>
  );
}

function WorkersSection({ workers, reload }: { workers: Load<Worker[]>; reload: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Worker | null>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newWorkerSchema.safeParse({ email, name });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      document.getElementById('workers-worker-email')?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await api('/api/admin/workers', { body: parsed.data });
      showToast({ title: 'Worker Added', description: parsed.data.email, variant: 'success' });
      setEmail('');
      setName('');
      reload();
    } catch (error) {
      const duplicate = error instanceof ApiError && error.status === 409;
      if (duplicate) setErrors({ email: error.message });
      showToast({ title: 'Failed to Add Worker', description: duplicate ? error.message : 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const change = async (worker: Worker, action: 'toggle' | 'remove') => {
    try {
      if (action === 'remove') await api(`/api/admin/workers/${worker.id}`, { method: 'DELETE' });
      else await api(`/api/admin/workers/${worker.id}`, { method: 'PATCH', body: { active: !worker.active } });
      showToast({
        title: action === 'remove' ? 'Worker Removed' : worker.active ? 'Worker Deactivated' : 'Worker Activated',
        description: worker.email,
        variant: 'success',
      });
    } catch {
      showToast({ title: 'Update Failed', description: 'Please try again.', variant: 'destructive' });
    }
    reload();
  };

  return (
    <section aria-labelledby="workers-heading" className="card p-5">
      <h3 id="workers-heading" className="text-lg">
        Workers
      </h3>
      <p className="mt-1 text-sm text-concrete-600">Active workers get tomorrow&rsquo;s routes by e-mail at 6 PM.</p>
      <form data-change noValidate onSubmit={(event) => void add(event)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <FormField form="workers" name="worker-email" label="Email" error={errors.email}>
          {(control) => (
            <input {...control} type="email" autoComplete="off" required value={email} onChange={(event) => setEmail(event.target.value)} className={INPUT_CLASS} />
          )}
        </FormField>
        <FormField form="workers" name="worker-name" label="Name (optional)" error={errors.name}>
          {(control) => <input {...control} type="text" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} className={INPUT_CLASS} />}
        </FormField>
        <button type="submit" className="btn-secondary sm:col-span-2 sm:justify-self-start" disabled={busy}>
          {busy ? 'Adding…' : 'Add worker'}
        </button>
      </form>
      <div className="mt-6">
        {workers.state === 'loading' && <p role="status" className="text-concrete-600">Loading workers…</p>}
        {workers.state === 'error' && (
          <div role="alert" className="text-danger-600">
            <p>Could not load the workers.</p>
            <button type="button" className="btn-secondary mt-3" onClick={reload}>
              Try again
            </button>
          </div>
        )}
        {workers.state === 'ready' && workers.data.length === 0 && <p className="text-concrete-700">No workers yet. Add one above.</p>}
        {workers.state === 'ready' && workers.data.length > 0 && (
          // relative: the rows' sr-only text is absolutely placed and would otherwise widen the page.
          // Below 640 px each worker is a small card: name and status, the address, then the actions.
          <div className="relative">
            <table className="w-full text-left text-sm max-sm:block">
              <caption className="sr-only">Workers</caption>
              <thead className="border-b border-concrete-200 text-concrete-700 max-sm:sr-only">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">Name</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">Email</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">Status</th>
                  <th scope="col" className="py-2 font-semibold">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="max-sm:block">
                {workers.data.map((worker) => (
                  <tr key={worker.id} className="border-b border-concrete-100 max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:py-2">
                    <td className="py-2 pr-3 font-semibold sm:font-normal">{worker.name ?? <span className="text-concrete-600">No name</span>}</td>
                    <td className="py-2 pr-3 max-sm:col-span-2 max-sm:row-start-2 max-sm:py-0">
                      <EmailText email={worker.email} />
                    </td>
                    <td className="py-2 pr-3 max-sm:col-start-2 max-sm:row-start-1 max-sm:pr-0">
                      <span
                        className={[
                          'rounded-full px-2.5 py-0.5 text-xs font-semibold',
                          worker.active ? 'bg-accent-50 text-accent-800' : 'bg-concrete-50 text-concrete-700',
                        ].join(' ')}
                      >
                        {worker.active ? 'Active' : 'Inactive'}
                      </span>
                    </td>
                    <td className="py-2 max-sm:col-span-2">
                      <div className="flex justify-end gap-2 max-sm:-ml-3 max-sm:justify-start">
                        <button data-change type="button" className="min-h-11 rounded-lg px-3 font-semibold text-ink underline" onClick={() => void change(worker, 'toggle')}>
                          {worker.active ? 'Deactivate' : 'Activate'}
                          <span className="sr-only"> {worker.email}</span>
                        </button>
                        <button data-change type="button" className="min-h-11 rounded-lg px-3 font-semibold text-danger-600 underline" onClick={() => setRemoving(worker)}>
                          Remove<span className="sr-only"> {worker.email}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this worker?"
        text={removing ? `${removing.email} will no longer get the 6 PM e-mail.` : ''}
        confirmLabel="Remove worker"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const worker = removing;
          setRemoving(null);
          if (worker) void change(worker, 'remove');
        }}
      />
    </section>
  );
}
