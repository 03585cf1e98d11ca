// A hand-assembled WebAssembly SIMD kernel for the 1:N scan: scores[row] = data[row] · q for every row.
// JavaScript cannot use SIMD and scans about 4× slower; this avoids a native dependency.
// Text form of the function (dim a multiple of 16, all pointers in bytes):
//   (func (export "dots") (param $data i32) (param $n i32) (param $dimBytes i32) (param $q i32) (param $out i32)
//     (local $row i32) (local $k i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
//     (block $done (loop $rows
//       (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
//       (local.set $a0 (v128.const 0)) … $a3
//       (local.set $k (i32.const 0))
//       (block $kd (loop $ks
//         (br_if $kd (i32.ge_u (local.get $k) (local.get $dimBytes)))
//         $aJ += f32x4.mul(v128.load offset=16J (data + k), v128.load offset=16J (q + k))   for J = 0..3
//         (local.set $k (i32.add (local.get $k) (i32.const 64))) (br $ks)))
//       (f32.store (out + row·4) (sum of the 4 lanes of a0 + a1 + a2 + a3))
//       (local.set $data (i32.add (local.get $data) (local.get $dimBytes)))
//       (local.set $row (i32.add (local.get $row) (i32.const 1))) (br $rows))))

const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_CONST = [SIMD, 0x0c];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const F32X4_EXTRACT = [SIMD, 0x1f];
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_GE_U = 0x4f;
const I32_SHL = 0x74;
const F32_ADD = 0x92;
const F32_STORE = 0x38;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const BR_IF = 0x0d;
const BR = 0x0c;
const END = 0x0b;

// Locals: 0 data, 1 n, 2 dimBytes, 3 q, 4 out, 5 row, 6 k, 7–10 accumulators.
const [DATA, N, DIM, Q, OUT, ROW, K] = [0, 1, 2, 3, 4, 5, 6];
const ACC = [7, 8, 9, 10];

function leb(n: number): number[] {
	const out: number[] = [];
	do {
		let byte = n & 0x7f;
		n >>>= 7;
		if (n !== 0) byte |= 0x80;
		out.push(byte);
	} while (n !== 0);
	return out;
}

/** Signed LEB128, as i32.const immediates are read. */
function sleb(n: number): number[] {
	const out: number[] = [];
	for (;;) {
		const byte = n & 0x7f;
		n >>= 7;
		if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
			out.push(byte);
			return out;
		}
		out.push(byte | 0x80);
	}
}

function body(): number[] {
	const code: number[] = [];
	code.push(...BLOCK, ...LOOP);
	code.push(LOCAL_GET, ROW, LOCAL_GET, N, I32_GE_U, BR_IF, 1);
	for (const acc of ACC) code.push(...V128_CONST, ...new Array(16).fill(0), LOCAL_SET, acc);
	code.push(I32_CONST, 0, LOCAL_SET, K);
	code.push(...BLOCK, ...LOOP);
	code.push(LOCAL_GET, K, LOCAL_GET, DIM, I32_GE_U, BR_IF, 1);
	ACC.forEach((acc, j) => {
		code.push(LOCAL_GET, acc);
		code.push(LOCAL_GET, DATA, LOCAL_GET, K, I32_ADD, ...V128_LOAD, 0, ...leb(16 * j));
		code.push(LOCAL_GET, Q, LOCAL_GET, K, I32_ADD, ...V128_LOAD, 0, ...leb(16 * j));
		code.push(...F32X4_MUL, ...F32X4_ADD, LOCAL_SET, acc);
	});
	code.push(LOCAL_GET, K, I32_CONST, ...sleb(64), I32_ADD, LOCAL_SET, K, BR, 0, END, END);
	// a0 = a0 + a1 + a2 + a3; then the lanes.
	code.push(LOCAL_GET, OUT, LOCAL_GET, ROW, I32_CONST, 2, I32_SHL, I32_ADD);
	code.push(LOCAL_GET, ACC[0], LOCAL_GET, ACC[1], ...F32X4_ADD, LOCAL_GET, ACC[2], ...F32X4_ADD, LOCAL_GET, ACC[3], ...F32X4_ADD, LOCAL_SET, ACC[0]);
	code.push(LOCAL_GET, ACC[0], ...F32X4_EXTRACT, 0);
	for (const lane of [1, 2, 3]) code.push(LOCAL_GET, ACC[0], ...F32X4_EXTRACT, lane, F32_ADD);
	code.push(F32_STORE, 2, 0);
	code.push(LOCAL_GET, DATA, LOCAL_GET, DIM, I32_ADD, LOCAL_SET, DATA);
	code.push(LOCAL_GET, ROW, I32_CONST, 1, I32_ADD, LOCAL_SET, ROW, BR, 0, END, END, END);
	return code;
}

function section(id: number, content: number[]): number[] {
	return [id, ...leb(content.length), ...content];
}

const name = (s: string) => [...leb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module's bytes: imports env.memory, exports dots(data, n, dimBytes, q, out). */
export function dotScanModuleBytes(): Uint8Array {
	const i32 = 0x7f;
	const v128 = 0x7b;
	const type = section(1, [1, 0x60, 5, i32, i32, i32, i32, i32, 0]);
	const imports = section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1]);
	const funcs = section(3, [1, 0]);
	const exports = section(7, [1, ...name('dots'), 0x00, 0]);
	const locals = [2, 2, i32, 4, v128];
	const fn = [...locals, ...body()];
	const code = section(10, [1, ...leb(fn.length), ...fn]);
	return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imports, ...funcs, ...exports, ...code]);
}

export interface DotScan {
	readonly memory: WebAssembly.Memory;
	dots(data: number, n: number, dimBytes: number, q: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/** Instantiates the kernel over `memory`, or returns null where WebAssembly SIMD is unavailable. */
export function createDotScan(memory: WebAssembly.Memory): DotScan | null {
	if (compiled === undefined) {
		try {
			compiled = new WebAssembly.Module(dotScanModuleBytes() as Uint8Array<ArrayBuffer>);
		} catch {
			compiled = null;
		}
	}
	if (!compiled) return null;
	const instance = new WebAssembly.Instance(compiled, { env: { memory } });
	return { memory, dots: instance.exports.dots as DotScan['dots'] };
}
