ALTER TABLE `plans` ADD `max_backgrounds` integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `max_source_pixels` integer;--> statement-breakpoint
ALTER TABLE `plans` ADD `max_source_bytes` integer;