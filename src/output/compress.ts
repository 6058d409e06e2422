import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text that hosts serve compressed; host configuration files are not served at all. */
const COMPRESSIBLE = /\.(html|css|js|xml|txt|svg|json)$/;

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.test(file) && !file.startsWith('_');
}

/**
 * `.br` and `.gz` beside a text file, so a host (nginx's brotli_static and gzip_static, preview)
 * sends them as they are instead of compressing each response. zlib runs on libuv's thread
 * pool, so several files compress at once.
 *
 * Brotli's window is sized to the file (`brotliWindow`): at quality 9 the default 4 MB window
 * spent 40–80 ms per 10 KB page preparing its tables, and a window that holds the whole file
 * finds every match the large one does, so the size is the same.
 */
export async function precompressed<F extends { file: string; contents: string | Buffer }>(
  file: F,
): Promise<{ file: string; contents: Buffer }[]> {
  const input = typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents;
  const [br, gz] = await Promise.all([
    brotli(input, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_LGWIN]: brotliWindow(input.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(input, { level: 9 }),
  ]);
  return [
    { file: `${file.file}.br`, contents: br },
    { file: `${file.file}.gz`, contents: gz },
  ];
}

/** The smallest brotli window (as a power of two, 16 to 24) that holds `size` bytes. */
export function brotliWindow(size: number): number {
  let bits = 16;
  while (bits < 24 && 2 ** bits - 16 < size) bits += 1;
  return bits;
}
