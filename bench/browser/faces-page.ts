// Bench page (bundled by bench/faces.bench.ts with esbuild): our detector + gate on the live fake
// camera, our worker on chosen frames, and the peers on the same frames. Everything is timed in the
// page; the driver reads `window.bench`.
import { createMediaPipeDetector, webglRenderer } from '#lib/camera/detector.mediapipe.ts';
import { FaceWorkerClient } from '#lib/camera/face-worker-client.ts';
import { createLiveSource, DETECT_COPY_WIDTH } from '#lib/camera/live-frames.ts';
import { laplacianVariance } from '#lib/face/quality.ts';

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length ? s[(s.length - 1) >> 1] : NaN;
};

async function camera(): Promise<HTMLVideoElement> {
	const video = document.createElement('video');
	video.muted = true;
	video.playsInline = true;
	video.srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
	document.body.append(video);
	await video.play();
	while (video.readyState < 2) await new Promise((r) => setTimeout(r, 20));
	return video;
}

const nextFrame = (video: HTMLVideoElement) => new Promise<void>((r) => video.requestVideoFrameCallback(() => r()));

/** Ours: node opens → first detection; then per-frame detect + gate; then landmarks + embedding + liveness on chosen frames. */
async function ours(frames = 40, before = false) {
	const t0 = performance.now();
	const video = await camera();
	const tCamera = performance.now();
	const detector = await createMediaPipeDetector({ useWebGL: true });
	// `before`: as the page did until the detector got a scaled copy and the crop was reused when still.
	const source = createLiveSource(video, detector, { minFaceSize: 60 }, before ? { copyWidth: 0, reuseCrop: false } : {});
	let first = source.check();
	while (!first?.verdict || first.quality.faceCount === 0) {
		await nextFrame(video);
		first = source.check();
	}
	const tFirst = performance.now();
	const perFrame: number[] = [];
	let faces = 0;
	for (let i = 0; i < frames; i++) {
		await nextFrame(video);
		const s = performance.now();
		const c = source.check();
		perFrame.push(performance.now() - s);
		if (c?.quality.faceCount) faces++;
	}
	const worker = new FaceWorkerClient(new Worker('/bench/face.worker.js', { type: 'module' }));
	const tw = performance.now();
	await worker.ready();
	const workerReady = performance.now() - tw;
	const chosen: number[] = [];
	for (let i = 0; i < 8; i++) {
		await nextFrame(video);
		const c = source.check();
		const bitmap = await createImageBitmap(video);
		const s = performance.now();
		const r = await worker.analyse(i + 1, bitmap, c?.box ?? null, { liveness: true }, true);
		await worker.embed(i + 1);
		chosen.push(performance.now() - s);
		if (!r.face) chosen.pop();
	}
	await worker.drop('all');
	worker.terminate();
	detector.close();
	for (const t of (video.srcObject as MediaStream).getTracks()) t.stop();
	video.remove();
	return {
		backend: detector.backend,
		renderer: webglRenderer(),
		cameraMs: tCamera - t0,
		firstDetectionMs: tFirst - t0,
		firstDetectionAfterCameraMs: tFirst - tCamera,
		detectGateMs: median(perFrame),
		// The crop is re-read only on some frames (frame-gate.ts CropMemo): the tail and the mean say what those cost.
		detectGateP90Ms: [...perFrame].sort((a, b) => a - b)[Math.floor(perFrame.length * 0.9)],
		detectGateMeanMs: perFrame.reduce((a, b) => a + b, 0) / perFrame.length,
		facesSeen: `${faces}/${frames}`,
		workerReadyMs: workerReady,
		chosenFrameMs: median(chosen)
	};
}

/**
 * Where a frame's detection + gate goes: the detector on the <video> (as createLiveSource feeds it)
 * against the detector on a copy of the frame drawn at `smallWidth`, the grey face crop (drawImage +
 * getImageData) and the gate's arithmetic, each the median over `frames` camera frames.
 */
