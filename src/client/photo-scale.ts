/**
 * A camera photo made small enough to send on the phone, before it is kept: at most 1600 px on
 * its longest side and 500 KB, as a JPEG (the box refuses anything bigger). A phone's camera
 * makes 4000 px and several MB; sent as taken it would be refused, and waiting offline it would
 * fill the phone's storage.
 */
import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE } from "../domain/notices/rules.ts";

/** Tried in turn until the JPEG fits: quality first, then a smaller picture. */
const STEPS: { side: number; quality: number }[] = [
  { side: PHOTO_MAX_SIDE, quality: 0.85 },
  { side: PHOTO_MAX_SIDE, quality: 0.7 },
  { side: PHOTO_MAX_SIDE, quality: 0.55 },
  { side: 1280, quality: 0.6 },
  { side: 1024, quality: 0.6 },
  { side: 800, quality: 0.6 },
];

export class PhotoUnreadable extends Error {}

export async function scaledPhoto(file: Blob): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    // The camera's own orientation (EXIF) is applied, so the photo stands as it was taken.
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new PhotoUnreadable("not a picture this browser can read");
  }
  try {
    return await scaledPicture(bitmap);
  } finally {
    bitmap.close();
  }
}

/**
 * A picture already on the page (the camera frame a plate was read from), made small by the
 * same steps as a photo taken for the notice: the box takes it under the same limits.
 */
export async function scaledPicture(picture: ImageBitmap | HTMLCanvasElement): Promise<Blob> {
  for (const step of STEPS) {
    const scale = Math.min(1, step.side / Math.max(picture.width, picture.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(picture.width * scale));
    canvas.height = Math.max(1, Math.round(picture.height * scale));
    const g = canvas.getContext("2d");
    if (!g) throw new PhotoUnreadable("no canvas to scale the picture on");
    // A PNG's transparent parts would turn black in a JPEG.
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.drawImage(picture, 0, 0, canvas.width, canvas.height);
    const jpeg = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, "image/jpeg", step.quality),
    );
    if (jpeg && jpeg.size <= PHOTO_MAX_BYTES) return jpeg;
  }
  throw new PhotoUnreadable("the picture does not fit in 500 KB");
}

/** A photo as a data: address, for its thumbnail (the page's CSP allows data: images, not blob:). */
export function dataUrl(photo: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(photo);
  });
}
