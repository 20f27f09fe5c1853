import { writeFileSync } from "node:fs";
import { crc32, deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Writes a PNG (as Chromium encodes a screenshot: quickly) with its image data deflated again at zlib's strongest
 * level, in one chunk. The pixels are the same; the file is smaller.
 */
export function compressPng(png: Buffer, path: string): void {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  const kept: Buffer[] = [];
  const imageData: Buffer[] = [];
  let end: Buffer | undefined;
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const whole = png.subarray(offset, offset + 12 + length);
    if (type === "IDAT") imageData.push(png.subarray(offset + 8, offset + 8 + length));
    else if (type === "IEND") end = whole;
    else kept.push(whole);
    offset += 12 + length;
  }
  if (imageData.length === 0 || !end) throw new Error("a PNG without image data");
  const pixels = inflateSync(Buffer.concat(imageData));
  const deflated = deflateSync(pixels, { level: 9, memLevel: 9 });
  writeFileSync(path, Buffer.concat([SIGNATURE, ...kept, chunk("IDAT", deflated), end]));
}
