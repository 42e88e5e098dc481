ALTER TABLE `observations` ADD `mark_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `observations_mark_id` ON `observations` (`mark_id`);