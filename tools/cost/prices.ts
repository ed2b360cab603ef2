/**
 * Cloudflare's list prices (Workers Paid, USD, beyond each plan's included monthly usage) and the
 * competitors' published per-minute prices, each with where it was read and when. Found with the
 * project's documentation search on 2026-11-28; a figure marked `via` was read from a copy of the
 * page (a docs repository snapshot, or a third party quoting the page) because the search held
 * no copy of the page itself. Re-check them before relying on them: prices change.
 *
 * Included usage is left out of the per-video figures (it is a monthly allowance, shared by the
 * account's every Worker): the dollars are what one more video costs past it.
 */

export interface Price {
	usd: number;
	per: string;
	source: string;
	read: string;
	via?: string;
	note?: string;
}

const READ = "2026-11-28";

export const PRICES = {
	workersRequests: {
		usd: 0.3,
		per: "million requests",
		source: "https://developers.cloudflare.com/workers/platform/pricing/",
		read: READ,
		via: "a snapshot of that page (cloudflare-docs preview) and the Workflows pricing page, which states the same rates",
		note: "10 million a month included; $5 a month minimum (Workers Paid)",
	},
	workersCpu: {
		usd: 0.02,
		per: "million CPU milliseconds",
		source: "https://developers.cloudflare.com/workers/platform/pricing/",
		read: READ,
		note: "30 million CPU ms a month included",
	},
	workflowsInvocations: {
		usd: 0.3,
		per: "million invocations",
		source: "https://developers.cloudflare.com/workflows/reference/pricing/",
		read: READ,
		note: "Workflows are billed as Workers Standard: invocations, CPU time and stored state; a step is not billed by itself, a waiting instance uses no CPU",
	},
	workflowsStorage: {
		usd: 0.2,
		per: "GB-month",
		source: "https://developers.cloudflare.com/workflows/reference/pricing/",
		read: READ,
		note: "1 GB included; completed instances' state kept 7 days by default",
	},
	d1RowsRead: {
		usd: 0.001,
		per: "million rows read",
		source: "https://developers.cloudflare.com/d1/platform/pricing/",
		read: READ,
		via: "cloudflare-docs src/content/partials/workers/d1-pricing.mdx",
		note: "25 billion a month included",
	},
	d1RowsWritten: {
		usd: 1.0,
		per: "million rows written",
		source: "https://developers.cloudflare.com/d1/platform/pricing/",
		read: READ,
		via: "cloudflare-docs src/content/partials/workers/d1-pricing.mdx",
		note: "50 million a month included; an index on a written column writes one more row",
	},
	r2Storage: {
		usd: 0.015,
		per: "GB-month",
		source: "https://developers.cloudflare.com/r2/pricing/",
		read: READ,
		note: "Standard storage; 10 GB-month included; no egress charge",
	},
	r2ClassA: {
		usd: 4.5,
		per: "million Class A operations (writes, lists, multipart parts)",
		source: "https://developers.cloudflare.com/r2/pricing/",
		read: READ,
		note: "1 million a month included",
	},
	r2ClassB: {
		usd: 0.36,
		per: "million Class B operations (reads, heads)",
		source: "https://developers.cloudflare.com/r2/pricing/",
		read: READ,
		note: "10 million a month included; deletes are free",
	},
	containerCpu: {
		usd: 0.00002,
		per: "vCPU-second of active use",
		source: "https://developers.cloudflare.com/containers/pricing/",
		read: READ,
		via: "cloudflare-docs src/content/docs/containers/pricing.mdx (rates) and reports of the 2025-11-21 change to active CPU billing quoting that page",
		note: "billed by the CPU a container actually uses (since 2025-11-21), not its instance type's vCPUs; 375 vCPU-minutes a month included",
	},
	containerMemory: {
		usd: 0.0000025,
		per: "GiB-second provisioned while running",
		source: "https://developers.cloudflare.com/containers/pricing/",
		read: READ,
		via: "cloudflare-docs src/content/docs/containers/pricing.mdx",
		note: "the instance type's memory (standard-4: 12 GiB) from start until it sleeps; 25 GiB-hours a month included",
	},
	containerDisk: {
		usd: 0.00000007,
		per: "GB-second provisioned while running",
		source: "https://developers.cloudflare.com/containers/pricing/",
		read: READ,
		via: "cloudflare-docs src/content/docs/containers/pricing.mdx",
		note: "the instance type's disk (standard-4: 20 GB); 200 GB-hours a month included",
	},
	containerEgress: {
		usd: 0.025,
		per: "GB out of a container (North America and Europe)",
		source: "https://developers.cloudflare.com/containers/pricing/",
		read: READ,
		via: "a third party's table of Cloudflare's rates read 2026-08-03 (github.com/halideworks/onelight/wiki/Pricing); the docs snapshot the search holds has no egress figure",
		note: "1 TB a month included; the tier's writes to R2 go out through the Worker's signed URLs",
	},
	durableObjectRequests: {
		usd: 0.15,
		per: "million requests",
		source: "https://developers.cloudflare.com/durable-objects/platform/pricing",
		read: READ,
		note: "each container instance is a Durable Object; each job request to it is one; 1 million a month included",
	},
	durableObjectDuration: {
		usd: 12.5,
		per: "million GB-seconds (128 MB while a request is active)",
		source: "https://developers.cloudflare.com/durable-objects/platform/pricing",
		read: READ,
		note: "400,000 GB-s a month included",
	},
	neurons: {
		usd: 0.011,
		per: "thousand neurons",
		source: "https://developers.cloudflare.com/workers-ai/platform/pricing/",
		read: READ,
		via: "a clipping of that page published 2026-07-09, and cloudflare-docs pricing.mdx",
		note: "10,000 neurons a day free",
	},
} satisfies Record<string, Price>;

