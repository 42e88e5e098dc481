ALTER TABLE `notice_reasons` ADD `verdicts` text DEFAULT '["none","over_time_limit"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `notices` ADD `mark_seen_at` integer;--> statement-breakpoint
ALTER TABLE `notices` ADD `mark_limit_seconds` integer;--> statement-breakpoint
ALTER TABLE `notices` ADD `marked_by` text;