/**
 * The delivery-time check of a webhook receiver: the URL was checked on its literal host when it was
 * saved (source-url.ts), but a name can point anywhere by the time a video ends. So before each
 * delivery the host is resolved with DNS-over-HTTPS (JSON API, `DNS_RESOLVER_URL`) and every A and
 * AAAA answer is checked with the contract's address policy; an IP literal is checked as it is.
 * Skipped where the policy allows private addresses (the local stack and tests).
 *
 * What stays open: the Workers runtime resolves the name again when it fetches and cannot be told
 * which address to use, so a name that answers public here and private a moment later (rebinding
 * with a zero TTL) is not stopped here; Cloudflare's own egress refuses private addresses for
 * deployed Workers.
 */
import { addressRange, isLocalHostname, isPrivateAddress } from "@clipforge/contract";
import { settingsOf } from "../settings";

const DOH_TIMEOUT_MS = 5_000;
/** DNS record types in a DoH JSON answer. */
const A = 1;
const AAAA = 28;

interface DohAnswer {
	Status?: number;
	Answer?: { type?: number; data?: string }[];
}

/** Why a host may not be fetched (a sentence for the delivery record), or null when it may. */
export async function refusedHostReason(
	url: URL,
	env: Pick<Env, "ALLOW_PRIVATE_SOURCES" | "DNS_RESOLVER_URL">,
): Promise<string | null> {
	const settings = settingsOf(env);
	if (settings.allowPrivateSources) return null;
	const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
	if (isLocalHostname(host)) return `${host} is a local host name`;
	if (addressRange(host) !== null) return isPrivateAddress(host) ? `${host} is not a public address` : null;
	let addresses: string[];
	try {
		addresses = [
			...(await resolve(host, "A", settings.dnsResolverUrl)),
			...(await resolve(host, "AAAA", settings.dnsResolverUrl)),
		];
	} catch (error) {
		return `${host} could not be resolved (${(error as Error).message})`;
	}
	if (addresses.length === 0) return `${host} did not resolve to any address`;
	// Anything in an answer that is not a public unicast address (malformed data included) refuses the host.
	const refused = addresses.find((address) => addressRange(address) !== "unicast");
	return refused ? `${host} resolves to ${refused}, which is not a public address` : null;
}

async function resolve(host: string, type: "A" | "AAAA", resolverUrl: string): Promise<string[]> {
	const query = new URL(resolverUrl);
	query.searchParams.set("name", host);
	query.searchParams.set("type", type);
	const response = await fetch(query, {
		headers: { accept: "application/dns-json" },
		signal: AbortSignal.timeout(DOH_TIMEOUT_MS),
	});
	if (!response.ok) throw new Error(`resolver answered ${response.status}`);
	const answer = (await response.json()) as DohAnswer;
	// NXDOMAIN (3) and the like: no addresses. SERVFAIL (2) is the resolver's failure, not an answer.
	if (answer.Status === 2) throw new Error("resolver failed (SERVFAIL)");
	const wanted = type === "A" ? A : AAAA;
	// A CNAME chain is answered with its A/AAAA records at the end; every one of them is checked.
	return (answer.Answer ?? [])
		.filter((record) => record.type === wanted && typeof record.data === "string")
		.map((record) => record.data!);
}
