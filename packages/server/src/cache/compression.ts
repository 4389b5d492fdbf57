import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** Answers smaller than this go out as they are: compressing saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

export type Encoding = 'br' | 'gzip' | 'deflate';

/** Quality 5 brotli and level 6 gzip: most of the saving, in a few milliseconds, once per answer. */
export const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(zlib.brotliCompress)(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(zlib.gzip)(body, { level: 6 }),
  deflate: (body) => promisify(zlib.deflate)(body, { level: 6 }),
};

/** The best encoding the request accepts (br, then gzip, then deflate); undefined for none. */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  if (accepted.has('deflate')) return 'deflate';
  return undefined;
}

/** The encoding a cached body goes out in for a request: none under the threshold. */
export const encodingFor = (body: Buffer, acceptEncoding: string | undefined): Encoding | undefined =>
  body.length >= COMPRESSION_THRESHOLD ? acceptedEncoding(acceptEncoding) : undefined;

/** A cached body's compressed copies, each made once, when first asked for. */
export type CompressedCopies = Partial<Record<Encoding, Promise<Buffer>>>;

/**
 * The copy of a cached body a request gets (`encodingFor`), compressed once per body and not per
 * request, with the headers that say so. The compression plugin leaves an answer alone once it
 * carries a content-encoding, so these are the very bytes that go out.
 */
export async function encodedCopy(reply: FastifyReply, body: Buffer, copies: CompressedCopies, encoding: Encoding | undefined): Promise<Buffer> {
  if (!encoding) return body;
  reply.header('content-encoding', encoding);
  return (copies[encoding] ??= compressors[encoding](body));
}

/** An answer that may go out compressed differs by the request's Accept-Encoding. */
export function varyByEncoding(reply: FastifyReply, body: Buffer) {
  if (body.length < COMPRESSION_THRESHOLD) return;
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
}
