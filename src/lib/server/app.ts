import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { ServerKeys } from './crypto.ts';
import { openStore, type Store } from './db/store.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { DemoService } from './services/demo.service.ts';
import { logger } from './logger.ts';
import { unitOfWork, type UnitOfWork } from './repositories/index.ts';
import { AccountService } from './services/account.service.ts';
import { CatalogueService } from './services/catalogue.service.ts';
import { HealthService } from './services/health.service.ts';
import { SessionService } from './services/session.service.ts';
import { SweeperService } from './services/sweeper.service.ts';
import { PageService } from './services/page.service.ts';
import { FlowRunner } from './services/runner/runner.service.ts';
import { createDialogEngine } from './services/dialog/index.ts';
import type { DialogPort } from './services/runner/runner-deps.ts';
import { createOtpDelivery, type OtpDelivery } from './services/otp/otp-delivery.ts';
import { SandboxOutboxService } from './services/otp/sandbox-outbox.service.ts';
import { startWorkers, type Workers } from './workers/index.ts';
import { getFaceEngine } from './biometrics/face-engine.ts';
import { safeFetchImage } from './http/safe-fetch.ts';
import type { FaceEvidenceSink } from './services/faces/face-evidence-sink.ts';
import { FaceTemplateCache } from './services/faces/template-cache.ts';
import { faceScreenshotAnalyzer } from './services/faces/face-ai-analysis.ts';
import { getAgeSexEstimator } from './biometrics/age-sex-estimator.ts';
import { MediaFaceEvidenceSink } from './services/faces/media-face-evidence-sink.ts';
import { LocalMediaStore } from './media/local-media-store.ts';
import type { MediaStore } from './media/media-store.ts';
import { MediaService } from './services/media.service.ts';
import { MediaDocumentSink } from './documents/document-media.ts';
import { readDocument } from './documents/document-reader.service.ts';
import { OutboxRelay, webhookFanout } from './services/outbox-relay.service.ts';
import { PostSessionService } from './services/post-session.service.ts';
import { ReportService } from './services/report.service.ts';
import { RetentionService } from './services/retention.service.ts';
import { VideoService } from './services/video.service.ts';
import { WebhookDeliveryService } from './services/webhook-delivery.service.ts';
import { VideoAnalyzer } from './video/video-analyzer.ts';
import type { SendWebhookInput, SendWebhookResult } from './webhooks/webhook-sender.ts';
import path from 'node:path';

/**
 * Everything a request handler, a hook, a job or the CLI may use, built once at start-up: the
 * configuration and the services. The store, its unit of work and the repositories stay inside
 * the services (routes call services only).
 */
export interface App {
	config: Config;
	now: () => number;
	accounts: AccountService;
	catalogue: CatalogueService;
	sessions: SessionService;
	runner: FlowRunner;
	pages: PageService;
	sweeper: SweeperService;
	rateLimiter: RateLimiter;
	demo: DemoService;
	media: MediaService;
	video: VideoService;
	postSession: PostSessionService;
	relay: OutboxRelay;
	webhooks: WebhookDeliveryService;
	retention: RetentionService;
	reports: ReportService;
	/** The sandbox outbox (passcodes of sandbox sessions) for integrators and the demo page. */
	sandboxOutbox: SandboxOutboxService;
	/** `GET /healthz`, and which store this instance runs on. */
	health: HealthService;
	/** Stops the workers and closes the store. */
	close(): Promise<void>;
}

/**
 * What stays inside the app, handed out by assembleApp only: the store suites set up and read
 * state through the unit of work (tests/helpers/test-store.ts). Routes never see it.
 */
export interface AppInternals {
	store: Store;
	uow: UnitOfWork;
	keys: ServerKeys;
	/** Where face captures and screenshots go (the media service). */
	faceEvidence: FaceEvidenceSink;
}

export interface StartOptions {
	/** In-memory PGlite instead of DATA_DIR (tests). */
	inMemory?: boolean;
	now?: () => number;
	/** Start background workers (default: config.WORKERS). */
	workers?: boolean;
	/** Replace the dialog engine or the passcode delivery (tests). */
	dialog?: DialogPort;
	otp?: OtpDelivery;
	/** Where face evidence is stored (default: the media service). */
	faceEvidence?: FaceEvidenceSink;
	/** Media bytes elsewhere than DATA_DIR/media (tests, a future S3 store). */
	mediaStore?: MediaStore;
	/** Replace the webhook sender (tests). */
	webhookSend?: (input: SendWebhookInput) => Promise<SendWebhookResult>;
}

export async function createApp(config: Config, options: StartOptions = {}): Promise<App> {
	return (await assembleApp(config, options)).app;
}

/**
 * Builds every service in dependency order (no service is finished by a setter after it is
 * built), and returns the app with what stays inside it.
 */
