// The package's "exports" map points its types at a file that does not exist (vision_.d.ts), so
// TypeScript cannot find vision.d.ts through the package name. What we use of it, declared here.
declare module '@mediapipe/tasks-vision' {
	export interface NormalizedKeypoint {
		x: number;
		y: number;
		score?: number;
		label?: string;
	}
	export interface BoundingBox {
		originX: number;
		originY: number;
		width: number;
		height: number;
	}
	export interface Category {
		score: number;
		index: number;
		categoryName: string;
		displayName: string;
	}
	export interface Detection {
		categories: Category[];
		boundingBox?: BoundingBox;
		keypoints: NormalizedKeypoint[];
	}
	export interface DetectionResult {
		detections: Detection[];
	}
	export interface WasmFileset {
		wasmLoaderPath: string;
		wasmBinaryPath: string;
	}
	export class FilesetResolver {
		static forVisionTasks(basePath?: string): Promise<WasmFileset>;
	}
	export interface FaceDetectorOptions {
		baseOptions?: { modelAssetPath?: string; modelAssetBuffer?: Uint8Array; delegate?: 'CPU' | 'GPU' };
		runningMode?: 'IMAGE' | 'VIDEO';
		minDetectionConfidence?: number;
		minSuppressionThreshold?: number;
	}
	export class FaceDetector {
		static createFromOptions(fileset: WasmFileset, options: FaceDetectorOptions): Promise<FaceDetector>;
		detectForVideo(frame: TexImageSource, timestamp: number): DetectionResult;
		close(): void;
	}
}
