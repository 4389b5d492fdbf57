import { productPageTexts } from '@furniture/contract';
import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import { responsiveImage } from '../../../lib/image-sources.ts';
import { swipeStep } from './swipe.ts';

const MAX_ZOOM = 4;
/** The zoom a double tap (or double click) and the Zoom in button go to. */
const CLOSE_UP_ZOOM = 2.5;

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(1, zoom));
type Point = { x: number; y: number };
const distance = ([a, b]: Point[]) => Math.hypot(a!.x - b!.x, a!.y - b!.y);

/**
 * A product's photos full screen: previous and next (arrow keys and swipes too), zoom by pinching,
 * by a double tap or with the buttons, and a zoomed photo moved by dragging. Escape closes it.
 */
export function PhotoViewer({ photos, name, index, onShow, onClose }: {
  photos: string[];
  name: string;
  index: number;
  onShow: (index: number) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const pointers = useRef(new Map<number, Point>());
  const pinch = useRef<{ distance: number; zoom: number } | null>(null);
  const swipeStart = useRef<number | null>(null);
  const count = photos.length;

  useEffect(() => {
    const element = dialog.current!;
    element.showModal();
    // The page behind stays still, and its scrollbar takes no room from the photo.
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = overflow;
      element.close();
    };
  }, []);
  useEffect(() => setZoom(1), [index]);
  // A new zoom keeps the middle of the photo in the middle of the screen.
  useLayoutEffect(() => {
    const element = frame.current!;
    element.scrollLeft = (element.scrollWidth - element.clientWidth) / 2;
    element.scrollTop = (element.scrollHeight - element.clientHeight) / 2;
  }, [zoom]);

  function handlePointerDown(event: PointerEvent) {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) {
      pinch.current = { distance: distance([...pointers.current.values()]), zoom };
      swipeStart.current = null;
    } else {
      swipeStart.current = event.clientX;
    }
  }

  function handlePointerMove(event: PointerEvent) {
    const previous = pointers.current.get(event.pointerId);
    if (!previous) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch.current && pointers.current.size === 2) {
      setZoom(clampZoom((pinch.current.zoom * distance([...pointers.current.values()])) / pinch.current.distance));
    } else if (zoom > 1) {
      frame.current!.scrollLeft -= event.clientX - previous.x;
      frame.current!.scrollTop -= event.clientY - previous.y;
    }
  }

  function handlePointerEnd(event: PointerEvent) {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    if (swipeStart.current === null || zoom > 1 || count < 2) return;
    const step = swipeStep(event.clientX - swipeStart.current);
    swipeStart.current = null;
    if (step) onShow(index + step);
  }

  return (
    <dialog
      ref={dialog}
      aria-label={`${name}: ${productPageTexts.photoOf(index + 1, count)}`}
      onClose={onClose}
      onKeyDown={(event) => {
        if (count < 2 || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
        onShow(index + (event.key === 'ArrowRight' ? 1 : -1));
        event.preventDefault();
      }}
      className="fixed inset-0 m-0 h-full max-h-none w-full max-w-none border-0 bg-black p-0 text-white backdrop:bg-black"
    >
      <div
        ref={frame}
        data-testid="photo-viewer-frame"
        className="h-full w-full touch-none select-none overflow-hidden"
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={handlePointerEnd}
        onPointerCancel={handlePointerEnd}
        onDoubleClick={() => setZoom(zoom > 1 ? 1 : CLOSE_UP_ZOOM)}
      >
        <img
          {...responsiveImage(photos[index]!, `${Math.round(zoom * 100)}vw`)}
          alt={`${name}, ${productPageTexts.photoOf(index + 1, count).toLowerCase()}`}
          style={{ width: `${zoom * 100}%`, height: `${zoom * 100}%` }}
          className="max-w-none object-contain"
          draggable={false}
        />
      </div>
      <div className="absolute inset-x-0 top-0 flex items-center justify-between gap-2 p-3">
        <p className="badge" aria-live="polite">
          {index + 1} / {count}
        </p>
        <div className="flex gap-2">
          <button type="button" className="btn btn-circle btn-sm" aria-label={productPageTexts.zoomOut} disabled={zoom <= 1} onClick={() => setZoom(1)}>
            −
          </button>
          <button type="button" className="btn btn-circle btn-sm" aria-label={productPageTexts.zoomIn} disabled={zoom >= MAX_ZOOM} onClick={() => setZoom(clampZoom(zoom + 1))}>
            +
          </button>
          <button type="button" className="btn btn-circle btn-sm" aria-label={productPageTexts.closeFullScreen} onClick={() => dialog.current!.close()}>
            ✕
          </button>
        </div>
      </div>
      {count > 1 && (
        <>
          <button type="button" className="btn btn-circle absolute left-3 top-1/2 -translate-y-1/2" aria-label={productPageTexts.previousPhoto} onClick={() => onShow(index - 1)}>
            ‹
          </button>
          <button type="button" className="btn btn-circle absolute right-3 top-1/2 -translate-y-1/2" aria-label={productPageTexts.nextPhoto} onClick={() => onShow(index + 1)}>
            ›
          </button>
        </>
      )}
    </dialog>
  );
}
