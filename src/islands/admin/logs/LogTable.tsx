import { Fragment, useState } from 'react';
import type { ChannelLog, Severity } from './log-api.ts';

const TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Europe/London' });

// Badges carry the word, not only a colour (design.md: badges with text).
const SEVERITY_STYLE: Record<Severity, string> = {
  info: 'bg-concrete-100 text-concrete-800',
  warning: 'bg-warning-50 text-warning-700 ring-1 ring-warning-700/30',
  error: 'bg-danger-50 text-danger-600 ring-1 ring-danger-600/30',
  critical: 'bg-danger-600 text-white',
};

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${SEVERITY_STYLE[severity]}`}>{severity}</span>;
}

function hasMetadata(metadata: unknown): boolean {
  if (metadata === null || metadata === undefined) return false;
  return typeof metadata !== 'object' || Object.keys(metadata as object).length > 0;
}

/** Newest first: a table from 768 px; below that each entry is a card, so nothing sits off-screen. */
export function LogTable({ logs }: { logs: ChannelLog[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    // relative: the sr-only header inside must stay in this scroller, or it widens the phone page.
    <div className="card relative md:overflow-x-auto" role="region" aria-label="Channel logs" tabIndex={0}>
      <table className="w-full text-left text-sm max-md:block md:min-w-[48rem]">
        <thead className="border-b border-concrete-200 text-concrete-600 max-md:sr-only">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">Time</th>
            <th scope="col" className="px-3 py-2 font-semibold">Channel</th>
            <th scope="col" className="px-3 py-2 font-semibold">Severity</th>
            <th scope="col" className="px-3 py-2 font-semibold">Action</th>
            <th scope="col" className="px-3 py-2 font-semibold">Entity</th>
            <th scope="col" className="px-3 py-2 font-semibold">Details</th>
            <th scope="col" className="px-3 py-2 font-semibold">
              <span className="sr-only">Metadata</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-md:block">
          {logs.map((log) => {
            const isOpen = open.has(log.id);
            const metadataId = `log-metadata-${log.id}`;
            return (
              <Fragment key={log.id}>
                <tr
                  className="border-b border-concrete-100 align-top max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:gap-x-2 max-md:px-1 max-md:py-2"
                  data-testid="log-row"
                >
                  <td className="px-3 py-2 whitespace-nowrap tabular-nums max-md:py-0 max-md:font-semibold">
                    <time dateTime={log.timestamp}>{TIME.format(new Date(log.timestamp))}</time>
                  </td>
                  <td className="px-3 py-2 max-md:col-start-1 max-md:row-start-2 max-md:py-0 max-md:text-concrete-600">{log.channel}</td>
                  <td className="px-3 py-2 max-md:col-start-2 max-md:row-start-1 max-md:py-0">
                    <SeverityBadge severity={log.severity} />
                  </td>
                  <td className="px-3 py-2 font-mono text-xs max-md:col-span-2 max-md:py-0.5 max-md:break-words md:whitespace-nowrap">{log.action}</td>
                  <td className={`px-3 py-2 max-md:col-span-2 max-md:py-0 max-md:text-concrete-600 md:whitespace-nowrap ${log.entityType ? '' : 'max-md:hidden'}`}>
                    {log.entityType ? `${log.entityType}${log.entityId ? ` #${log.entityId}` : ''}` : '—'}
                  </td>
                  <td className="px-3 py-2 [overflow-wrap:anywhere] max-md:col-span-2 max-md:py-1">
                    {log.details ?? '—'}
                    {log.userId || log.ipAddress ? (
                      <span className="mt-1 block text-xs text-concrete-600">
                        {[log.userId && `by ${log.userName ?? log.userId}`, log.ipAddress && `client ${log.ipAddress}`].filter(Boolean).join(' · ')}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 text-right max-md:col-span-2 max-md:-ml-2 max-md:py-0 max-md:text-left max-md:empty:hidden">
                    {hasMetadata(log.metadata) ? (
                      <button
                        type="button"
                        className="min-h-11 rounded-lg px-2 text-xs font-semibold whitespace-nowrap text-accent-700 underline-offset-2 hover:underline"
                        aria-expanded={isOpen}
                        aria-controls={isOpen ? metadataId : undefined}
                        onClick={() => toggle(log.id)}
                      >
                        {isOpen ? 'Hide metadata' : 'Show metadata'}
                      </button>
                    ) : null}
                  </td>
                </tr>
                {isOpen ? (
                  <tr id={metadataId} className="border-b border-concrete-100 bg-concrete-50 max-md:block">
                    <td colSpan={7} className="px-3 py-2 max-md:block">
                      <pre className="overflow-x-auto font-mono text-xs whitespace-pre-wrap">{JSON.stringify(log.metadata, null, 2)}</pre>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
