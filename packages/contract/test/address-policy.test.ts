import { describe, expect, it } from "vitest";
import { addressRange, isForbiddenHost, isPrivateAddress } from "../src/index.ts";

/**
 * Every spelling of a non-public address the issue found fetched, and the ranges around them. The
 * hosts are written as `new URL()` normalises them, since that is what both callers see.
 */
const hostOf = (url: string) => new URL(url).hostname;

describe("the address policy", () => {
	const refused: [string, string][] = [
		["http://[::ffff:127.0.0.1]:8080/", "loopback"], // new URL writes it [::ffff:7f00:1]
		["http://[::ffff:a9fe:a9fe]/hook", "linkLocal"], // 169.254.169.254, cloud metadata
		["http://[::127.0.0.1]/", "ipv4Embedded"], // IPv4-compatible, [::7f00:1]
		["http://[::7f00:1]/", "ipv4Embedded"],
		["http://2130706433/", "loopback"], // decimal
		["http://0x7f.1/", "loopback"], // hex and short
		["http://017700000001/", "loopback"], // octal
		["http://0x7f000001/", "loopback"],
		["http://127.1/", "loopback"],
		["http://0/", "unspecified"],
		["http://[::]/", "unspecified"],
		["http://[::1]/", "loopback"],
		["http://[64:ff9b::7f00:1]/", "rfc6052"], // NAT64
		["http://[64:ff9b:1::a9fe:a9fe]/", "rfc6052"], // NAT64 local use (RFC 8215)
		["http://[2002:7f00:1::]/", "6to4"],
		["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "teredo"],
		["http://[::ffff:0:7f00:1]/", "rfc6145"],
		["http://[fd00::1]/", "uniqueLocal"],
		["http://[fe80::1]/", "linkLocal"],
		["http://[ff02::1]/", "multicast"],
		["http://10.0.0.5/", "private"],
		["http://172.16.0.1/", "private"],
		["http://192.168.1.1/", "private"],
		["http://100.64.0.1/", "carrierGradeNat"],
		["http://169.254.169.254/", "linkLocal"],
		["http://192.0.0.8/", "reserved"],
		["http://198.18.0.1/", "reserved"],
		["http://203.0.113.9/", "reserved"],
		["http://240.0.0.1/", "reserved"],
		["http://255.255.255.255/", "broadcast"],
		["http://224.0.0.1/", "multicast"],
	];
	for (const [url, range] of refused) {
		it(`refuses ${url} (${hostOf(url)}: ${range})`, () => {
			expect(addressRange(hostOf(url))).toBe(range);
			expect(isPrivateAddress(hostOf(url))).toBe(true);
			expect(isForbiddenHost(hostOf(url))).toBe(true);
		});
	}

	it("accepts public unicast addresses, IPv4-mapped ones included", () => {
		for (const address of [
			"8.8.8.8",
			"93.184.216.34",
			"::ffff:8.8.8.8",
			"::ffff:808:808",
			"2606:4700:4700::1111",
			"[2a00:1450:4001::200e]",
		]) {
			expect(addressRange(address)).toBe("unicast");
			expect(isPrivateAddress(address)).toBe(false);
		}
	});

	it("leaves host names to DNS, but refuses the names that always mean this machine", () => {
		expect(addressRange("videos.example.com")).toBeNull();
		expect(isPrivateAddress("videos.example.com")).toBe(false);
		expect(isForbiddenHost("videos.example.com")).toBe(false);
		for (const host of ["localhost", "a.localhost", "metadata.google.internal", "LOCALHOST."])
			expect(isForbiddenHost(host)).toBe(true);
	});

	it("reads addresses as DNS answers give them (no brackets, zone ids)", () => {
		expect(isPrivateAddress("fe80::1%eth0")).toBe(true);
		expect(isPrivateAddress("::ffff:7f00:1")).toBe(true);
		expect(isPrivateAddress("127.0.0.1")).toBe(true);
	});
});
