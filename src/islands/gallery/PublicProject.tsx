import { useEffect, useState } from 'react';
import type { PublicProject as Project } from '../../server/services/projects/public-project.ts';
import { formatLongDate } from '../../domain/format.ts';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';

// /gallery/{id} (public-site.md §2; api.md GET /api/gallery/{id}): one completed project's
// finished patches, where and when, and nothing about who booked it. One pre-rendered shell
// serves every id; the island reads the id from the address.

type State = { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'ready'; project: Project };

/** '/gallery/42' or '/gallery/42/' → 42; anything else → null. */
export function projectIdFromPath(pathname: string): number | null {
  const match = /^\/gallery\/(\d{1,10})\/?$/.exec(pathname);
  return match ? Number(match[1]) : null;
}

export function placeName(area: Project['area']): string | null {
  if (area.town && area.region && area.town !== area.region) return `${area.town}, ${area.region}`;
  return area.town ?? area.region;
}

function PublicProject() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const id = projectIdFromPath(window.location.pathname);
    if (id === null) return setState({ kind: 'missing' });
    const controller = new AbortController();
    api<Project>(`/api/gallery/${id}`, { signal: controller.signal })
      .then((project) => {
        setState({ kind: 'ready', project });
        const place = placeName(project.area);
        document.title = `Completed project${place ? ` in ${place}` : ''} | Clean Patch`;
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        setState(failure instanceof ApiError && failure.status === 404 ? { kind: 'missing' } : { kind: 'failed' });
      });
    return () => controller.abort();
  }, []);

  if (state.kind === 'loading') {
    return (
      <div role="status" className="py-10 text-concrete-700">
        Loading the project...
      </div>
    );
  }
  if (state.kind !== 'ready') {
    return (
      <div className="card p-6 sm:p-8">
        <h1 className="text-3xl sm:text-4xl">{state.kind === 'missing' ? 'Project not found' : 'Something went wrong'}</h1>
        <p className="mt-3 text-concrete-700">
          {state.kind === 'missing'
            ? 'This project is not public, or the link is not quite right. Our case studies show more of our work.'
            : 'The project could not be loaded just now. Please try again in a moment.'}
        </p>
        <a href="/gallery" className="btn-primary mt-6">
          See Our Work
        </a>
      </div>
    );
  }

  const { project } = state;
  const place = placeName(project.area);
  const headline = project.area.town ?? project.area.region;
  return (
    <article aria-labelledby="project-title">
      <p className="eyebrow">Completed project</p>
      <h1 id="project-title" className="mt-2 text-4xl sm:text-5xl">
        {headline ? `Reverse graffiti in ${headline}` : 'A completed reverse graffiti campaign'}
      </h1>
      <dl className="mt-6 flex flex-wrap gap-3">
        <Fact label="Patches" value={String(project.patches)} />
        {project.completionDate && <Fact label="Completed" value={formatLongDate(project.completionDate)} />}
        {place && <Fact label="Area" value={place} />}
      </dl>

      <h2 className="mt-10 text-2xl">The finished patches</h2>
      {project.photos.length === 0 ? (
        <p className="mt-3 text-concrete-700">Photos of this project will appear here soon.</p>
      ) : (
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {project.photos.map((photo, index) => (
            <li key={photo.id} className="card overflow-hidden">
              <a href={`/uploads/${encodeURIComponent(photo.fileName)}`} className="block focus-visible:outline-offset-[-3px]">
                <img
                  src={`/uploads/${encodeURIComponent(photo.fileName)}`}
                  alt={`Finished patch ${index + 1}`}
                  loading={index < 3 ? 'eager' : 'lazy'}
                  className="aspect-[4/3] w-full bg-concrete-100 object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}

      <div className="mt-12 flex flex-col gap-3 sm:flex-row">
        <a href="/booking" className="btn-primary">
          Book Your Patches
        </a>
        <a href="/gallery" className="btn-secondary">
          See more of our work
        </a>
      </div>
    </article>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-concrete-100 bg-white px-4 py-3">
      <dt className="text-xs font-semibold tracking-wide text-concrete-600 uppercase">{label}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
    </div>
  );
}

export default withErrorBoundary(PublicProject);
