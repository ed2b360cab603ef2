ALTER TABLE `clips` ADD `favorited` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clips` ADD `caption_style` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `caption_fixes` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `edits` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `clips` ADD `previous_edit` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `edit_error` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `updated_at` text;