ALTER TABLE `store_probe` ADD `pad` blob;--> statement-breakpoint
ALTER TABLE `ticket_events` ADD `body_cut_from` integer;--> statement-breakpoint
ALTER TABLE `ticket_events` ADD `canonical` text;