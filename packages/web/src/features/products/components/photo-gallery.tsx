import { productPageTexts } from '@furniture/contract';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { responsiveImage, thumbnailOf } from '../../../lib/image-sources.ts';
import { PhotoViewer } from './photo-viewer.tsx';
import { swipeStep } from './swipe.ts';

/**
 * A product's photos: one large, with previous and next (arrow keys and swipes too) and thumbnails;
 * a tap on the photo, or the full-screen button, opens them full screen.
 */
export function PhotoGallery({ photos, name }: { photos: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const swipeStart = useRef<number | null>(null);
  // A swipe ends with a click on the photo, which must not open the full-screen view.
  const swiped = useRef(false);
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
    const step = swipeStep(event.clientX - swipeStart.current);
    swipeStart.current = null;
    swiped.current = step !== 0;
    if (step) show(index + step);
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
          className="h-full w-full cursor-zoom-in object-contain"
          draggable={false}
          onClick={() => !swiped.current && setFullScreen(true)}
        />
        <button type="button" className="btn btn-circle btn-sm absolute right-2 top-2" aria-label={productPageTexts.viewFullScreen} onClick={() => setFullScreen(true)}>
          ⤢
        </button>
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
      {fullScreen && <PhotoViewer photos={photos} name={name} index={index} onShow={show} onClose={() => setFullScreen(false)} />}
    </div>
  );
}
