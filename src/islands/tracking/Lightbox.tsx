import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { formatFileSize } from '../../domain/format.ts';
import { ICON_PROPS } from '../shared/icon-props.ts';
import { PHOTO_TYPE_LABEL, photoAlt, photoDownloadUrl, photoUrl, type Photo } from './tracking-api.ts';
import { ViewerDialog } from './ViewerDialog.tsx';

/** A horizontal drag at least this long (CSS px) on a touch screen moves to the next or previous photo. */
export const SWIPE_MIN_PX = 50;

/** Which way a pointer's travel moves the lightbox: -1 back, 1 forward, 0 not a swipe. */
export function swipeDirection(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}

interface LightboxProps {
  photos: Photo[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * The photo viewer: a modal <dialog> (the page behind is inert), arrows as buttons and ←/→,
 * Escape closes, Tab stays inside, a swipe moves on a phone. The gallery returns focus to the
 * thumbnail that opened it.
 */
export function Lightbox({ photos, index, onIndexChange, onClose }: LightboxProps) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const photo = photos[index]!;
  const count = photos.length;
  const go = (step: -1 | 1) => onIndexChange((index + step + count) % count);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(-1);
    }
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') start.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const from = start.current;
    start.current = null;
    if (!from) return;
    const direction = swipeDirection(event.clientX - from.x, event.clientY - from.y);
    if (direction) go(direction);
  };

  return (
    <ViewerDialog
      titleId="lightbox-title"
      title={`Photo ${index + 1} of ${count}`}
      isTitleLive
      sizeClassName="sm:h-[90dvh] sm:w-[min(64rem,92vw)]"
      onClose={onClose}
      onKeyDown={onKeyDown}
    >
      <div className="relative flex min-h-0 flex-1 touch-pan-y items-center justify-center px-2 sm:px-16" onPointerDown={onPointerDown} onPointerUp={onPointerUp} onPointerCancel={() => (start.current = null)}>
        <img src={photoUrl(photo)} alt={photoAlt(photo)} className="max-h-full max-w-full rounded-lg object-contain select-none" draggable={false} />
        {count > 1 && (
          <>
            <ArrowButton label="Previous photo" side="left" onClick={() => go(-1)} />
            <ArrowButton label="Next photo" side="right" onClick={() => go(1)} />
          </>
        )}
      </div>
      <div className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="min-w-0">
          <p className="font-semibold">
            {PHOTO_TYPE_LABEL[photo.photoType]} · {formatFileSize(photo.fileSize)}
          </p>
          {photo.description && <p className="text-concrete-200">{photo.description}</p>}
        </div>
        <a href={photoDownloadUrl(photo)} download={photo.originalName} className="btn-accent shrink-0">
          Download<span className="sr-only"> {photo.originalName}</span>
        </a>
      </div>
    </ViewerDialog>
  );
}

function ArrowButton({ label, side, onClick }: { label: string; side: 'left' | 'right'; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={`absolute top-1/2 ${side === 'left' ? 'left-2' : 'right-2'} inline-flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-ink/70 text-paper hover:bg-ink`}
    >
      <svg {...ICON_PROPS}>
        <path d={side === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'} />
      </svg>
      <span className="sr-only">{label}</span>
    </button>
  );
}
