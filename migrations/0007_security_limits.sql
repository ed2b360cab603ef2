CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`attempts` integer NOT NULL,
	`last_attempt_at` integer NOT NULL,
	`next_allowed_at` integer NOT NULL,
	`nonce` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_throttle_last_attempt` ON `login_throttle` (`last_attempt_at`);--> statement-breakpoint
ALTER TABLE `plans` ADD `max_concurrent_videos` integer;--> statement-breakpoint
ALTER TABLE `videos` ADD `slot_claimed_at` text;--> statement-breakpoint
CREATE INDEX `videos_workspace_status` ON `videos` (`workspace_id`,`status`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);