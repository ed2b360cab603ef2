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
	return entries.reduce((sum, e) => sum + LOCAL_HEADER + encoder.encode(e.name).length * 2 + e.size + DESCRIPTOR + CENTRAL_HEADER, END_RECORD);
}

/** @example new Response(zipStream([{ name: "a.txt", size: 2, modified: new Date(), open: async () => new Blob(["hi"]).stream() }])) */
export function zipStream(entries: readonly ZipEntry[]): ReadableStream<Uint8Array> {
	const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
	void write(entries, writable.getWriter()).catch(() => undefined);
	return readable;
}

async function write(entries: readonly ZipEntry[], out: WritableStreamDefaultWriter<Uint8Array>): Promise<void> {
	const central: Uint8Array[] = [];
	let offset = 0;
	try {
		for (const entry of entries) {
			const name = encoder.encode(entry.name);
			const { time, date } = dosTime(entry.modified);
			const local = header(LOCAL_HEADER + name.length, (v) => {
				v.setUint32(0, 0x04034b50, true);
				v.setUint16(4, 20, true);
				v.setUint16(6, FLAGS, true);
				v.setUint16(8, 0, true); // stored
				v.setUint16(10, time, true);
				v.setUint16(12, date, true);
				// CRC and sizes: 0 here, in the data descriptor after the bytes.
				v.setUint16(26, name.length, true);
			}, name, LOCAL_HEADER);
			await out.write(local);
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
			crc = (crc ^ 0xffffffff) >>> 0;
			await out.write(header(DESCRIPTOR, (v) => {
				v.setUint32(0, 0x08074b50, true);
				v.setUint32(4, crc, true);
				v.setUint32(8, written, true);
				v.setUint32(12, written, true);
			}));
			central.push(header(CENTRAL_HEADER + name.length, (v) => {
				v.setUint32(0, 0x02014b50, true);
				v.setUint16(4, 20, true);
				v.setUint16(6, 20, true);
				v.setUint16(8, FLAGS, true);
				v.setUint16(10, 0, true);
				v.setUint16(12, time, true);
				v.setUint16(14, date, true);
				v.setUint32(16, crc, true);
				v.setUint32(20, written, true);
				v.setUint32(24, written, true);
				v.setUint16(28, name.length, true);
				v.setUint32(42, offset, true);
			}, name, CENTRAL_HEADER));
			offset += LOCAL_HEADER + name.length + written + DESCRIPTOR;
		}
		const centralSize = central.reduce((n, c) => n + c.length, 0);
		for (const record of central) await out.write(record);
		await out.write(header(END_RECORD, (v) => {
			v.setUint32(0, 0x06054b50, true);
			v.setUint16(8, central.length, true);
			v.setUint16(10, central.length, true);
			v.setUint32(12, centralSize, true);
			v.setUint32(16, offset, true);
		}));
		await out.close();
	} catch (error) {
		await out.abort(error);
		throw error;
	}
}

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