export async function assembleApp(config: Config, options: StartOptions = {}): Promise<{ app: App; internals: AppInternals }> {
	const store = await openStore({ databaseUrl: config.DATABASE_URL, dataDir: options.inMemory ? undefined : config.dataDir });
	const now = options.now ?? Date.now;
	const uow = unitOfWork(store);
	const keys = new ServerKeys(config.SECRET_KEY ?? (await storedServerSecret(uow, store.kind, now)));
	const accounts = new AccountService({ uow, keys, now });
	const catalogue = new CatalogueService({ uow, now, publicBaseUrl: config.PUBLIC_BASE_URL });
	const mediaStore = options.mediaStore ?? new LocalMediaStore(path.join(config.dataDir, 'media'));
	const media = new MediaService({ uow, store: mediaStore, keys, now, publicBaseUrl: config.PUBLIC_BASE_URL });
	const reports = new ReportService({ uow, media, now });
	const sessions = new SessionService({
		uow,
		keys,
		now,
		publicBaseUrl: config.PUBLIC_BASE_URL,
		clientSecretTtlMs: config.CLIENT_SECRET_TTL_S * 1000,
		reportBuilder: reports.build,
		enabledLangs: () => catalogue.enabledLangIds()
	});
	const otp = options.otp ?? createOtpDelivery({ smtpUrl: config.SMTP_URL, smtpFrom: config.SMTP_FROM, smsWebhookUrl: config.SMS_WEBHOOK_URL, uow, now });
	const faceEvidence = options.faceEvidence ?? new MediaFaceEvidenceSink({ media, uow });
	const faceTemplates = new FaceTemplateCache({ uow, keys });
	const runner = new FlowRunner({ uow, keys, now, sessions, dialog: options.dialog ?? createDialogEngine(config, { logger }), otp, faces: { engine: getFaceEngine, ageSex: getAgeSexEstimator, templates: faceTemplates, sink: faceEvidence, fetchImage: (url) => safeFetchImage(url) }, documents: { sink: new MediaDocumentSink(media), read: (images, opts) => readDocument(images, opts) } });
	const pages = new PageService({ uow, now, runner, catalogue, frameAncestors: config.FRAME_ANCESTORS, inactivityMs: config.SESSION_INACTIVITY_TIMEOUT_S * 1000 });
	const sweeper = new SweeperService({ uow, sessions, now, inactivityMs: config.SESSION_INACTIVITY_TIMEOUT_S * 1000 });
	const rateLimiter = new RateLimiter(config.RATE_LIMIT, config.RATE_LIMIT_WINDOW_S, store.counterPool);
	const demo = new DemoService({
		accounts,
		sessions,
		policy: { enabled: config.DEMO_ENABLED, embedded: store.kind === 'pglite' },
		limiter: new RateLimiter(config.DEMO_RATE_LIMIT, 3600, store.counterPool, 'demo')
	});
	const video = new VideoService({ uow, media, now });
	const videoAnalyzer = new VideoAnalyzer({ ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH }, now);
	// aiAnalysis from the face screenshots, with the server's face models and the age and sex estimator (README).
	const screenshotAnalyzer = faceScreenshotAnalyzer({ engine: getFaceEngine, nodeReports: (id) => uow.repos.nodeReports.list(id), ageSex: getAgeSexEstimator });
	const postSession = new PostSessionService({ uow, now, media, video, videoAnalyzer, screenshotAnalyzer });
	const relay = new OutboxRelay({ uow, now, consumers: [webhookFanout, postSession.scheduler] });
	const webhooks = new WebhookDeliveryService({ uow, keys, now, publicBaseUrl: config.PUBLIC_BASE_URL, send: options.webhookSend });
	const retention = new RetentionService({ uow, store: mediaStore, now, testDays: config.RETENTION_TEST_DAYS, liveDays: config.RETENTION_LIVE_DAYS });
	const sandboxOutbox = new SandboxOutboxService({ uow });
	const health = new HealthService({ storeKind: store.kind, ping: () => store.query('select 1') });
	await catalogue.seed();
	let workers: Workers = { stop: async () => {} };
	const app: App = {
		config,
		now,
		accounts,
		catalogue,
		sessions,
		runner,
		pages,
		sweeper,
		rateLimiter,
		demo,
		media,
		video,
		postSession,
		relay,
		webhooks,
		retention,
		reports,
		sandboxOutbox,
		health,
		async close() {
			webhooks.stop();
			postSession.stop();
			await workers.stop();
			await store.close();
		}
	};
	if (options.workers ?? config.WORKERS) workers = startWorkers(app);
	return { app, internals: { store, uow, keys, faceEvidence } };
}

/**
 * Without SECRET_KEY, the first instance to start generates the server secret and stores it, so
 * every instance on the same database agrees. Setting SECRET_KEY keeps it out of the database.
 */
async function storedServerSecret(uow: UnitOfWork, storeKind: Store['kind'], now: () => number): Promise<string> {
	const secret = await uow.repos.serverSecrets.findOrCreate('master', randomBytes(32).toString('hex'), now());
	if (storeKind === 'postgres') logger.warn('SECRET_KEY is not set: using a server secret stored in the database; set SECRET_KEY in production');
	return secret;
}

let current: App | undefined;
let starting: Promise<App> | undefined;

/** The process's app, started once (hooks.server.ts `init`). */
export function startApp(config: Config, options: StartOptions = {}): Promise<App> {
	starting ??= createApp(config, options).then((app) => (current = app));
	return starting;
}

export function getApp(): App {
	if (!current) throw new Error('The app has not started yet');
	return current;
}
