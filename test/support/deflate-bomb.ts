import { constants, createDeflate } from 'node:zlib';

/**
 * A zlib stream (what FastCast's `~c: 1` payloads hold) of `inflatedBytes` that inflates to a JSON
 * array padded with spaces: valid JSON, so only a cap on the inflated size stops it. Built by
 * streaming one reused 1 MiB chunk through the deflater, so the inflated size is never held in
 * memory; run-length encoding reaches deflate's best ratio (about 1030:1: 1 GiB in about 1 MB).
 */
export async function deflateBomb(inflatedBytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9, strategy: constants.Z_RLE, chunkSize: 1 << 16 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  const chunk = Buffer.alloc(1 << 20, 0x20);
  let left = inflatedBytes - 2;
  deflate.write('[');
  while (left > 0) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(']');
  await ended;
  return Buffer.concat(parts);
}

const built = new Map<number, Promise<Buffer>>();

/** `deflateBomb`, built once per size in a process. */
export function cachedDeflateBomb(inflatedBytes: number): Promise<Buffer> {
  let bomb = built.get(inflatedBytes);
  if (!bomb) built.set(inflatedBytes, (bomb = deflateBomb(inflatedBytes)));
  return bomb;
}
