CREATE TABLE `observations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plate` text NOT NULL,
	`plate_norm` text NOT NULL,
	`zone` integer NOT NULL,
	`day_start` integer NOT NULL,
	`first_seen_at` integer NOT NULL,
	`limit_seconds` integer NOT NULL,
	`note` text NOT NULL,
	`marked_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `observations_car` ON `observations` (`plate_norm`,`day_start`);--> statement-breakpoint
CREATE INDEX `observations_zone` ON `observations` (`zone`,`day_start`);--> statement-breakpoint
CREATE INDEX `observations_seen` ON `observations` (`first_seen_at`);