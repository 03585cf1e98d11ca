// Flows the benches share: the same session shape makes their figures comparable.

/** Permissions, then one single-side passport scan. */
export const PASSPORT_SCAN_FLOW = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'doc', permissionsDenied: 'end' } },
	{ id: 'doc', type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], outcomes: { scanSuccess: 'end', userCancelled: 'end', scanTimeout: 'end' } },
	{ id: 'end', type: 'end' }
];
