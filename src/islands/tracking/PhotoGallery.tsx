import { useEffect, useRef, useState } from 'react';
import { formatFileSize } from '../../domain/format.ts';
import { findProjectStep } from '../../domain/project-steps.ts';
import { Lightbox } from './Lightbox.tsx';
import { PHOTO_TYPE_LABEL, fetchPhotos, groupPhotosByStep, photoAlt, photoDownloadUrl, photoUrl, type Photo } from './tracking-api.ts';

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; photos: Photo[] };

/** The booking's photos grouped by step (public-site.md §2), each opening the lightbox. */
export function PhotoGallery({ bookingId }: { bookingId: number }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);

  useEffect(() => {
    let isCurrent = true;
    fetchPhotos(bookingId)
      .then((photos) => isCurrent && setLoad({ state: 'loaded', photos }))
      .catch(() => isCurrent && setLoad({ state: 'failed' }));
    return () => {
      isCurrent = false;
    };
  }, [bookingId]);

  const groups = load.state === 'loaded' ? groupPhotosByStep(load.photos) : [];
  // One running order for the lightbox: the groups' order, as the page shows them.
  const ordered = groups.flatMap((group) => group.photos);

  const close = () => {
    setOpenIndex(null);
    // Focus goes back to the thumbnail that opened the lightbox.
    requestAnimationFrame(() => opener.current?.focus());
  };

  return (
    <section aria-labelledby="photos-heading" className="card p-6 sm:p-8">
      <h3 id="photos-heading" className="text-2xl">
        Project photos
      </h3>
      {load.state === 'loading' && <p className="mt-3 text-concrete-600">Loading photos...</p>}
      {load.state === 'failed' && (
        <p className="mt-3 text-concrete-700" role="status">
          We couldn't load your photos just now. Please refresh the page to try again.
        </p>
      )}
      {load.state === 'loaded' && ordered.length === 0 && (
        <p className="mt-3 text-concrete-700" data-testid="photos-empty">
          No photos yet. We photograph every patch on installation day, and they will appear here.
        </p>
      )}
      {groups.map((group) => (
        <div key={group.step} className="mt-6">
          <h4 className="text-lg">
            Step {group.step}: {findProjectStep(group.step)?.name ?? 'Project'}
          </h4>
          <ul className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
            {group.photos.map((photo) => {
              const index = ordered.indexOf(photo);
              return (
                <li key={photo.id} className="min-w-0">
                  <button
                    type="button"
                    className="group block w-full overflow-hidden rounded-xl border border-concrete-100 bg-concrete-50"
                    aria-label={`Open photo ${index + 1} of ${ordered.length}: ${photoAlt(photo)}`}
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      setOpenIndex(index);
                    }}
                  >
                    <img
                      src={photoUrl(photo)}
                      alt=""
                      loading="lazy"
                      decoding="async"
                      width="320"
                      height="240"
                      className="aspect-[4/3] w-full object-cover transition-transform group-hover:scale-[1.03]"
                    />
                  </button>
                  {photo.hiddenFromCustomer && (
                    <p className="mt-2 inline-block rounded-md bg-warning-50 px-2 py-0.5 text-xs font-bold text-warning-700">Hidden from customer</p>
                  )}
                  <p className="mt-2 text-sm">
                    <span className="font-semibold text-ink">{PHOTO_TYPE_LABEL[photo.photoType]}</span>
                    <span className="text-concrete-600"> · {formatFileSize(photo.fileSize)}</span>
                  </p>
                  {photo.description && <p className="text-sm text-concrete-700">{photo.description}</p>}
                  <a
                    href={photoDownloadUrl(photo)}
                    download={photo.originalName}
                    className="mt-1 inline-flex min-h-11 items-center text-sm font-semibold text-accent-700 underline underline-offset-4"
                  >
                    Download<span className="sr-only"> {photo.originalName}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {openIndex !== null && ordered.length > 0 && (
        <Lightbox photos={ordered} index={openIndex} onIndexChange={setOpenIndex} onClose={close} />
      )}
    </section>
  );
}
