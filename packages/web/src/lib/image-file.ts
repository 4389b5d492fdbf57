import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES, uiTexts } from '@furniture/contract';
import { z } from 'zod';

/** The image types the image host accepts, for a file input's accept. */
export const IMAGE_FILE_ACCEPT = IMAGE_ACCEPTED_TYPES.join(',');

/** Why the image host would refuse this file, told as soon as it is chosen; undefined when it would take it. */
export function imageFileProblem(file: File): string | undefined {
  if (!(IMAGE_ACCEPTED_TYPES as readonly string[]).includes(file.type)) return uiTexts.imageFile.wrongType;
  if (file.size > IMAGE_MAX_BYTES) return uiTexts.imageFile.tooLarge(IMAGE_MAX_BYTES / 1024 / 1024);
  return undefined;
}

/** A file input holding one image the image host will take; `requiredMessage` when none is chosen. */
export function imageFileList(requiredMessage: string) {
  return z
    .custom<FileList>((files) => typeof FileList !== 'undefined' && files instanceof FileList && files.length > 0, requiredMessage)
    .superRefine((files, context) => {
      const file = (files as FileList | undefined)?.[0];
      const problem = file ? imageFileProblem(file) : undefined;
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
}
