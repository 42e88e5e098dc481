CREATE TABLE `central_permits` (
	`id` integer PRIMARY KEY NOT NULL,
	`plate` text NOT NULL,
	`plate_norm` text NOT NULL,
	`zone` integer NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`note` text DEFAULT '' NOT NULL,
	`days` text,
	`pulled_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `central_permits_plate_norm` ON `central_permits` (`plate_norm`);--> statement-breakpoint
CREATE INDEX `central_permits_zone` ON `central_permits` (`zone`,`end_at`);--> statement-breakpoint
CREATE TABLE `sync_cursors` (
	`stream` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
