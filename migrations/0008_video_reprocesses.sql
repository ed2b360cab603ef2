CREATE TABLE `video_reprocesses` (
	`id` text PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`number` integer NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`previous_config` text NOT NULL,
	`minutes_charged` integer NOT NULL,
	`error_message` text,
	`clips_count` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `video_reprocesses_video_number` ON `video_reprocesses` (`video_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `video_reprocesses_one_running` ON `video_reprocesses` (`video_id`) WHERE status = 'processing';--> statement-breakpoint
ALTER TABLE `clips` ADD `generation` integer DEFAULT 0 NOT NULL;