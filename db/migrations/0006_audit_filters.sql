CREATE INDEX `permit_lookups_query` ON `permit_lookups` (`query`,`id`);--> statement-breakpoint
CREATE INDEX `permit_lookups_credential` ON `permit_lookups` (`credential`,`id`);