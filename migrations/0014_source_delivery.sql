ALTER TABLE `videos` ADD `delivered_at` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `source_signed_at` text;--> statement-breakpoint
-- Videos delivered before this migration (completed, or failed in a reprocess after completing):
-- delivered now, so their sources stay served and the retention counts from the upgrade.
UPDATE `videos` SET `delivered_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
	WHERE `status` = 'completed'
	OR (`status` = 'failed' AND EXISTS (SELECT 1 FROM `video_reprocesses` WHERE `video_reprocesses`.`video_id` = `videos`.`id`));
