ALTER TABLE `clips` ADD `hooks` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `emotions` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `description` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `ranking_note` text;