CREATE TABLE `caption_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`preset_id` text NOT NULL,
	`font` text,
	`text_color` text,
	`highlight_color` text,
	`position` text,
	`deleted_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `caption_templates_workspace` ON `caption_templates` (`workspace_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `clips` ADD `jump_cuts` text;