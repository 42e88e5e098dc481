import { plateReaderTag } from "./assets.macro.ts" with { type: "macro" };

/** Where the app's page finds the plate reader's files: under this build's tag (plate-reader-routes.ts). */
export const PLATE_READER_TAG = plateReaderTag();
export const PLATE_READER_BASE = `/plate-reader/${PLATE_READER_TAG}/`;
