CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`expires_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_live_name` ON `api_tokens` (`name`) WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE TABLE `api_users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_users_name_unique` ON `api_users` (`name`);--> statement-breakpoint
CREATE TABLE `parking_lots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`number_of_spaces` integer DEFAULT 0 NOT NULL,
	`zone_number` integer NOT NULL,
	`max_time` integer DEFAULT 0 NOT NULL,
	`parking_lot_fee` text NOT NULL,
	`variable_fees` text NOT NULL,
	`parking_lot_open` text NOT NULL,
	`parking_lot_location` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`max_fee` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `store_probe` (
	`id` integer PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `permit_lookups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`credential` text NOT NULL,
	`by` text NOT NULL,
	`query` text NOT NULL,
	`results` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `permit_lookups_at` ON `permit_lookups` (`at`);--> statement-breakpoint
CREATE TABLE `permits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plate` text NOT NULL,
	`plate_norm` text NOT NULL,
	`zone` integer NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`note` text DEFAULT '' NOT NULL,
	`days` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `permits_plate_norm` ON `permits` (`plate_norm`);--> statement-breakpoint
CREATE INDEX `permits_zone` ON `permits` (`zone`,`end_at`);--> statement-breakpoint
CREATE TABLE `ticket_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` text NOT NULL,
	`event_type` text NOT NULL,
	`received_at` integer NOT NULL,
	`credential` text NOT NULL,
	`raw_body` text NOT NULL,
	`outcome` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ticket_events_ticket` ON `ticket_events` (`ticket_id`,`seq`);--> statement-breakpoint
CREATE INDEX `ticket_events_received` ON `ticket_events` (`received_at`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`zone` integer NOT NULL,
	`parking_lot_id` integer,
	`lot_unknown` integer DEFAULT false NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`plate` text NOT NULL,
	`plate_norm` text NOT NULL,
	`amount_incl_vat` integer,
	`vat_rate` integer,
	`currency_code` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`canceled_at` integer
);
--> statement-breakpoint
CREATE INDEX `tickets_plate_norm` ON `tickets` (`plate_norm`,`end_at`,`start_at`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_zone_time` ON `tickets` (`zone`,`end_at`);--> statement-breakpoint
CREATE INDEX `tickets_end` ON `tickets` (`end_at`);