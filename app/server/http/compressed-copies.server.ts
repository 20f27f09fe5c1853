import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotliCompressed = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * What the build sends compressed (every prerendered page, every script and stylesheet) is compressed once, at
 * build time and at the highest quality, and stored beside the file with its encoding's suffix. The first view has
 * to fit in the connection's first round trip on a slow phone, and Brotli at quality 11 is about a sixth smaller
 * than the quality a server can afford per response; a stored copy also costs the server nothing to send.
 * Best first.
 */
export const STORED_ENCODINGS = {
  br: {
    suffix: ".br",
    compress: (bytes: Buffer) =>
      brotliCompressed(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  },
  gzip: { suffix: ".gz", compress: (bytes: Buffer) => gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }) },
} as const;
export type StoredEncoding = keyof typeof STORED_ENCODINGS;
export const storedEncodings = Object.keys(STORED_ENCODINGS) as StoredEncoding[];

/**
 * Writes each file's compressed copies beside it (`app.js.br` and `app.js.gz` beside `app.js`), on the thread pool:
 * Brotli at quality 11 takes about two seconds of the build's scripts and stylesheets on one core.
 */
export async function writeCompressedCopies(files: string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      for (const { suffix, compress } of Object.values(STORED_ENCODINGS))
        await writeFile(`${file}${suffix}`, await compress(bytes));
    }),
  );
}
