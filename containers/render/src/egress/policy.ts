/**
 * The tier's one egress decision, made where a connection is opened (the egress proxy that yt-dlp,
 * ffmpeg and ffprobe go through, and the pinned agent of Node's own fetches): resolve the host once,
 * check every address it resolves to with the contract's address policy, and hand back the checked
 * addresses, which are the only ones the caller may connect to. So a redirect, an HLS segment, a
 * key URL or a DNS answer that changes between two lookups can never reach a private address.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isLocalHostname, isPrivateAddress } from "@clipforge/contract";

/** Loopback/private sources are refused unless the operator allows them (ALLOW_PRIVATE_SOURCES: dev and tests only). */
export const allowPrivateSources = () => process.env.ALLOW_PRIVATE_SOURCES === "true";

/** Every address a host name resolves to (A and AAAA), in the resolver's order. */
export type Resolver = (host: string) => Promise<string[]>;

/** A connection the policy refused: a local name, or a host that resolves to a non-public address. */
export class EgressRefusedError extends Error {
	readonly host: string;
	constructor(host: string, reason: string) {
		super(`Egress to ${host} refused: ${reason}`);
		this.name = "EgressRefusedError";
		this.host = host;
	}
}

const systemResolver: Resolver = async (host) =>
	(await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

let resolver: Resolver = systemResolver;
let treatAsPublic: (address: string) => boolean = () => false;

/**
 * Tests only: answer DNS with `resolve` (a rebinding resolver, say), and count `publicAddresses` as
 * public (a loopback server playing an internet host). Returns the function that undoes it.
 * @example const restore = useEgressResolver(async () => ["127.0.0.2"], { publicAddresses: ["127.0.0.2"] });
 */
export function useEgressResolver(resolve: Resolver, options: { publicAddresses?: string[] } = {}): () => void {
	const saved = { resolver, treatAsPublic };
	resolver = resolve;
	const trusted = new Set(options.publicAddresses ?? []);
	treatAsPublic = (address) => trusted.has(address);
	return () => {
		resolver = saved.resolver;
		treatAsPublic = saved.treatAsPublic;
	};
}

/** True when the policy lets the tier connect to `address` (always, where private sources are allowed). */
export function isAllowedAddress(address: string): boolean {
	return allowPrivateSources() || treatAsPublic(address) || !isPrivateAddress(address);
}

/**
 * Resolves `host` (once) and returns its addresses when every one of them may be connected to;
 * throws EgressRefusedError otherwise, and a plain Error when the name does not resolve. An IP
 * literal is its own answer.
 * @example const [address] = await checkedAddresses("videos.example.com"); // connect to address, not to the name
 */
export async function checkedAddresses(rawHost: string): Promise<string[]> {
	const host = rawHost.replace(/^\[(.*)\]$/, "$1").toLowerCase();
	if (!allowPrivateSources() && isLocalHostname(host)) throw new EgressRefusedError(host, "a local host name");
	const addresses = isIP(host) ? [host] : await resolver(host);
	if (addresses.length === 0) throw new Error(`${host} did not resolve`);
	const refused = addresses.find((address) => !isAllowedAddress(address));
	if (refused) throw new EgressRefusedError(host, `it resolves to ${refused}, not a public address`);
	return addresses;
}
