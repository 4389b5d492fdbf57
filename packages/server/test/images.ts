import sharp from 'sharp';

/** Test images made on the spot with sharp, so every fixture is a real, decodable file. */
export function solidImage(width: number, height: number, background = { r: 180, g: 120, b: 60 }) {
  return sharp({ create: { width, height, channels: 3, background } });
}

export const jpegImage = (width = 1200, height = 800) => solidImage(width, height).jpeg().toBuffer();
export const pngImage = (width = 1200, height = 800) => solidImage(width, height).png().toBuffer();
export const webpImage = (width = 1200, height = 800) => solidImage(width, height).webp().toBuffer();
export const avifImage = (width = 1200, height = 800) => solidImage(width, height).avif().toBuffer();

/** A multipart/form-data request body, built the way a browser's FormData is sent. */
export async function multipartPayload(
  fields: Record<string, string>,
  files: Array<{ field?: string; data: Buffer; filename?: string; type?: string }> = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append(file.field ?? 'image', new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.filename ?? 'photo.jpg');
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

/** Random noise compresses badly: for files of a given size, and cuts that fall inside picture data. */
export function noiseImage(width: number, height: number, sigma = 40) {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } });
}
