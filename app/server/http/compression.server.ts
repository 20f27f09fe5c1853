import type { ServerResponse } from "node:http";
import { constants } from "node:zlib";
import compression from "compression";

/** A file the response asks the browser to save: the console's CSV exports, a busy year's leads about 350 MB. */
const isDownload = (res: ServerResponse) => String(res.getHeader("Content-Disposition") ?? "").startsWith("attachment");

/**
 * Dynamic responses compressed as the client accepts (brotli, else gzip). Downloads at each format's fastest level:
 * compressing a busy year's leads CSV took 8.1 s of a core at brotli's default quality (4), which browsers get, and
 * 2.0 s at quality 1, for 59 MB instead of 50 (gzip: 6.6-6.9 s at level 6, 3.4-3.7 s at 1; 54 and 61 MB). On a small
 * server that time is taken from lead intake, and the download ran a quarter faster (BENCHMARKS, "Downloads
 * compressed at the fastest level"). Pages keep the defaults: they are small, and read on phones. Prerendered pages
 * and built files are compressed ahead of time.
 */
export const responseCompression = [
  compression({
    filter: (req, res) => isDownload(res) && compression.filter(req, res),
    level: 1,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
  }),
  // Registered after the downloads' one, this one decides first: a response it compresses is passed over by the
  // other as already encoded. Its `flush` is the one responses get: a page goes out as it renders, a download as its
  // compressor fills.
  compression({ filter: (req, res) => !isDownload(res) && compression.filter(req, res) }),
];
