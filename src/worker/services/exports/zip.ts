/**
 * A ZIP archive written as it streams, in the "stored" method (no compression: MP4 does not shrink),
 * so a clip set of any size passes through the Worker without being held in memory or on a disk.
 * Each entry's CRC-32 is computed as its bytes go by and written after them in a data descriptor
 * (general purpose flag bit 3, APPNOTE 4.3.9); sizes are known up front (R2 says them), so the
 * archive's length is too. Names are UTF-8 (bit 11). No ZIP64: an archive stays under 4 GiB.
 */

export interface ZipEntry {
	name: string;
	size: number;
	modified: Date;
	/** The bytes, exactly `size` of them. */
	open: () => Promise<ReadableStream<Uint8Array>>;
}

const LOCAL_HEADER = 30;
const DESCRIPTOR = 16;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;
const FLAGS = 0x0808; // bit 3: sizes and CRC in a data descriptor; bit 11: UTF-8 names
export const ZIP_MAX_BYTES = 0xffff_fffe;

const encoder = new TextEncoder();

/** The archive's exact length in bytes. */
export function zipLength(entries: readonly Pick<ZipEntry, "name" | "size">[]): number {
	return entries.reduce(
		(sum, e) => sum + LOCAL_HEADER + encoder.encode(e.name).length * 2 + e.size + DESCRIPTOR + CENTRAL_HEADER,
		END_RECORD,
	);
}

/** @example new Response(zipStream([{ name: "a.txt", size: 2, modified: new Date(), open: async () => new Blob(["hi"]).stream() }])) */
export function zipStream(entries: readonly ZipEntry[]): ReadableStream<Uint8Array> {
	const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
	void write(entries, writable.getWriter()).catch(() => undefined);
	return readable;
}

/** Where an entry's records point: its name, DOS time and date, and its offset in the archive. */
interface Placed {
	name: Uint8Array;
	time: number;
	date: number;
	offset: number;
}

async function write(entries: readonly ZipEntry[], out: WritableStreamDefaultWriter<Uint8Array>): Promise<void> {
	const central: Uint8Array[] = [];
	let offset = 0;
	try {
		for (const entry of entries) {
			const placed = { name: encoder.encode(entry.name), ...dosTime(entry.modified), offset };
			await out.write(localHeader(placed));
			const { crc, written } = await copyEntry(entry, out);
			await out.write(descriptor(crc, written));
			central.push(centralHeader(placed, crc, written));
			offset += LOCAL_HEADER + placed.name.length + written + DESCRIPTOR;
		}
		for (const record of central) await out.write(record);
		await out.write(endRecord(central, offset));
		await out.close();
	} catch (error) {
		await out.abort(error);
		throw error;
	}
}

/** The entry's bytes onto the archive, checked against its size: their CRC-32 and count. */
async function copyEntry(
	entry: ZipEntry,
	out: WritableStreamDefaultWriter<Uint8Array>,
): Promise<{ crc: number; written: number }> {
	let crc = 0xffffffff;
	let written = 0;
	const reader = (await entry.open()).getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		crc = crc32Update(crc, value);
		written += value.byteLength;
		await out.write(value);
	}
	if (written !== entry.size) throw new Error(`${entry.name}: expected ${entry.size} bytes, read ${written}`);
	return { crc: (crc ^ 0xffffffff) >>> 0, written };
}

/** CRC and sizes are 0 here: they follow the bytes, in the data descriptor. */
const localHeader = ({ name, time, date }: Placed) =>
	header(
		LOCAL_HEADER + name.length,
		(v) => {
			v.setUint32(0, 0x04034b50, true);
			v.setUint16(4, 20, true);
			v.setUint16(6, FLAGS, true);
			v.setUint16(8, 0, true); // stored
			v.setUint16(10, time, true);
			v.setUint16(12, date, true);
			v.setUint16(26, name.length, true);
		},
		name,
		LOCAL_HEADER,
	);

const descriptor = (crc: number, size: number) =>
	header(DESCRIPTOR, (v) => {
		v.setUint32(0, 0x08074b50, true);
		v.setUint32(4, crc, true);
		v.setUint32(8, size, true);
		v.setUint32(12, size, true);
	});

const centralHeader = ({ name, time, date, offset }: Placed, crc: number, size: number) =>
	header(
		CENTRAL_HEADER + name.length,
		(v) => {
			v.setUint32(0, 0x02014b50, true);
			v.setUint16(4, 20, true);
			v.setUint16(6, 20, true);
			v.setUint16(8, FLAGS, true);
			v.setUint16(10, 0, true);
			v.setUint16(12, time, true);
			v.setUint16(14, date, true);
			v.setUint32(16, crc, true);
			v.setUint32(20, size, true);
			v.setUint32(24, size, true);
			v.setUint16(28, name.length, true);
			v.setUint32(42, offset, true);
		},
		name,
		CENTRAL_HEADER,
	);

const endRecord = (central: readonly Uint8Array[], centralOffset: number) =>
	header(END_RECORD, (v) => {
		v.setUint32(0, 0x06054b50, true);
		v.setUint16(8, central.length, true);
		v.setUint16(10, central.length, true);
		v.setUint32(
			12,
			central.reduce((n, c) => n + c.length, 0),
			true,
		);
		v.setUint32(16, centralOffset, true);
	});

function header(length: number, fill: (view: DataView) => void, name?: Uint8Array, at = 0): Uint8Array {
	const bytes = new Uint8Array(length);
	fill(new DataView(bytes.buffer));
	if (name) bytes.set(name, at);
	return bytes;
}

/** MS-DOS date and time (local = UTC here), as ZIP stores them; 1980 at the earliest. */
function dosTime(d: Date): { time: number; date: number } {
	const year = Math.max(1980, d.getUTCFullYear());
	return {
		time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
		date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
	};
}

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

function crc32Update(crc: number, bytes: Uint8Array): number {
	let c = crc;
	for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
	return c >>> 0;
}
