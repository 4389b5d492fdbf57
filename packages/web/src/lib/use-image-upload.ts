import { type DataResponse, messages, type UploadedImage } from '@furniture/contract';
import { useState } from 'react';
import { upload } from './api-client.ts';
import { notify } from './notify.ts';

/**
 * Uploads an image to the image host and reports progress; toasts the outcome with the messages
 * of section 8. Resolves to the hosted URL, or null when the upload failed.
 */
export function useImageUpload() {
  const [progress, setProgress] = useState<number | null>(null);

  async function uploadImage(file: File): Promise<string | null> {
    const form = new FormData();
    form.append('image', file);
    setProgress(0);
    try {
      const response = await upload<DataResponse<UploadedImage>>('/images', form, {
        onProgress: setProgress,
      });
      const { url } = response.data;
      if (!url) throw new Error(messages.imageUploadFailed);
      notify.success(messages.imageUploadSucceeded);
      return url;
    } catch (error) {
      console.error(error);
      notify.error(messages.imageUploadFailed);
      return null;
    } finally {
      setProgress(null);
    }
  }

  return { uploadImage, progress };
}
