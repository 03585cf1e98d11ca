import { hasCamera, isMobileDevice } from '#lib/flow/environment.ts';
import type { PageShell } from '#lib/flow/page-shell.svelte.ts';
import type { MediaProblem } from '#lib/flow/permission-result.ts';

export type PermissionsStatus = 'idle' | 'opening' | 'requesting' | 'problem';

/**
 * The permissions page's steps: open the link (single use), ask for what the flow needs, and
 * either hand the answer to the runner or explain what went wrong with a way forward (retry, the
 * phone, or going on without: a microphone-only flow can always be typed).
 */
export class PermissionsStep {
	status = $state<PermissionsStatus>('idle');
	problem = $state<MediaProblem | null>(null);
	/** A desktop that reports no camera at all, before anything is asked. */
	noCamera = $state(false);
	mobile = $state(false);
	private readonly shell: PageShell;
	get needs() {
		const { camera, microphone } = this.shell.settings.requirements;
		return { camera, microphone };
	}

	get busy(): boolean {
		return this.status === 'opening' || this.status === 'requesting';
	}

	constructor(shell: PageShell, userAgent: string) {
		this.shell = shell;
		this.mobile = isMobileDevice(userAgent);
	}

	/**
	 * In the browser: iPadOS passes for a Mac until its touch points are counted, and a desktop
	 * without any camera can be told so before anything is asked (device kinds need no permission).
	 */
	async inspectDevice(maxTouchPoints: number, userAgent: string): Promise<void> {
		// Face steps ahead: their detector and models download while the user reads this page.
		// (Loaded here, not imported: the worker's client is the face steps' code, not this page's.)
		if (this.shell.settings.requirements.biometric) void import('#lib/camera/face-worker-client.ts').then((m) => m.preloadFaceModels(), () => undefined);
		this.mobile = isMobileDevice(userAgent, maxTouchPoints);
		if (!this.needs.camera || this.mobile) return;
		this.noCamera = (await hasCamera()) === false;
	}

	async continue(): Promise<void> {
		if (this.busy) return;
		this.status = 'opening';
		// The session's code, unless it came while the user read this page; then the link is opened.
		const runner = await this.shell.open();
		if (!runner) {
			this.status = 'idle';
			return;
		}
		const needs = this.needs;
		if (needs.camera || needs.microphone) {
			this.status = 'requesting';
			const result = await runner.media.request(needs);
			if (!result.ok) {
				this.problem = result.problem;
				this.status = 'problem';
				return;
			}
		}
		const { biometric, recognition } = runner.settings.requirements;
		this.problem = null;
		this.status = 'idle';
		runner.setPermission({ outcome: 'granted', camera: needs.camera, microphone: needs.microphone, consent: { biometric, enrolment: recognition } });
	}

	/** Goes on without the device; a `permissions` node will hear that it was not granted. */
	continueWithout(): void {
		// Only after a problem with the devices, which the runner (already fetched) reported.
		this.shell.runner?.setPermission({ outcome: 'denied', reason: this.problem ?? 'error', camera: this.needs.camera, microphone: this.needs.microphone });
	}

	async usePhoneInstead(): Promise<void> {
		await (await this.shell.load())?.startHandoff();
	}
}
