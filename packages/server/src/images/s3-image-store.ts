import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { IMAGE_CONTENT_TYPE, IMMUTABLE_CACHE_CONTROL, type ImageStore } from './image-store.ts';

type S3Settings = NonNullable<Config['s3']>;

/**
 * The public address of an object: S3_PUBLIC_URL (a CDN or the bucket's public domain) when
 * set; otherwise the endpoint in path style, or AWS's virtual-hosted address.
 */
function publicBaseOf(s3: S3Settings): string {
  if (s3.publicUrl) return s3.publicUrl.replace(/\/$/, '');
  if (s3.endpoint) return `${s3.endpoint.replace(/\/$/, '')}/${s3.bucket}`;
  return `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
}

/**
 * Images in any S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Backblaze B2...), for
 * several app servers. The bucket serves the objects itself, so they must be publicly readable
 * there (a bucket policy or a CDN in front); the app only writes and deletes.
 */
export function createS3ImageStore(s3: S3Settings): ImageStore {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    // Stores other than AWS are addressed by path (endpoint/bucket/key).
    forcePathStyle: Boolean(s3.endpoint),
    credentials:
      s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: several compatible stores reject the optional ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = publicBaseOf(s3);
  return {
    kind: 's3',
    async save(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: key,
          Body: data,
          ContentType: IMAGE_CONTENT_TYPE,
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
      );
    },
    // One DELETE per key: the batch call needs a body checksum that several compatible stores
    // handle differently, and a missing key already answers success.
    async remove(keys) {
      await Promise.all(keys.map((Key) => client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key }))));
    },
    urlOf: (key) => `${base}/${key}`,
  };
}
