import type { ParkingLot } from "../../domain/lots/lot.ts";
import { lotNotFound } from "../../domain/lots/rules.ts";
import { type Rendered, renderJson } from "../../platform/http/conditional.ts";
import type { PublicStore } from "./deps.ts";

interface Snapshot {
  version: string;
  lots: ParkingLot[];
  list?: Rendered;
  active?: Rendered;
  inactive?: Rendered;
  one: Map<number, Rendered>;
}

/**
 * The parking lots as kiosks and apps read them, rendered once until the lots change, by the
 * store's one version source (WrittenRows.lotsVersion: this process's lot writes, and another
 * connection's commit such as `parkd lots import` while serve runs), read fresh at every read.
 */
export class LotReads {
  private snapshot: Snapshot | null = null;

  constructor(private readonly store: PublicStore) {}

  private current(): Snapshot {
    const version = this.store.written.lotsVersion();
    if (this.snapshot?.version !== version)
      this.snapshot = { version, lots: this.store.lots.all(), one: new Map() };
    return this.snapshot;
  }

  /** `{data: [...]}` for the list, optionally only active (true) or inactive (false) lots. */
  list(active?: boolean): Rendered {
    const s = this.current();
    const key = active === undefined ? "list" : active ? "active" : "inactive";
    s[key] ??= renderJson({
      data: active === undefined ? s.lots : s.lots.filter((l) => l.active === active),
    });
    return s[key];
  }

  /** `{data: lot}`; its ETag is the one an operator's write of the lot answers. */
  one(id: number): Rendered {
    const s = this.current();
    let r = s.one.get(id);
    if (!r) {
      r = renderJson({ data: lotIn(s, id) });
      s.one.set(id, r);
    }
    return r;
  }

  require(id: number): ParkingLot {
    return lotIn(this.current(), id);
  }
}

function lotIn(s: Snapshot, id: number): ParkingLot {
  const lot = s.lots.find((l) => l.id === id);
  if (!lot) throw lotNotFound(id);
  return lot;
}
