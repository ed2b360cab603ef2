/**
 * Which addresses the service may fetch from: public unicast only. Used by the Worker on the literal
 * host of a submitted URL and on the DNS answers for a webhook receiver, and by the render tier's
 * egress proxy on every address a host resolves to, at connect time. Pure code on `ipaddr.js`
 * (no DNS here, no Node or Workers APIs), so both runtimes classify an address the same way.
 */
import ipaddr from "ipaddr.js";

/**
 * IPv6 prefixes that carry or reach an IPv4 address, refused whole (which IPv4 address a gateway
 * would reach is not ours to guess): IPv4-compatible `::/96` (`::7f00:1`), NAT64 (RFC 6052 and
 * RFC 8215's local-use prefix), 6to4 and Teredo. `ipaddr.js` names most of them as ranges; the
 * deprecated IPv4-compatible form it calls unicast, hence this list.
 */
const IPV4_CARRYING: [ipaddr.IPv6, number][] = [
	ipaddr.IPv6.parseCIDR("::/96"),
	ipaddr.IPv6.parseCIDR("64:ff9b::/96"),
	ipaddr.IPv6.parseCIDR("64:ff9b:1::/48"),
	ipaddr.IPv6.parseCIDR("2002::/16"),
	ipaddr.IPv6.parseCIDR("2001::/32"),
];

/**
 * The range an IP address falls in, by `ipaddr.js`'s names (`unicast` = public), after unwrapping an
 * IPv4-mapped IPv6 address in any spelling (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as `new URL()`
 * writes it). IPv6 prefixes that embed an IPv4 address answer `ipv4Embedded`. Null when `address`
 * is not an IP address at all (a host name). IPv4 is read as `inet_aton` would (`2130706433`,
 * `0x7f.1`, `017700000001` are all 127.0.0.1), brackets and a zone id are allowed.
 * @example addressRange("::ffff:a9fe:a9fe") // "linkLocal" (169.254.169.254)
 */
export function addressRange(address: string): string | null {
	const text = address.replace(/^\[(.*)\]$/, "$1");
	if (!ipaddr.isValid(text)) return null;
	let ip = ipaddr.parse(text);
	if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
	const range = ip.range();
	// ipaddr.js names 6to4, Teredo and NAT64 itself; the list also catches IPv4-compatible `::7f00:1`.
	if (range === "unicast" && ip.kind() === "ipv6" && IPV4_CARRYING.some((cidr) => ip.match(cidr)))
		return "ipv4Embedded";
	return range;
}

/**
 * True for every IP address that is not public unicast: loopback, private (RFC 1918), link-local
 * (cloud metadata at 169.254.169.254), CGNAT, unspecified, broadcast, multicast, reserved and
 * documentation ranges, IPv6 unique-local and link-local, and the IPv4-carrying IPv6 forms above.
 * False for a host name (resolve it, then ask about each address).
 * @example isPrivateAddress("::ffff:7f00:1") // true
 */
export function isPrivateAddress(address: string): boolean {
	const range = addressRange(address);
	return range !== null && range !== "unicast";
}

/** Host names that always mean this machine or its metadata service, whatever DNS says. */
export function isLocalHostname(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, "");
	return (
		host === "localhost" ||
		host.endsWith(".localhost") ||
		host === "metadata.google.internal" ||
		host.endsWith(".internal")
	);
}

/**
 * The literal check on a URL's host, before any DNS: a local name or a non-public IP literal.
 * @example isForbiddenHost(new URL("http://[::127.0.0.1]/").hostname) // true
 */
export function isForbiddenHost(hostname: string): boolean {
	return isLocalHostname(hostname) || isPrivateAddress(hostname);
}
