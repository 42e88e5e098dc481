CREATE TABLE `operator_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`via` text NOT NULL,
	`subject` text NOT NULL,
	`subject_id` text NOT NULL,
	`action` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `operator_changes_at` ON `operator_changes` (`at`);--> statement-breakpoint
CREATE INDEX `operator_changes_subject` ON `operator_changes` (`subject`,`subject_id`,`id`);--> statement-breakpoint
CREATE INDEX `operator_changes_kind` ON `operator_changes` (`subject`,`id`);--> statement-breakpoint
CREATE INDEX `operator_changes_actor` ON `operator_changes` (`actor`,`id`);