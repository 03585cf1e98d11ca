import type { NodeHandler } from '../node-handler.ts';

/**
 * `permissions`: the page asks for camera and microphone and reports the answer with the user's
 * consent choices; consent is what later biometric nodes and recognition enrolment rely on.
 */
export const permissionsHandler: NodeHandler<'permissions'> = {
	actions: {
		async granted(ctx, payload) {
			const consent = payload.consent as { biometric?: unknown; enrolment?: unknown } | undefined;
			const biometric = consent?.biometric === true;
			const enrolment = biometric && consent?.enrolment === true;
			await ctx.repos.sessions.update(ctx.session.id, { consent: { biometric, enrolment, at: ctx.now } });
			return { finish: { outcome: 'permissionsGranted', details: { camera: payload.camera !== false, microphone: payload.microphone === true, consent: { biometric, enrolment } } } };
		},
		async denied(_ctx, payload) {
			const reason = typeof payload.reason === 'string' ? payload.reason.slice(0, 40) : 'denied';
			return { finish: { outcome: 'permissionsDenied', details: { reason } } };
		}
	}
};
