// Bench page (bundled by bench/faces.bench.ts with esbuild): our detector + gate on the live fake
// camera, our worker on chosen frames, and the peers on the same frames. Everything is timed in the
// page; the driver reads `window.bench`.
import { createMediaPipeDetector, webglRenderer } from '#lib/camera/detector.mediapipe.ts';
import { FaceWorkerClient } from '#lib/camera/face-worker-client.ts';
import { createLiveSource } from '#lib/camera/live-frames.ts';

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
async function ours(frames = 40) {
	const t0 = performance.now();
	const video = await camera();
	const tCamera = performance.now();
	const detector = await createMediaPipeDetector({ useWebGL: true });
	const source = createLiveSource(video, detector, { minFaceSize: 60 });
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
		facesSeen: `${faces}/${frames}`,
		workerReadyMs: workerReady,
		chosenFrameMs: median(chosen)
	};
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

window.bench = { ours, faceApi, human } as never;
