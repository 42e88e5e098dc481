CREATE TABLE `browser_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`credential_kind` text NOT NULL,
	`credential_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `browser_sessions_credential` ON `browser_sessions` (`credential_kind`,`credential_id`,`seen_at`);--> statement-breakpoint
CREATE INDEX `browser_sessions_seen` ON `browser_sessions` (`seen_at`);--> statement-breakpoint
CREATE INDEX `browser_sessions_expires` ON `browser_sessions` (`expires_at`);