import type { Session } from '#lib/domain/session/session.model.ts';

/**
 * The data a validation path or a dialog condition reads: `providedData.*` from the settings,
 * `extractedData.*` and everything nodes saved, at the top level.
 */
export function sessionDataView(session: Session, data: Record<string, unknown>): Record<string, unknown> {
	return { ...data, providedData: session.settings.providedData ?? {}, extractedData: (data.extractedData as Record<string, string>) ?? {} };
}
