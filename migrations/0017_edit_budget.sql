ALTER TABLE `videos` ADD `edit_seconds` real DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Edits made before the budget count against it, each at its clip's present length.
UPDATE `videos` SET `edit_seconds` = (
	SELECT COALESCE(SUM(`clips`.`edits` * (`clips`.`end_time` - `clips`.`start_time`)), 0)
	FROM `clips` WHERE `clips`.`video_id` = `videos`.`id`
);