async function breakdown(frames = 30, smallWidth = DETECT_COPY_WIDTH, willReadFrequently = false) {
	const video = await camera();
	const [onVideo, onSmall] = [await createMediaPipeDetector({ useWebGL: true }), await createMediaPipeDetector({ useWebGL: true })];
	const small = new OffscreenCanvas(smallWidth, Math.round((smallWidth * video.videoHeight) / video.videoWidth));
	const sctx = small.getContext('2d', { alpha: false, willReadFrequently })!;
	const crop = new OffscreenCanvas(128, 128);
	const cctx = crop.getContext('2d', { willReadFrequently: true })!;
	const t = { detectVideo: [] as number[], drawSmall: [] as number[], detectSmall: [] as number[], crop: [] as number[], gate: [] as number[] };
	const boxes: string[] = [];
	for (let i = 0; i < frames + 3; i++) {
		await nextFrame(video);
		let s = performance.now();
		const a = onVideo.detect(video, performance.now());
		const detectVideo = performance.now() - s;
		s = performance.now();
		sctx.drawImage(video, 0, 0, small.width, small.height);
		const drawSmall = performance.now() - s;
		s = performance.now();
		const b = onSmall.detect(small, performance.now());
		const detectSmall = performance.now() - s;
		s = performance.now();
		const box = a.faces[0]?.box;
		if (box) {
			cctx.drawImage(video, box.x, box.y, box.width, box.height, 0, 0, 128, 128);
			cctx.getImageData(0, 0, 128, 128);
		}
		const cropMs = performance.now() - s;
		s = performance.now();
		const gray = new Float32Array(128 * 128).map((_, k) => (k * 31) % 255);
		laplacianVariance(gray, 128, 128);
		const gate = performance.now() - s;
		if (i < 3) continue;
		t.detectVideo.push(detectVideo);
		t.drawSmall.push(drawSmall);
		t.detectSmall.push(detectSmall);
		t.crop.push(cropMs);
		t.gate.push(gate);
		const k = small.width / video.videoWidth;
		if (box && b.faces[0] && i === 10) boxes.push(`video ${[box.x, box.y, box.width].map(Math.round).join(',')} small×${(1 / k).toFixed(1)} ${[b.faces[0].box.x / k, b.faces[0].box.y / k, b.faces[0].box.width / k].map(Math.round).join(',')}`);
	}
	onVideo.close();
	onSmall.close();
	for (const tr of (video.srcObject as MediaStream).getTracks()) tr.stop();
	video.remove();
	return { backend: onVideo.backend, ...Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)])), boxes };
}

declare global {
	interface Window {
		bench: Record<string, (...args: never[]) => Promise<unknown>>;
		faceapi: any;
		Human: any;
	}
}

/** face-api (TF.js bundled): TinyFaceDetector + 68 landmarks + recognition net. */
async function faceApi(frames = 15, backend = 'wasm') {
	const faceapi = window.faceapi;
	const t0 = performance.now();
	if (backend === 'wasm') {
		faceapi.tf.wasm?.setWasmPaths?.('/peers/tfjs-wasm/');
	}
	await faceapi.tf.setBackend(backend).catch(() => faceapi.tf.setBackend('cpu'));
	await faceapi.tf.ready();
	await faceapi.nets.tinyFaceDetector.loadFromUri('/peers/face-api/model');
	await faceapi.nets.faceLandmark68Net.loadFromUri('/peers/face-api/model');
	await faceapi.nets.faceRecognitionNet.loadFromUri('/peers/face-api/model');
	const load = performance.now() - t0;
	const video = await camera();
	const options = new faceapi.TinyFaceDetectorOptions({ inputSize: 320 });
	await faceapi.detectSingleFace(video, options); // warm-up
	const detect: number[] = [];
	const full: number[] = [];
	for (let i = 0; i < frames; i++) {
		await nextFrame(video);
		let s = performance.now();
		await faceapi.detectSingleFace(video, options);
		detect.push(performance.now() - s);
		s = performance.now();
		await faceapi.detectSingleFace(video, options).withFaceLandmarks().withFaceDescriptor();
		full.push(performance.now() - s);
	}
	for (const t of (video.srcObject as MediaStream).getTracks()) t.stop();
	video.remove();
	return { backend: faceapi.tf.getBackend(), loadMs: load, detectMs: median(detect), detectLandmarksEmbedMs: median(full) };
}

/** Human: face detector (BlazeFace) alone, then with mesh + description (embedding) + antispoof/liveness. */
async function human(frames = 15, backend = 'wasm') {
	const H = window.Human;
	const t0 = performance.now();
	const base = { backend, modelBasePath: '/peers/human/models/', wasmPath: '/peers/tfjs-wasm/', debug: false, body: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, gesture: { enabled: false }, segmentation: { enabled: false }, filter: { enabled: false }, cacheSensitivity: 0 };
	const detectOnly = new H.Human({ ...base, face: { enabled: true, detector: { rotation: false }, mesh: { enabled: false }, iris: { enabled: false }, description: { enabled: false }, emotion: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false } } });
	await detectOnly.load();
	await detectOnly.warmup();
	const full = new H.Human({ ...base, face: { enabled: true, detector: { rotation: false }, mesh: { enabled: true }, iris: { enabled: false }, description: { enabled: true }, emotion: { enabled: false }, antispoof: { enabled: true }, liveness: { enabled: true } } });
	await full.load();
	const load = performance.now() - t0;
	const video = await camera();
	const detect: number[] = [];
	const all: number[] = [];
	for (let i = 0; i < frames; i++) {
		await nextFrame(video);
		let s = performance.now();
		await detectOnly.detect(video);
		detect.push(performance.now() - s);
		s = performance.now();
		await full.detect(video);
		all.push(performance.now() - s);
	}
	for (const t of (video.srcObject as MediaStream).getTracks()) t.stop();
	video.remove();
	return { backend: detectOnly.tf.getBackend(), loadMs: load, detectMs: median(detect), detectMeshEmbedLivenessMs: median(all) };
}

window.bench = { ours, faceApi, human, breakdown } as never;
