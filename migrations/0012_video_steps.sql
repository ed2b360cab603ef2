CREATE TABLE `video_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`video_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`step` text NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text NOT NULL,
	`ok` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `video_steps_video` ON `video_steps` (`video_id`,`id`);--> statement-breakpoint
CREATE INDEX `video_steps_ended` ON `video_steps` (`ended_at`);