CREATE TABLE `revenue_basis` (
	`id` integer PRIMARY KEY NOT NULL,
	`timezone` text NOT NULL,
	`currency` text NOT NULL,
	`built_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `revenue_days` (
	`day` text NOT NULL,
	`lot_id` integer NOT NULL,
	`zone` integer NOT NULL,
	`vat_rate` integer NOT NULL,
	`currency` text NOT NULL,
	`tickets` integer NOT NULL,
	`gross` integer NOT NULL,
	`vat` integer NOT NULL,
	PRIMARY KEY(`day`, `currency`, `lot_id`, `zone`, `vat_rate`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `tickets_start` ON `tickets` (`start_at`,`end_at`,`status`,`parking_lot_id`,`zone`);--> statement-breakpoint
CREATE INDEX `tickets_long_stay` ON `tickets` (`start_at`,`end_at`,`status`,`parking_lot_id`,`zone`) WHERE end_at IS NULL OR end_at - start_at > 86400000;