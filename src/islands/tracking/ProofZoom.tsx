import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { ICON_PROPS } from '../shared/icon-props.ts';
import { ViewerDialog } from './ViewerDialog.tsx';

// The stencil proof full size, to check every letter before approving it on a phone. In the
// viewers' modal frame (ViewerDialog: focus inside, Escape closes, focus back on the proof).
// Pinch, + and −, the keyboard's + - 0, or a double tap zoom; one finger pans (the box scrolls).

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;
const ZOOM_STEP = 1.5;

export const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

interface ProofZoomProps {
  src: string;
  alt: string;
  title: string;
  onClose: () => void;
  /** Links under the picture, e.g. "Open the full PDF". */
  children?: ReactNode;
}

/** Where a zoom is anchored: a point of the box (CSS px from its top left) that stays put. */
type Anchor = { x: number; y: number };

export function ProofZoom({ src, alt, title, onClose, children }: ProofZoomProps) {
  const box = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(MIN_ZOOM);
  // The picture's width at zoom 1: the whole of it fits the box.
  const [fitWidth, setFitWidth] = useState<number | null>(null);
  const natural = useRef<{ width: number; height: number } | null>(null);
  const zoomNow = useRef(MIN_ZOOM);
  const pendingScroll = useRef<{ left: number; top: number } | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number; zoom: number } | null>(null);

  const measure = () => {
    const element = box.current;
    const size = natural.current;
    if (!element || !size) return;
    // An SVG without its own size reports 0 x 0: it fills the width.
    setFitWidth(size.width && size.height ? Math.min(element.clientWidth, (element.clientHeight * size.width) / size.height) : element.clientWidth);
  };
  useEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  /** Sets the zoom, keeping the picture's point under `anchor` (default: the box's centre) in place. */
  const zoomTo = (next: number, anchor?: Anchor) => {
    const element = box.current;
    const previous = zoomNow.current;
    const target = clampZoom(next);
    if (!element || target === previous) return;
    const at = anchor ?? { x: element.clientWidth / 2, y: element.clientHeight / 2 };
    const ratio = target / previous;
    pendingScroll.current = { left: (element.scrollLeft + at.x) * ratio - at.x, top: (element.scrollTop + at.y) * ratio - at.y };
    zoomNow.current = target;
    setZoom(target);
  };

  useLayoutEffect(() => {
    const element = box.current;
    const scroll = pendingScroll.current;
    pendingScroll.current = null;
    if (element && scroll) {
      element.scrollLeft = Math.max(0, scroll.left);
      element.scrollTop = Math.max(0, scroll.top);
    }
  }, [zoom]);

  const pointInBox = (x: number, y: number): Anchor => {
    const rect = box.current!.getBoundingClientRect();
    return { x: x - rect.left, y: y - rect.top };
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      zoomTo(zoomNow.current * ZOOM_STEP);
    } else if (event.key === '-') {
      event.preventDefault();
      zoomTo(zoomNow.current / ZOOM_STEP);
    } else if (event.key === '0') {
      event.preventDefault();
      zoomTo(MIN_ZOOM);
    }
  };

  // Two fingers on the picture zoom it around their midpoint; one finger scrolls the box (the
  // browser's own panning, as touch-action allows).
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse') return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [Anchor, Anchor];
      pinch.current = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: zoomNow.current };
    }
  };
  const onPointerMove = (event: PointerEvent) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const start = pinch.current;
    if (!start || pointers.current.size !== 2) return;
    const [a, b] = [...pointers.current.values()] as [Anchor, Anchor];
    zoomTo(start.zoom * (Math.hypot(a.x - b.x, a.y - b.y) / start.distance), pointInBox((a.x + b.x) / 2, (a.y + b.y) / 2));
  };
  const onPointerEnd = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };

  const zoomButton = 'inline-flex size-11 items-center justify-center rounded-full hover:bg-white/10 disabled:opacity-40';
  return (
    <ViewerDialog
      titleId="proof-zoom-title"
      title={title}
      sizeClassName="sm:h-[92dvh] sm:w-[min(80rem,94vw)]"
      onClose={onClose}
      onKeyDown={onKeyDown}
      actions={
        <>
          <button type="button" className={zoomButton} onClick={() => zoomTo(zoomNow.current / ZOOM_STEP)} disabled={zoom <= MIN_ZOOM}>
            <svg {...ICON_PROPS}>
              <path d="M5 12h14" />
            </svg>
            <span className="sr-only">Zoom out</span>
          </button>
          <span className="w-12 text-center text-sm tabular-nums" aria-live="polite" data-testid="proof-zoom-level">
            {Math.round(zoom * 100)}%
          </span>
          <button type="button" className={zoomButton} onClick={() => zoomTo(zoomNow.current * ZOOM_STEP)} disabled={zoom >= MAX_ZOOM}>
            <svg {...ICON_PROPS}>
              <path d="M12 5v14M5 12h14" />
            </svg>
            <span className="sr-only">Zoom in</span>
          </button>
        </>
      }
    >
      <div
        ref={box}
        // Focusable, so the arrow keys scroll a zoomed picture.
        tabIndex={0}
        role="region"
        aria-label="The proof, zoomable"
        className="flex min-h-0 flex-1 touch-pan-x touch-pan-y overflow-auto overscroll-contain bg-white"
        data-testid="proof-zoom-box"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onDoubleClick={(event) => zoomTo(zoomNow.current > MIN_ZOOM ? MIN_ZOOM : 2, pointInBox(event.clientX, event.clientY))}
      >
        {/* m-auto centres the picture while it is smaller than the box, and lets it scroll from its edge once larger. */}
        <img
          src={src}
          alt={alt}
          draggable={false}
          className="m-auto h-auto max-w-none shrink-0 select-none"
          style={fitWidth ? { width: `${fitWidth * zoom}px` } : { maxWidth: '100%', maxHeight: '100%' }}
          onLoad={(event) => {
            natural.current = { width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight };
            measure();
          }}
        />
      </div>
      <div className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="text-sm text-concrete-200">Pinch or use + and − to zoom; drag to look around.</p>
        {children}
      </div>
    </ViewerDialog>
  );
}
