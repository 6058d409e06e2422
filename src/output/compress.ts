import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { OutputFile } from './write-output.js';

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
 */
export async function precompressed(file: OutputFile): Promise<OutputFile[]> {
  const input = typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents;
  const [br, gz] = await Promise.all([
    brotli(input, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
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
