import { normalizePlate } from "./plates.ts";

/**
 * What a country's plates can be, as data: each format a pattern of positions, `L` a letter of
 * the country's plate alphabet, `D` a digit, `E` the alphabet the last position may hold when it
 * differs. A read from a camera is held against them: a character read in a position that cannot
 * hold it is taken for the character it is confused with (O and 0, I and 1, B and 8, ...), and a
 * string no format takes is refused: a misread plate is worse than no read, because a car is then
 * judged by another car's permits. Pure, so the phone and the box decide alike.
 */
export interface PlateFormat {
  /** How people write it: `ABC 123`. */
  readonly example: string;
  /** One character per position: `L` letter, `D` digit, `E` a letter of `lastLetters`. */
  readonly pattern: string;
  /** Where the shown form has its space (after this many characters), if anywhere. */
  readonly spaceAfter?: number;
}

export interface PlateCountry {
  readonly name: string;
  /** The letters a plate may hold (a country leaves out those mistaken for others). */
  readonly letters: string;
  /** The letters of an `E` position. */
  readonly lastLetters?: string;
  readonly formats: readonly PlateFormat[];
}

/** Sweden: `ABC 123`, and since 2019 `ABC 12A`; no I, Q, V, Å, Ä or Ö, and no O last. */
const SE: PlateCountry = {
  name: "Sweden",
  letters: "ABCDEFGHJKLMNOPRSTUWXYZ",
  lastLetters: "ABCDEFGHJKLMNPRSTUWXYZ",
  formats: [
    { example: "ABC 123", pattern: "LLLDDD", spaceAfter: 3 },
    { example: "ABC 12A", pattern: "LLLDDE", spaceAfter: 3 },
  ],
};

/** Anywhere else: 2 to 8 letters and digits, taken as read (no position says what it must be). */
const GENERIC: PlateCountry = {
  name: "any country",
  letters: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  formats: [],
};

export const PLATE_COUNTRIES = { se: SE, generic: GENERIC } as const satisfies Record<string, PlateCountry>;
export type PlateCountryCode = keyof typeof PLATE_COUNTRIES;

/**
 * The characters a reader mistakes for one another, by what a position needs: a digit read where
 * a letter must be, and a letter where a digit must be. Only pairs that look alike in plate type.
 */
const AS_LETTER: Readonly<Record<string, string>> = {
  "0": "O",
  "1": "I",
  "2": "Z",
  "4": "A",
  "5": "S",
  "6": "G",
  "7": "T",
  "8": "B",
};
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: "0",
  D: "0",
  Q: "0",
  I: "1",
  L: "1",
  Z: "2",
  A: "4",
  S: "5",
  G: "6",
  T: "7",
  B: "8",
};

/**
 * More corrections than this and a read is no plate: `888888` is not `BBB888`. A read with one
 * correction is as good as one with none; with two, the page offers it as unsure (SURE_CORRECTIONS).
 */
export const MAX_CORRECTIONS = 2;
/** The corrections a read may have and still fill the plate field without a tap. */
export const SURE_CORRECTIONS = 1;

export interface PlateRead {
  /** The plate as it is matched (normalizePlate's form): `ABC123`. */
  readonly plate: string;
  /** As people write it: `ABC 123`. */
  readonly shown: string;
  /** The format it was read as (its example), or null for the generic reading. */
  readonly format: string | null;
  /** How many characters were taken for others to fit the format. */
  readonly corrected: number;
  /**
   * The plate the same read is under another format, one look-alike apart (`ABC128` and
   * `ABC12B`): both are plates, so no rule tells them apart and the attendant must look.
   */
  readonly lookAlike: string | null;
}

export type PlateReading =
  | ({ readonly ok: true } & PlateRead)
  | {
      readonly ok: false;
      /** `no-format`: nothing the country's plates can be; `ambiguous`: two plates it could be. */
      readonly why: "empty" | "no-format" | "ambiguous";
      /** The plates it could be, when ambiguous. */
      readonly candidates: readonly string[];
    };

/** The text a reader gave as one format's plate, or null when the format cannot take it. */
function asFormat(text: string, format: PlateFormat, country: PlateCountry): PlateRead | null {
  if (text.length !== format.pattern.length) return null;
  let plate = "";
  let corrected = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const kind = format.pattern[i]!;
    const letters = kind === "E" ? (country.lastLetters ?? country.letters) : country.letters;
    let out: string | undefined;
    if (kind === "D") out = ch >= "0" && ch <= "9" ? ch : AS_DIGIT[ch];
    else if (letters.includes(ch)) out = ch;
    else {
      const guess = AS_LETTER[ch];
      out = guess && letters.includes(guess) ? guess : undefined;
    }
    if (out === undefined) return null;
    if (out !== ch) corrected++;
    plate += out;
  }
  const shown =
    format.spaceAfter === undefined
      ? plate
      : `${plate.slice(0, format.spaceAfter)} ${plate.slice(format.spaceAfter)}`;
  return { plate, shown, format: format.example, corrected, lookAlike: null };
}

/**
 * A reader's text (from a camera, any spacing or case) as a plate of `country`, corrected by
 * position; refused when no format takes it, or when two formats take it as different plates
 * with as few corrections each (`ABC 128` could be `ABC 12B`: the reader's own characters win,
 * so that is `ABC128`; but `ABC 12O` is `ABC120` only, as no plate ends in O).
 */
export function readPlate(text: string, country: PlateCountryCode | PlateCountry): PlateReading {
  // Only what is neither a letter nor a digit goes (dirt and the frame read as punctuation): a
  // letter no plate has (Ü, É, a Cyrillic А) stays, and no format takes it.
  const clean = normalizePlate(text).replace(/[^\p{L}\p{N}]/gu, "");
  if (clean === "") return { ok: false, why: "empty", candidates: [] };
  const c: PlateCountry = typeof country === "string" ? PLATE_COUNTRIES[country] : country;
  if (c.formats.length === 0) {
    if (clean.length < 2 || clean.length > 8 || /[^A-Z0-9]/.test(clean))
      return { ok: false, why: "no-format", candidates: [] };
    return { ok: true, plate: clean, shown: clean, format: null, corrected: 0, lookAlike: null };
  }
  const reads = c.formats
    .map((f) => asFormat(clean, f, c))
    .filter((r): r is PlateRead => r !== null && r.corrected <= MAX_CORRECTIONS)
    .sort((a, b) => a.corrected - b.corrected);
  if (reads.length === 0) return { ok: false, why: "no-format", candidates: [] };
  const best = reads[0]!;
  const rivals = reads.filter((r) => r.corrected === best.corrected && r.plate !== best.plate);
  if (rivals.length > 0)
    return { ok: false, why: "ambiguous", candidates: [best.plate, ...rivals.map((r) => r.plate)] };
  const other = c.formats
    .filter((f) => f.example !== best.format)
    .map((f) => asFormat(best.plate, f, c))
    .find((r) => r !== null && r.corrected === 1 && r.plate !== best.plate);
  return { ok: true, ...best, lookAlike: other?.plate ?? null };
}
