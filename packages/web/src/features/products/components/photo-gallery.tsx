import { productPageTexts } from '@furniture/contract';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { responsiveImage, thumbnailOf } from '../../../lib/image-sources.ts';

/** A horizontal move of at least this many pixels is a swipe. */
const SWIPE_PX = 40;

/** A product's photos: one large, with previous and next (arrow keys and swipes too) and thumbnails. */
export function PhotoGallery({ photos, name }: { photos: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const swipeStart = useRef<number | null>(null);
  const count = photos.length;
  const show = (next: number) => setIndex((next + count) % count);

  function handleKey(event: KeyboardEvent) {
    if (event.key === 'ArrowRight') show(index + 1);
    else if (event.key === 'ArrowLeft') show(index - 1);
    else return;
    event.preventDefault();
  }

  function handlePointerUp(event: PointerEvent) {
    if (swipeStart.current === null) return;
    const moved = event.clientX - swipeStart.current;
    swipeStart.current = null;
    if (Math.abs(moved) >= SWIPE_PX) show(moved < 0 ? index + 1 : index - 1);
  }

  return (
    <div className="flex flex-col gap-3">
      <div
        role="group"
        aria-roledescription="carousel"
        aria-label={`${name}: ${productPageTexts.photoOf(index + 1, count)}`}
        tabIndex={count > 1 ? 0 : undefined}
        onKeyDown={handleKey}
        onPointerDown={(event) => (swipeStart.current = event.clientX)}
        onPointerUp={handlePointerUp}
        onPointerCancel={() => (swipeStart.current = null)}
        className="relative aspect-[4/3] touch-pan-y overflow-hidden rounded-box bg-base-200"
        data-testid="gallery"
      >
        {/* The page's largest picture: fetched first, before the scripts' other requests. */}
        <img
          {...responsiveImage(photos[index]!, '(min-width: 1024px) 600px, 100vw')}
          alt={`${name}, ${productPageTexts.photoOf(index + 1, count).toLowerCase()}`}
          width={800}
          height={600}
          fetchPriority="high"
          className="h-full w-full object-contain"
          draggable={false}
        />
        {count > 1 && (
          <>
            <button type="button" className="btn btn-circle btn-sm absolute left-2 top-1/2 -translate-y-1/2" aria-label={productPageTexts.previousPhoto} onClick={() => show(index - 1)}>
              ‹
            </button>
            <button type="button" className="btn btn-circle btn-sm absolute right-2 top-1/2 -translate-y-1/2" aria-label={productPageTexts.nextPhoto} onClick={() => show(index + 1)}>
              ›
            </button>
            <p className="badge absolute bottom-2 right-2" aria-live="polite">
              {index + 1} / {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="flex gap-2 overflow-x-auto">
          {photos.map((photo, position) => (
            <li key={`${photo}-${position}`}>
              <button
                type="button"
                onClick={() => setIndex(position)}
                aria-label={productPageTexts.showPhoto(position + 1)}
                aria-current={position === index}
                className={`block h-16 w-20 overflow-hidden rounded border-2 ${position === index ? 'border-primary' : 'border-transparent'}`}
              >
                <img src={thumbnailOf(photo)} alt="" width={80} height={64} className="h-full w-full object-cover" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
