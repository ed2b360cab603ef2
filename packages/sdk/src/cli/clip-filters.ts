/** The clip list's filters and order, shared by `clipforge clips` and `clipforge export`. */
import {
	CLIP_API_STATUSES,
	CLIP_SORT_FIELDS,
	SORT_ORDERS,
	type ClipApiStatus,
	type ClipSortField,
} from "@clipforge/domain";
import { Option, type Command } from "commander";
import type { ClipFilters } from "../node-client.ts";
import { number } from "./parsers.ts";

export interface FilterFlags {
	minScore?: number;
	maxScore?: number;
	favorites?: boolean;
	status?: ClipApiStatus;
	sortBy?: ClipSortField;
	sortOrder?: (typeof SORT_ORDERS)[number];
}

export function withClipFilters(command: Command): Command {
	return command
		.option("--min-score <score>", "only clips scoring at least this", number("--min-score"))
		.option("--max-score <score>", "only clips scoring at most this", number("--max-score"))
		.option("--favorites", "only favorite clips")
		.option("--no-favorites", "only clips that are not favorites")
		.addOption(new Option("--status <status>", "only clips in this status").choices(CLIP_API_STATUSES))
		.addOption(new Option("--sort-by <field>", "order by (best score first by default)").choices(CLIP_SORT_FIELDS))
		.addOption(new Option("--sort-order <order>", "order direction (desc by default)").choices(SORT_ORDERS));
}

export const filtersOf = (opts: FilterFlags): ClipFilters => ({
	minScore: opts.minScore,
	maxScore: opts.maxScore,
	favorited: opts.favorites,
	status: opts.status,
	sortBy: opts.sortBy,
	sortOrder: opts.sortOrder,
});
