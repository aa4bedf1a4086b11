// Checks that a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes) is not blank: prints its size and
// colours, exits 1 when fewer than MIN_COLOURS distinct colours or under 1 % of pixels differ from the corner pixel.
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";

const MIN_COLOURS = 8;
const file = process.argv[2];
const buf = readFileSync(file);
if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error(`${file}: not a PNG`);
let off = 8,
  width = 0,
  height = 0,
  colourType = 0;
const idat = [];
while (off < buf.length) {
  const len = buf.readUInt32BE(off);
  const type = buf.toString("latin1", off + 4, off + 8);
  const data = buf.subarray(off + 8, off + 8 + len);
  if (type === "IHDR") {
    width = data.readUInt32BE(0);
    height = data.readUInt32BE(4);
    if (data[8] !== 8 || data[12] !== 0) throw new Error(`${file}: only 8-bit non-interlaced PNGs are checked`);
    colourType = data[9];
  } else if (type === "IDAT") idat.push(data);
  off += 12 + len;
}
const bpp = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
if (bpp === 0) throw new Error(`${file}: colour type ${colourType} (only RGB and RGBA are checked)`);
const raw = inflateSync(Buffer.concat(idat));
const stride = width * bpp;
const px = new Uint8Array(height * stride);
for (let y = 0; y < height; y++) {
  const f = raw[y * (stride + 1)];
  for (let x = 0; x < stride; x++) {
    const v = raw[y * (stride + 1) + 1 + x];
    const a = x >= bpp ? px[y * stride + x - bpp] : 0;
    const b = y > 0 ? px[(y - 1) * stride + x] : 0;
    const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
    let p = 0;
    if (f === 1) p = a;
    else if (f === 2) p = b;
    else if (f === 3) p = (a + b) >> 1;
    else if (f === 4) {
      const q = a + b - c,
        pa = Math.abs(q - a),
        pb = Math.abs(q - b),
        pc = Math.abs(q - c);
      p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    px[y * stride + x] = (v + p) & 255;
  }
}
const colours = new Set();
let differ = 0;
for (let k = 0; k < width * height; k++) {
  let key = 0;
  for (let j = 0; j < 3; j++) key = key * 256 + px[k * bpp + j];
  if (colours.size < 100000) colours.add(key);
  for (let j = 0; j < 3; j++)
    if (px[k * bpp + j] !== px[j]) {
      differ++;
      break;
    }
}
const share = differ / (width * height);
console.log(
  `${file}: ${width}x${height}, ${colours.size} colours, ${(share * 100).toFixed(1)} % of pixels not background`,
);
if (colours.size < MIN_COLOURS || share < 0.01) {
  console.error(`${file}: the page rendered blank`);
  process.exit(1);
}
