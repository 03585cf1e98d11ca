// What the page reads of a document_scan node's props, with the page's own defaults for what is
// missing. It is one function on purpose: once the page contract types these props, this is the one
// place to replace, and nothing else on the page reads `node.props` for the scan.

export type ScanningMode = 'SINGLE_SIDE' | 'MULTI_SIDE' | 'BARCODE';

export interface DocumentNodeSettings {
	scanningMode: ScanningMode;
	allowedDocumentTypes: string[];
	showTorchButton: boolean;
	showCameraSwitch: boolean;
	timeoutSeconds: number;
}

export interface DocumentNodeView {
	settings: DocumentNodeSettings;
	/** Time left by the server's clock when the page got the node (a reload resumes the countdown). */
	timeLeftMs: number;
}

/** The node's settings and time left as the server's view gives them. */
export function documentNodeViewOf(props: Record<string, unknown>): DocumentNodeView {
	const s = (props.settings ?? {}) as Partial<DocumentNodeSettings>;
	const settings: DocumentNodeSettings = {
		scanningMode: s.scanningMode === 'MULTI_SIDE' || s.scanningMode === 'BARCODE' ? s.scanningMode : 'SINGLE_SIDE',
		allowedDocumentTypes: Array.isArray(s.allowedDocumentTypes) ? s.allowedDocumentTypes.filter((t): t is string => typeof t === 'string') : [],
		showTorchButton: s.showTorchButton !== false,
		showCameraSwitch: s.showCameraSwitch !== false,
		timeoutSeconds: typeof s.timeoutSeconds === 'number' ? s.timeoutSeconds : 120
	};
	return { settings, timeLeftMs: typeof props.timeLeftMs === 'number' ? props.timeLeftMs : settings.timeoutSeconds * 1000 };
}
