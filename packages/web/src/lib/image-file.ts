import { IMAGE_MAX_BYTES } from '@furniture/contract';
import { z } from 'zod';

/** The image types the image host accepts. */
export const IMAGE_FILE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';

/** A file input holding one image the image host will take; `requiredMessage` when none is chosen. */
export function imageFileList(requiredMessage: string) {
  return z
    .custom<FileList>((files) => typeof FileList !== 'undefined' && files instanceof FileList && files.length > 0, requiredMessage)
    .refine(
      (files) => ((files as FileList | undefined)?.[0]?.size ?? 0) <= IMAGE_MAX_BYTES,
      `Choose an image of at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
    );
}
