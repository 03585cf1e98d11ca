import type { SessionRow } from '../../../repositories/session.repository.ts';

/**
 * The data a validation path or a dialog condition reads: `providedData.*` from the settings,
 * `extractedData.*` and everything nodes saved, at the top level.
 */
export function sessionDataView(session: SessionRow, data: Record<string, unknown>): Record<string, unknown> {
	const settings = session.settings as { providedData?: Record<string, string>; metadata?: Record<string, unknown> };
	return { ...data, providedData: settings.providedData ?? {}, extractedData: (data.extractedData as Record<string, string>) ?? {} };
}
