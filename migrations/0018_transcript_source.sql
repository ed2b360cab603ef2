ALTER TABLE `videos` ADD `transcript_source` text DEFAULT 'transcription' NOT NULL;--> statement-breakpoint
ALTER TABLE `videos` ADD `subtitle_track` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `source_subtitles` text;