import sharp, { type FormatEnum, type Metadata } from 'sharp';
import { AppError } from '../../lib/errors.js';

// Thumbnails are made once per upload; sharp's operation cache would only hold memory between them.
sharp.cache(false);

/** Dimensions of an image as people see it (EXIF orientation applied). */
export interface ImageSize {
  width: number;
  height: number;
}

export interface Thumbnail extends ImageSize {
  data: Buffer;
  /** MIME type and extension (no dot) of the thumbnail's format. */
  type: string;
  extension: string;
}

/** Output format of a thumbnail by the original's format: the same where sharp writes it, else PNG. */
const THUMB_FORMAT: Readonly<Record<string, { format: keyof FormatEnum; type: string; extension: string }>> = {
  jpeg: { format: 'jpeg', type: 'image/jpeg', extension: 'jpg' },
  png: { format: 'png', type: 'image/png', extension: 'png' },
  webp: { format: 'webp', type: 'image/webp', extension: 'webp' },
  gif: { format: 'gif', type: 'image/gif', extension: 'gif' },
};
const PNG = THUMB_FORMAT.png!;

const unreadable = (err: unknown) =>
  new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `The file has the signature of an image but cannot be read as one (${(err as Error).message.split('\n')[0]}).`,
  );

/** 413 for an image with more pixels than allowed: a decompression bomb is refused before it is decoded. */
function tooManyPixels(maxPixels: number, size?: ImageSize): AppError {
  const what = size
    ? `The image is ${size.width} × ${size.height} pixels (${(size.width * size.height).toLocaleString('en')})`
    : 'The image has too many pixels';
  return new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `${what}; at most ${maxPixels.toLocaleString('en')} pixels are accepted.`,
  );
}

/** The decoder sharp must pick for each raster type the sniffer accepts. */
const DECODER_BY_TYPE: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/tiff': 'tiff',
};

/**
 * Reads an image file's dimensions from its header only (no pixel is decoded) and refuses (413) one with more
 * than `maxPixels` pixels; 415 when the header cannot be read or sharp would decode it as another format than
 * the sniffed `type` (a polyglot must not reach a decoder nobody meant to run).
 */
export async function probeImage(
  path: string,
  type: string,
  maxPixels: number,
): Promise<ImageSize & { format: string }> {
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw unreadable(err);
  }
  if (meta.format !== DECODER_BY_TYPE[type]) {
    throw unreadable(new Error(`the decoder would read it as ${meta.format}, not ${type}`));
  }
  const { width, height } = meta;
  if (!width || !height) throw unreadable(new Error('no dimensions'));
  if (width * height > maxPixels) throw tooManyPixels(maxPixels, { width, height });
  const oriented = meta.autoOrient ?? { width, height };
  return { width: oriented.width, height: oriented.height, format: meta.format };
}

/**
 * A thumbnail fitting a `box` × `box` square (never enlarged), oriented by EXIF, in the original's format where
 * sharp writes it (first frame of an animation). Decoding is limited to `maxPixels` as a second line of defence.
 */
export async function makeThumbnail(path: string, format: string, box: number, maxPixels: number): Promise<Thumbnail> {
  const out = THUMB_FORMAT[format] ?? PNG;
  try {
    const { data, info } = await sharp(path, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true })
      .toFormat(out.format)
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, type: out.type, extension: out.extension };
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message)) throw tooManyPixels(maxPixels);
    throw unreadable(err);
  }
}
