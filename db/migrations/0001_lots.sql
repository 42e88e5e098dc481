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
