import type { NodeHandler } from '../node-handler.ts';

/**
 * Camera nodes (face and document) are decided by the server from uploaded evidence, so the
 * page cannot simply post an outcome. Until a node type's evidence pipeline is wired, the page
 * shows it as unavailable and its only action is the user's cancel, which takes the node's
 * cancel outcome where the type has one.
 */
export function cameraNodeHandler<T extends 'document_scan'>(cancelOutcome: string | null): NodeHandler<T> {
	return {
		view(ctx) {
			const { id: _id, type: _type, outcomes: _outcomes, ...settings } = ctx.node as Record<string, unknown>;
			return { settings, available: false, cancellable: cancelOutcome !== null };
		},
		actions: cancelOutcome
			? {
					async cancel() {
						return { finish: { outcome: cancelOutcome } };
					}
				}
			: {}
	};
}
