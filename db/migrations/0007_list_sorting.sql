CREATE INDEX `permits_start` ON `permits` (`start_at`);--> statement-breakpoint
CREATE INDEX `permits_end` ON `permits` (`end_at`);