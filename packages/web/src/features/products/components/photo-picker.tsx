import { addProductTexts, PRODUCT_PHOTOS_MAX } from '@furniture/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { IMAGE_FILE_ACCEPT, imageFileProblem } from '../../../lib/image-file.ts';

/** A photo of the listing: a file chosen now (previewed from memory), or one already on the listing (its URL). */
export interface PickedPhoto {
  file?: File;
  preview: string;
  name: string;
}

/** The photos a listing already has, to keep, reorder or remove while editing. */
export const currentPhotos = (urls: string[]): PickedPhoto[] =>
  urls.map((url, index) => ({ preview: url, name: addProductTexts.currentPhoto(index + 1) }));

const release = (photo: PickedPhoto) => {
  if (photo.file) URL.revokeObjectURL(photo.preview);
};

/**
 * Chooses up to PRODUCT_PHOTOS_MAX photos with previews; they can be reordered and removed. The
 * first is the cover. Files are only checked here; the form uploads the new ones when it is sent.
 */
export function PhotoPicker({
  photos,
  onChange,
  error,
  progress,
}: {
  photos: PickedPhoto[];
  onChange: (photos: PickedPhoto[]) => void;
  error?: string | undefined;
  progress?: number | null;
}) {
  const inputId = useId();
  const errorId = useId();
  const [localError, setLocalError] = useState<string | null>(null);

  // Previews are object URLs: released when a photo is removed or the form goes away.
  const shown = useRef(photos);
  shown.current = photos;
  useEffect(() => () => shown.current.forEach(release), []);

  function add(files: FileList | null) {
    const chosen = Array.from(files ?? []);
    const problem = chosen.map(imageFileProblem).find((reason) => reason !== undefined);
    const usable = chosen.filter((file) => imageFileProblem(file) === undefined);
    const room = PRODUCT_PHOTOS_MAX - photos.length;
    setLocalError(problem ?? (usable.length > room ? addProductTexts.tooManyPhotos(PRODUCT_PHOTOS_MAX) : null));
    onChange([...photos, ...usable.slice(0, room).map((file) => ({ file, preview: URL.createObjectURL(file), name: file.name }))]);
  }

  function move(from: number, to: number) {
    const next = [...photos];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  }

  function remove(at: number) {
    release(photos[at]!);
    onChange(photos.filter((_, index) => index !== at));
  }

  // What was just chosen speaks before the message of the last submit.
  const message = localError ?? error;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 font-semibold">{addProductTexts.photos}</legend>
      <p className="text-sm" id={`${inputId}-hint`}>
        {addProductTexts.photosHint(PRODUCT_PHOTOS_MAX)}
      </p>
      <label htmlFor={inputId} className="sr-only">
        {addProductTexts.addPhotos}
      </label>
      <input
        id={inputId}
        type="file"
        multiple
        accept={IMAGE_FILE_ACCEPT}
        disabled={photos.length >= PRODUCT_PHOTOS_MAX}
        aria-describedby={`${inputId}-hint${message ? ` ${errorId}` : ''}`}
        aria-invalid={message ? true : undefined}
        className={`file-input w-full ${message ? 'file-input-error' : ''}`}
        onChange={(event) => {
          add(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      {message && <FieldError id={errorId} message={message} />}
      {progress !== null && progress !== undefined && (
        <progress className="progress progress-primary w-full" value={progress} max={100} aria-label={`${addProductTexts.photos}: uploading`}>
          {progress}%
        </progress>
      )}
      {photos.length > 0 && (
        <ol className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={addProductTexts.photos}>
          {photos.map((photo, index) => (
            <li key={photo.preview} className="flex flex-col gap-1 rounded-box border border-base-300 p-2">
              <img src={photo.preview} alt={`${photo.name}${index === 0 ? ` (${addProductTexts.cover})` : ''}`} className="aspect-[4/3] w-full rounded object-cover" />
              {index === 0 && <span className="badge badge-primary badge-sm">{addProductTexts.cover}</span>}
              <div className="flex justify-between gap-1">
                <button type="button" className="btn btn-xs" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={`${addProductTexts.moveEarlier}: ${photo.name}`}>
                  ←
                </button>
                <button type="button" className="btn btn-xs" onClick={() => remove(index)} aria-label={`${addProductTexts.removePhoto}: ${photo.name}`}>
                  ✕
                </button>
                <button type="button" className="btn btn-xs" disabled={index === photos.length - 1} onClick={() => move(index, index + 1)} aria-label={`${addProductTexts.moveLater}: ${photo.name}`}>
                  →
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
