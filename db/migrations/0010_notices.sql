CREATE TABLE `notice_counters` (
	`name` text PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notice_photos` (
	`notice_id` text NOT NULL,
	`hash` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`notice_id`, `hash`)
);
--> statement-breakpoint
CREATE INDEX `notice_photos_hash` ON `notice_photos` (`hash`);--> statement-breakpoint
CREATE TABLE `notice_reasons` (
	`code` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`amount` integer NOT NULL,
	`active` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notices` (
	`id` text PRIMARY KEY NOT NULL,
	`number` integer NOT NULL,
	`plate` text NOT NULL,
	`plate_norm` text NOT NULL,
	`zone` integer NOT NULL,
	`lot_id` integer,
	`verdict` text NOT NULL,
	`reason_code` text NOT NULL,
	`reason_title` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`note` text NOT NULL,
	`observed_at` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`issued_by` text NOT NULL,
	`voided_at` integer,
	`voided_by` text,
	`void_reason` text,
	`sync_seq` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notices_number` ON `notices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `notices_sync_seq` ON `notices` (`sync_seq`);--> statement-breakpoint
CREATE INDEX `notices_issued_at` ON `notices` (`issued_at`);--> statement-breakpoint
CREATE INDEX `notices_plate` ON `notices` (`plate_norm`,`number`);--> statement-breakpoint
CREATE INDEX `notices_issued_by` ON `notices` (`issued_by`,`number`);--> statement-breakpoint
CREATE INDEX `notices_reason` ON `notices` (`reason_code`,`number`);