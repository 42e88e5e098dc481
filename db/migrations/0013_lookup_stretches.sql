DROP INDEX `permit_lookups_query`;--> statement-breakpoint
CREATE INDEX `permit_lookups_plate` ON `permit_lookups` (("id" >> 14),`query`,`id`);