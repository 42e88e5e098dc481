import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

import type { LotFee, LotLocation, LotOpening, LotVariableFee } from "../../../domain/lots/lot.ts";

/**
 * Parking lots. Fees, variable fees, opening hours and locations are JSON columns: they are
 * always read and written with their lot, never queried on their own, and their ids are
 * per lot, so an export imports back with every id unchanged.
 */
export const parkingLots = sqliteTable("parking_lots", {
  /** AUTOINCREMENT: a deleted lot's id is never handed out again (old tickets still name it). */
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull(),
  numberOfSpaces: integer("number_of_spaces").notNull().default(0),
  zoneNumber: integer("zone_number").notNull(),
  /** Seconds; 0 = unlimited. */
  maxTime: integer("max_time").notNull().default(0),
  parkingLotFee: text("parking_lot_fee", { mode: "json" }).$type<LotFee[]>().notNull(),
  variableFees: text("variable_fees", { mode: "json" }).$type<LotVariableFee[]>().notNull(),
  parkingLotOpen: text("parking_lot_open", { mode: "json" }).$type<LotOpening[]>().notNull(),
  parkingLotLocation: text("parking_lot_location", { mode: "json" }).$type<LotLocation[]>().notNull(),
  active: integer({ mode: "boolean" }).notNull().default(true),
  /** Cents incl. VAT; 0 = no cap. */
  maxFee: integer("max_fee").notNull().default(0),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
  /** Credential label (or "cli:import") of the last write. */
  updatedBy: text("updated_by").notNull(),
});
