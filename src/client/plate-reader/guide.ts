/**
 * The framing guide the attendant lines the plate up in, in video pixels. The page draws this
 * rectangle over the camera picture and hands exactly this crop to the reader, so what the
 * attendant framed is what is read, and the reader never searches the whole frame.
 */

/** A Swedish plate is 520 × 110 mm. */
export const PLATE_ASPECT = 520 / 110;

/**
 * The guide is 3.3 : 1, taller than the plate's 4.7 : 1: a plate held 6° off level and filling
 * the guide's width still fits in its height, and an attendant does not have to hold the phone
 * level to the millimetre.
 */
export const GUIDE_ASPECT = 3.3;

/** Of the picture's width: room at the sides for a hand that is not quite centred. */
const GUIDE_WIDTH_SHARE = 0.8;

/** Of the picture's height, so a wide guide on a short landscape picture stays inside it. */
const GUIDE_HEIGHT_SHARE = 0.6;

export interface GuideRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The guide for a picture of `videoWidth` × `videoHeight`, centred, in whole pixels. */
export function guideRect(videoWidth: number, videoHeight: number): GuideRect {
  if (!(videoWidth > 0 && videoHeight > 0)) return { x: 0, y: 0, width: 0, height: 0 };
  let width = videoWidth * GUIDE_WIDTH_SHARE;
  let height = width / GUIDE_ASPECT;
  if (height > videoHeight * GUIDE_HEIGHT_SHARE) {
    height = videoHeight * GUIDE_HEIGHT_SHARE;
    width = height * GUIDE_ASPECT;
  }
  const w = Math.round(width);
  const h = Math.round(height);
  return { x: Math.round((videoWidth - w) / 2), y: Math.round((videoHeight - h) / 2), width: w, height: h };
}