/** Neurons per unit of each model the pipeline calls (Workers AI pricing page, read as above). */
export const MODELS = {
	whisper: {
		id: "@cf/openai/whisper-large-v3-turbo",
		neuronsPerAudioMinute: 46.63,
		listed: "$0.0005 per audio minute",
		source: "https://developers.cloudflare.com/workers-ai/platform/pricing/",
		via: "cloudflare-docs pull 24748 (the pricing table's Whisper rows)",
	},
	fast: {
		id: "@cf/meta/llama-4-scout-17b-16e-instruct",
		neuronsPerMillionInput: 24545,
		neuronsPerMillionOutput: 77273,
		listed: "$0.270 per M input tokens, $0.850 per M output tokens",
		source: "https://developers.cloudflare.com/workers-ai/platform/pricing/",
	},
	strong: {
		id: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
		neuronsPerMillionInput: 26668,
		neuronsPerMillionOutput: 204805,
		listed: "$0.293 per M input tokens, $2.253 per M output tokens",
		source: "https://developers.cloudflare.com/workers-ai/platform/pricing/",
	},
} as const;

/** What users pay elsewhere, per minute of source, where the search found a published price. */
export const COMPETITORS = [
	{
		service: "the seed's service",
		perMinuteUsd: null,
		basis: "charges one minute of the account's balance per minute of video; its interface (SEED-INTERFACE.md) publishes no price for a minute",
		source: "/work/shared/design/SEED-INTERFACE.md",
		read: READ,
	},
	{
		service: "OpusClip Starter",
		perMinuteUsd: 15 / 150,
		basis: "$15 a month for 150 credits, 1 credit = 1 minute of video",
		source: "https://www.opus.pro/pricing",
		via: "api-evangelist/opus plans (the page transcribed 2026-10-07); the minute per credit from OpusClip's API notes as quoted in a public skill file",
		read: READ,
	},
	{
		service: "OpusClip Pro",
		perMinuteUsd: 29 / 300,
		basis: "$29 a month for 300 credits ($14.50 a month billed yearly: $0.048 a minute)",
		source: "https://www.opus.pro/pricing",
		via: "api-evangelist/opus plans (transcribed 2026-10-07)",
		read: READ,
	},
	{
		service: "Captions (Video Captions API)",
		perMinuteUsd: 0.15,
		basis: "$0.15 per minute of input video (captioning, not clip finding: the nearest metered API found)",
		source: "https://www.captions.ai/",
		via: "api-evangelist/captions finops (2026-06-12)",
		read: READ,
	},
	{
		service: "Vizard",
		perMinuteUsd: null,
		basis: "bills upload minutes (its API docs, docs.vizard.ai/docs/pricing); the search found no copy of vizard.ai/pricing with the plans' prices",
		source: "https://docs.vizard.ai/docs/pricing.md",
		read: READ,
	},
	{
		service: "Klap",
		perMinuteUsd: null,
		basis: "the search found Klap's API agreement and docs but no copy of its pricing page",
		source: "https://klap.app",
		read: READ,
	},
] as const;
